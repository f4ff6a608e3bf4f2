//! One program's way of reporting: every error is one line
//! `<program>: error: <what>` on standard error, and a reader that goes away
//! (`| head`) is never an error of ours.

use std::io::Write;
use std::process::ExitCode;

use clap::error::ErrorKind;

use super::exit;

/// The reporting of one program, named as users type it.
#[derive(Debug, Clone, Copy)]
pub struct Program(pub &'static str);

impl Program {
    /// Prints `<program>: error: <message>` (on one line) and returns `code`.
    pub fn fail(self, message: &str, code: u8) -> ExitCode {
        let message = message.trim_end().replace('\n', " ");
        let _ = writeln!(std::io::stderr().lock(), "{}: error: {message}", self.0);
        ExitCode::from(code)
    }

    /// Prints a command's report on standard output. A closed pipe is
    /// success; any other write failure is an error.
    pub fn report(self, text: &str) -> ExitCode {
        let text = text.trim_end();
        if text.is_empty() {
            return ExitCode::from(exit::SUCCESS);
        }
        match writeln!(std::io::stdout().lock(), "{text}") {
            Ok(()) => ExitCode::from(exit::SUCCESS),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(exit::SUCCESS),
            Err(e) => self.fail(&format!("standard output: {e}"), exit::FAILURE),
        }
    }

    /// What a failed parse prints: help and version on standard output (exit
    /// 0), anything else as one error line that ends with where to find help
    /// (exit 2).
    pub fn parse_error(self, error: &clap::Error) -> ExitCode {
        match error.kind() {
            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                let _ = write!(std::io::stdout().lock(), "{}", error.render());
                ExitCode::from(exit::SUCCESS)
            }
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                let _ = write!(std::io::stderr().lock(), "{}", error.render());
                ExitCode::from(exit::USAGE)
            }
            _ => self.fail(
                &format!("{} (see {} --help)", usage_line(error), self.0),
                exit::USAGE,
            ),
        }
    }
}

/// clap's message on one line, without its usage block and its "For more
/// information" hint (the caller adds its own).
pub(crate) fn usage_line(error: &clap::Error) -> String {
    let text = error.render().to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more"))
        .collect();
    let line = parts.join(" ");
    line.strip_prefix("error: ").unwrap_or(&line).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{value_parser, Arg, Command};

    fn parse(args: &[&str]) -> clap::Error {
        Command::new("prog")
            .arg(
                Arg::new("depth")
                    .long("depth")
                    .value_parser(value_parser!(u32).range(1..=100)),
            )
            .try_get_matches_from(args)
            .unwrap_err()
    }

    #[test]
    fn a_range_error_is_one_line_that_names_the_range() {
        let line = usage_line(&parse(&["prog", "--depth", "0"]));
        assert!(!line.contains('\n'), "{line}");
        assert!(line.contains("--depth"), "{line}");
        assert!(line.contains("1..=100"), "{line}");
        assert!(!line.starts_with("error:"), "{line}");
    }

    #[test]
    fn an_unknown_option_is_one_line() {
        let line = usage_line(&parse(&["prog", "--bogus"]));
        assert!(line.contains("--bogus") && !line.contains('\n'), "{line}");
    }
}
