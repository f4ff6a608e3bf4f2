//! Drives the real `nnue` binary over pipes, as a GUI does.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// How long `eval` may take (a debug build loading a wide net is slow).
const EVAL_TIMEOUT: Duration = Duration::from_secs(120);

/// `eval`'s raw line for `value`: internal units, side to move, as Stockfish
/// prints it.
pub(crate) fn raw_eval_line(value: i32) -> String {
    format!("NNUE evaluation {value} (side to move, internal units)")
}

/// A running engine with a line reader on its standard output.
pub(crate) struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line read so far.
    pub(crate) transcript: Vec<String>,
}

impl Engine {
    pub(crate) fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nnue"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start nnue");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    pub(crate) fn send(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    pub(crate) fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Reads until a line satisfies `done`; returns the lines read (including it).
    /// Panics with the transcript after `timeout`.
    pub(crate) fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    let stop = done(&line);
                    got.push(line);
                    if stop {
                        return got;
                    }
                }
                Err(_) => panic!(
                    "engine did not answer within {timeout:?}; read:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// Sends `isready` and returns everything up to `readyok`.
    pub(crate) fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.until(Duration::from_secs(30), |l| l == "readyok")
    }

    /// Sets `EvalFile` to `path` and checks the `isready` announcement names the
    /// loaded net by `summary` (e.g. `[HalfKAv2_hm 64x2-16-32-1`), so a test knows
    /// which layout the engine detected before it compares values.
    pub(crate) fn load_net(&mut self, path: &Path, summary: &str) {
        self.send(&format!("setoption name EvalFile value {}", path.display()));
        let ready = self.sync();
        assert!(
            ready
                .iter()
                .any(|l| l.starts_with("info string NNUE evaluation using") && l.contains(summary)),
            "want {summary:?}: {ready:?}"
        );
    }

    /// Sends `eval` for `fen` and returns its lines, up to the NNUE line in pawns
    /// that ends the report.
    pub(crate) fn eval_lines(&mut self, fen: &str) -> Vec<String> {
        self.send(&format!("position fen {fen}"));
        self.eval_current()
    }

    /// Sends `eval` for the current position and returns its lines as
    /// [`Engine::eval_lines`] does.
    pub(crate) fn eval_current(&mut self) -> Vec<String> {
        self.send("eval");
        self.until(EVAL_TIMEOUT, |l| {
            l.starts_with("NNUE evaluation") && l.contains("pawns")
        })
    }

    /// `eval`'s raw NNUE line for `fen` (compare with [`raw_eval_line`]).
    pub(crate) fn raw_eval(&mut self, fen: &str) -> String {
        self.eval_lines(fen)
            .into_iter()
            .find(|l| l.ends_with("(side to move, internal units)") && l.starts_with("NNUE"))
            .unwrap_or_else(|| panic!("{fen}: no raw NNUE line"))
    }

    /// Sends `quit` and checks the process exits successfully.
    pub(crate) fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "engine exited with {status}");
                return;
            }
            assert!(Instant::now() < deadline, "engine did not quit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[allow(unused_imports)]
pub(crate) use nnue_test_support::test_data_text;
