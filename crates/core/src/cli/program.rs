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

    /// A job that stopped early as asked (a signal) after saving what it had:
    /// `<program>: stopped by <signal>: <message>` on standard error, not an
    /// error line, and `code` (130 or 143).
    pub fn stopped(self, message: &str, code: u8) -> ExitCode {
        let by = exit::stopped_by(code).map_or(String::new(), |s| format!(" by {s}"));
        let message = message.trim_end().replace('\n', " ");
        let _ = writeln!(
            std::io::stderr().lock(),
            "{}: stopped{by}: {message}",
            self.0
        );
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
    let mut parts: Vec<&str> = Vec::new();
    let mut in_usage = false;
    for line in text.lines() {
        // The usage block runs from its "Usage:" line through the indented
        // alternatives below it, up to the next blank line.
        in_usage = line.starts_with("Usage:") || (in_usage && !line.trim().is_empty());
        let line = line.trim();
        if !in_usage && !line.is_empty() && !line.starts_with("For more") {
            parts.push(line);
        }
    }
    let line = parts.join(" ");
    super::words::humanize_ranges(line.strip_prefix("error: ").unwrap_or(&line))
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
        assert!(line.ends_with("0 is out of range (1 to 100)"), "{line}");
        assert!(!line.starts_with("error:"), "{line}");
    }

    #[test]
    fn a_usage_block_of_several_lines_is_left_out() {
        let mut command = Command::new("prog")
            .subcommand_negates_reqs(true)
            .arg(Arg::new("input").required(true))
            .subcommand(Command::new("sub"));
        let usage = command.render_usage().to_string();
        assert!(usage.lines().count() > 1, "{usage}");
        let error = command
            .try_get_matches_from_mut(["prog", "--bogus"])
            .unwrap_err();
        let line = usage_line(&error);
        assert_eq!(
            line,
            "unexpected argument '--bogus' found tip: to pass '--bogus' as a value, use '-- --bogus'"
        );
    }

    #[test]
    fn an_unknown_option_is_one_line() {
        let line = usage_line(&parse(&["prog", "--bogus"]));
        assert!(line.contains("--bogus") && !line.contains('\n'), "{line}");
    }
}
