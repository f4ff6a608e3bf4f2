//! [`Train`]: the `nnue-learn train` command lines of the tests, built option by
//! option, so the small models and short runs they share are spelled once and
//! each test states only the options it is about.

use std::path::Path;
use std::process::Command;

/// A `nnue-learn train` command line. Options keep the order they are added in.
#[derive(Clone, Debug)]
pub(crate) struct Train(Vec<String>);

impl Train {
    /// `train` with no options yet.
    pub(crate) fn new() -> Self {
        Train(vec!["train".to_owned()])
    }

    /// `train --train <data>`.
    pub(crate) fn on(data: &Path) -> Self {
        Self::new().file("--train", data)
    }

    /// `train --train` on the Stockfish-tools sample ([`super::sample_bin`]).
    pub(crate) fn on_sample() -> Self {
        Self::on(&super::sample_bin())
    }

    /// `--feature-set All --ft-size <ft>`; the hidden layers are [`Train::hidden`]'s.
    pub(crate) fn all(self, ft: &str) -> Self {
        self.args(["--feature-set", "All", "--ft-size", ft])
    }

    /// `--hidden=<widths>` (`""`: no hidden layer).
    pub(crate) fn hidden(self, widths: &str) -> Self {
        self.arg(format!("--hidden={widths}"))
    }

    /// How long the run is: `--epochs <epochs> --epoch-size <positions>
    /// --batch-size <batch>`.
    pub(crate) fn run(self, epochs: &str, positions: &str, batch: &str) -> Self {
        self.args(["--epochs", epochs, "--epoch-size", positions])
            .args(["--batch-size", batch])
    }

    /// `--no-progress`: no progress bar on stderr.
    pub(crate) fn no_progress(self) -> Self {
        self.arg("--no-progress")
    }

    /// [`Train::no_progress`], and no loss reports within an epoch.
    pub(crate) fn quiet(self) -> Self {
        self.no_progress()
            .args(["--loss-output-interval", "100000000"])
    }

    /// `--output-net <net>`.
    pub(crate) fn output(self, net: &Path) -> Self {
        self.file("--output-net", net)
    }

    /// `<option> <path>`.
    pub(crate) fn file(self, option: &str, path: &Path) -> Self {
        self.arg(option)
            .arg(path.to_str().expect("utf-8 test path"))
    }

    /// One more argument.
    pub(crate) fn arg(mut self, arg: impl AsRef<str>) -> Self {
        self.0.push(arg.as_ref().to_owned());
        self
    }

    /// More arguments.
    pub(crate) fn args<S: AsRef<str>>(self, args: impl IntoIterator<Item = S>) -> Self {
        args.into_iter().fold(self, Self::arg)
    }

    /// The arguments, as [`super::learn`] takes them.
    pub(crate) fn strs(&self) -> Vec<&str> {
        self.0.iter().map(String::as_str).collect()
    }

    /// The `nnue-learn` process to run, for tests that set its environment or
    /// read its output as it runs.
    pub(crate) fn command(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_nnue-learn"));
        cmd.args(&self.0);
        cmd
    }

    /// Runs it: (success, exit code, stdout, stderr), as [`super::learn`].
    pub(crate) fn learn(&self) -> (bool, i32, String, String) {
        super::learn(&self.strs())
    }

    /// Runs it, which must succeed (else panics with stderr); its stdout.
    pub(crate) fn learn_ok(&self) -> String {
        let (ok, _, out, err) = self.learn();
        assert!(ok, "{:?}: {err}", self.0);
        out
    }
}

/// The tests' run on the material teacher's data ([`super::material_teacher`]):
/// All 768->32x2-8-1, batches of 32, epochs of 2400 positions, lr 0.01.
pub(crate) fn material_run(train: &Path, validation: &Path) -> Train {
    Train::on(train)
        .file("--validation", validation)
        .all("32")
        .hidden("8")
        .args(["--batch-size", "32", "--epoch-size", "2400", "--lr", "0.01"])
}
