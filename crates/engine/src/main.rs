//! `nnue`: the UCI engine. With no arguments it speaks UCI on standard input and
//! output (what GUIs start); with arguments it runs them as one command and exits,
//! like Stockfish (`nnue bench`, `nnue perft 6`, `nnue go depth 12`).

use std::process::ExitCode;

use nnue_core::cli::{exit, Program};
use nnue_engine::uci::{self, Output, Session};

/// How the command-line mode names itself on its error lines.
const PROGRAM: Program = Program("nnue");

/// `--help`; the exit statuses are filled in from [`exit`], so the text cannot
/// drift from what the program returns.
fn usage() -> String {
    format!(
        "\
Usage: nnue [COMMAND [ARGS...]]

With no arguments, nnue speaks UCI on standard input and output (start it from a
GUI, or type 'uci', 'position startpos', 'go depth 10', 'quit'; 'help' lists the
commands). With arguments, it runs them as one command and exits:

  nnue bench [DEPTH]     fixed-depth search of the bench positions (signature, NPS)
  nnue evalbench [DEPTH] evaluations/s over every line of the bench positions to DEPTH
  nnue perft DEPTH       move-generation count from the start position
  nnue eval              static evaluation of the start position
  nnue go depth N        search the start position

Exit status: {} success, {} failure, {} usage error (unknown command, bad argument).
Errors go to standard error as 'nnue: error: <what>'.",
        exit::SUCCESS,
        exit::FAILURE,
        exit::USAGE
    )
}

fn main() -> ExitCode {
    let out = Output::new(Box::new(std::io::stdout()));
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.is_empty() {
        return run_command(&args, out);
    }
    out.line(&format!(
        "nnue {} by the nnue-toolkit developers (GPL-3.0-or-later)",
        env!("CARGO_PKG_VERSION")
    ));
    let stdin = std::io::stdin();
    uci::run(stdin.lock(), out);
    ExitCode::from(exit::SUCCESS)
}

/// The command-line mode: one command, its error on stderr with an exit status.
/// Output that could not be written is a failure, except to a reader that went
/// away (`nnue bench | head -1`), which is success.
fn run_command(args: &[String], out: Output) -> ExitCode {
    match args[0].as_str() {
        "-h" | "--help" => return PROGRAM.report(&usage()),
        "-V" | "--version" => {
            return PROGRAM.report(&format!("nnue {}", env!("CARGO_PKG_VERSION")))
        }
        _ => {}
    }
    let mut session = Session::new(out.clone());
    let result = session.execute(&args.join(" "));
    session.wait();
    match (result, out.failure()) {
        (Err(e), _) => PROGRAM.fail(&e.to_string(), e.exit_code()),
        (Ok(_), Some(failure)) => {
            PROGRAM.fail(&format!("standard output: {failure}"), exit::FAILURE)
        }
        (Ok(_), None) => ExitCode::from(exit::SUCCESS),
    }
}
