//! The state behind the UCI loop: current game, options, network and the search
//! thread. A search owns the [`Searcher`] while it runs (moved into its thread and
//! handed back on join), which is why commands that change the searcher are refused
//! with a clear message while a search is in progress.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::error::UciError;
use super::eval_report::EvalSource;
use super::number::ArgRange;
use super::options::{self, OptionChange, HASH_DEFAULT, MOVE_OVERHEAD_DEFAULT};
use super::output::{format_bestmove, format_info, Output};
use super::position::{parse_position, Game};
use super::{bench, display, eval_bench, eval_report, go};
use crate::default_net::{self, DEFAULT_EVAL_FILE};
use crate::eval::net::LoadedNet;
use crate::eval::EvalKind;
use crate::perft;
use crate::search::{SearchContext, SearchControl, Searcher};

/// A search running on its own thread.
struct Running {
    handle: JoinHandle<Searcher>,
    control: Arc<SearchControl>,
    /// Set by the search thread just before it prints `bestmove`, so that a command
    /// the GUI sends in reply is never refused as "busy" (the thread then only has
    /// to return).
    done: Arc<AtomicBool>,
}

/// One engine session (what a GUI talks to between start and `quit`).
pub struct Session {
    out: Output,
    game: Game,
    /// `None` only while a search thread holds it.
    searcher: Option<Searcher>,
    running: Option<Running>,
    /// The network `EvalFile` names (embedded by default), if it loaded.
    net: Option<LoadedNet>,
    net_name: String,
    use_nnue: bool,
    /// Whether the current evaluation was already announced with an `info string`.
    announced: bool,
}

impl Session {
    /// A session with default options, the embedded net if the binary has one.
    pub fn new(out: Output) -> Session {
        let (net, net_name) = match default_net::load() {
            Ok(Some(net)) => (Some(LoadedNet::HalfKp(net)), DEFAULT_EVAL_FILE.to_string()),
            Ok(None) => (None, DEFAULT_EVAL_FILE.to_string()),
            Err(e) => {
                out.info_string(&format!("error: embedded network is unusable: {e}"));
                (None, DEFAULT_EVAL_FILE.to_string())
            }
        };
        let mut session = Session {
            out,
            game: Game::default(),
            searcher: Some(default_searcher()),
            running: None,
            net,
            net_name,
            use_nnue: true,
            announced: false,
        };
        session.apply_eval();
        session
    }

    /// Handles one input line; an error becomes an `info string error: ...` line.
    /// Returns `false` after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        match self.execute(line) {
            Ok(go_on) => go_on,
            Err(e) => {
                self.out.info_string(&format!("error: {e}"));
                true
            }
        }
    }

    /// Runs one command line and returns its error, if any, rather than printing
    /// it (the command-line mode reports it on stderr with an exit status).
    /// `Ok(false)` after `quit`.
    pub fn execute(&mut self, line: &str) -> Result<bool, UciError> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else {
            return Ok(true);
        };
        let result = match command {
            "quit" => {
                self.shutdown();
                return Ok(false);
            }
            "uci" => {
                self.uci();
                Ok(())
            }
            "isready" => {
                self.announce_eval();
                self.out.line("readyok");
                Ok(())
            }
            "ucinewgame" => self.with_searcher("ucinewgame", |s| s.clear()),
            "setoption" => self.setoption(args),
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => {
                self.stop_and_join();
                Ok(())
            }
            "ponderhit" => {
                if let Some(r) = &self.running {
                    r.control.ponder.store(false, Ordering::SeqCst);
                }
                Ok(())
            }
            "d" => {
                for l in display::board_lines(&self.game.current) {
                    self.out.line(&l);
                }
                Ok(())
            }
            "eval" => {
                for l in eval_report::eval_lines(&self.game.current, self.eval_source()) {
                    self.out.line(&l);
                }
                Ok(())
            }
            "perft" => self.perft(args),
            "bench" => self.bench(args),
            "evalbench" => self.eval_bench(args),
            "help" => {
                self.out.line(HELP);
                Ok(())
            }
            // Sent by some GUIs; nothing to do.
            "debug" | "register" => Ok(()),
            other => Err(UciError::UnknownCommand(other.to_string())),
        };
        result.map(|()| true)
    }

    /// Stops any search and waits for its thread (it prints its `bestmove`).
    pub fn shutdown(&mut self) {
        self.stop_and_join();
    }

    /// Waits for a running search to end by its own limits (command-line `go`).
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            self.join(r);
        }
    }

    fn uci(&mut self) {
        self.out
            .line(&format!("id name nnue {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the nnue-toolkit developers");
        for l in options::announce() {
            self.out.line(&l);
        }
        self.out.line("uciok");
    }

    /// Reclaims the searcher from a finished search thread, if any.
    fn reclaim(&mut self) -> bool {
        match self.running.take() {
            None => true,
            Some(r) if r.done.load(Ordering::SeqCst) || r.handle.is_finished() => {
                self.join(r);
                true
            }
            Some(r) => {
                self.running = Some(r);
                false
            }
        }
    }

    fn join(&mut self, r: Running) {
        match r.handle.join() {
            Ok(searcher) => self.searcher = Some(searcher),
            Err(_) => {
                // The search thread panicked: report it and start a fresh searcher
                // so the engine stays usable.
                self.out
                    .info_string("error: the search thread failed; search state reset");
                self.reset_searcher();
            }
        }
    }

    /// Replaces a searcher that was lost (its thread failed) by a default one that
    /// uses the current evaluation.
    fn reset_searcher(&mut self) {
        self.searcher = Some(default_searcher());
        self.apply_eval();
    }

    fn stop_and_join(&mut self) {
        if let Some(r) = self.running.take() {
            r.control.stop.store(true, Ordering::SeqCst);
            r.control.ponder.store(false, Ordering::SeqCst);
            self.join(r);
        }
    }

    /// Succeeds when no search is in progress (a finished one is joined), so that
    /// `command` may change the searcher or the evaluation.
    fn ensure_idle(&mut self, command: &str) -> Result<(), UciError> {
        if self.reclaim() {
            Ok(())
        } else {
            Err(UciError::Busy(command.to_string()))
        }
    }

    /// Runs `f` on the searcher if no search is in progress.
    fn with_searcher<R>(
        &mut self,
        command: &str,
        f: impl FnOnce(&mut Searcher) -> R,
    ) -> Result<R, UciError> {
        self.ensure_idle(command)?;
        self.searcher
            .as_mut()
            .map(f)
            .ok_or_else(|| UciError::Busy(command.to_string()))
    }

    fn setoption(&mut self, args: &[&str]) -> Result<(), UciError> {
        let change = options::parse_setoption(args)?;
        match change {
            OptionChange::Hash(mb) => self
                .with_searcher("setoption", |s| s.set_hash(mb))?
                .map_err(|e| UciError::SetOption(e.to_string())),
            OptionChange::Threads(n) => self.with_searcher("setoption", |s| s.set_threads(n)),
            OptionChange::MultiPv(n) => self.with_searcher("setoption", |s| s.set_multipv(n)),
            OptionChange::MoveOverhead(ms) => self.with_searcher("setoption", |s| {
                s.set_move_overhead(Duration::from_millis(ms))
            }),
            OptionChange::ClearHash => self.with_searcher("setoption", |s| s.clear()),
            OptionChange::Ponder(_) => Ok(()),
            OptionChange::UseNnue(on) => {
                self.ensure_idle("setoption")?;
                self.use_nnue = on;
                self.apply_eval();
                Ok(())
            }
            OptionChange::EvalFile(name) => {
                self.ensure_idle("setoption")?;
                self.load_eval_file(&name)?;
                self.apply_eval();
                Ok(())
            }
        }
    }

    /// Loads `name`, or goes back to the embedded net (none: classical) when `name`
    /// is the advertised default; on failure the previous network stays in use.
    fn load_eval_file(&mut self, name: &str) -> Result<(), UciError> {
        let loaded = if name == DEFAULT_EVAL_FILE {
            default_net::load().map(|net| net.map(LoadedNet::HalfKp))
        } else {
            LoadedNet::load(Path::new(name)).map(Some)
        };
        match loaded {
            Ok(net) => {
                self.net = net;
                self.net_name = name.to_string();
                Ok(())
            }
            Err(e) => {
                let kept = match self.net {
                    Some(_) => self.net_name.clone(),
                    None => "the classical evaluation".to_string(),
                };
                Err(UciError::SetOption(format!(
                    "EvalFile '{name}' not loaded, keeping {kept}: {e}"
                )))
            }
        }
    }

    /// The evaluation the options ask for.
    fn eval_kind(&self) -> EvalKind {
        match (&self.net, self.use_nnue) {
            (Some(net), true) => net.eval_kind(),
            _ => EvalKind::Classical,
        }
    }

    fn apply_eval(&mut self) {
        let kind = self.eval_kind();
        if let Some(s) = self.searcher.as_mut() {
            s.set_eval(kind);
        }
        self.announced = false;
    }

    /// What `eval` reports on: the network in use, or why there is none.
    fn eval_source(&self) -> EvalSource<'_> {
        match (&self.net, self.use_nnue) {
            (_, false) => EvalSource::ClassicalByChoice,
            (Some(net), true) => EvalSource::Nnue {
                net,
                name: &self.net_name,
            },
            (None, true) => EvalSource::NoNetwork,
        }
    }

    /// Says once (at `isready` or `go`) which evaluation the search uses, so a user
    /// sees the classical fallback in the GUI's engine output.
    fn announce_eval(&mut self) {
        if self.announced {
            return;
        }
        self.announced = true;
        let text = match (&self.net, self.use_nnue) {
            (Some(net), true) => format!(
                "NNUE evaluation using {} [{}] enabled",
                self.net_name,
                net.summary()
            ),
            (None, true) => "classical evaluation in use: this binary embeds no network \
                 (set EvalFile to a .nnue file)"
                .to_string(),
            (_, false) => "classical evaluation enabled (Use NNUE is false)".to_string(),
        };
        self.out.info_string(&text);
    }

    /// Sets the game; with a bad move in the list, the moves before it are kept
    /// (see [`parse_position`]) and the bad one is the error.
    fn position(&mut self, args: &[&str]) -> Result<(), UciError> {
        let parsed = parse_position(args)?;
        self.game = parsed.game;
        parsed.bad_move.map_or(Ok(()), Err)
    }

    fn go(&mut self, args: &[&str]) -> Result<(), UciError> {
        self.ensure_idle("go")?;
        let (limits, warnings) = go::parse_go(args, &self.game.current)?;
        let Some(mut searcher) = self.searcher.take() else {
            return Err(UciError::Busy("go".to_string()));
        };
        self.announce_eval();
        for warning in warnings {
            self.out.info_string(&format!("error: go: {warning}"));
        }
        let control = Arc::new(SearchControl::default());
        control.ponder.store(limits.ponder, Ordering::SeqCst);
        let game = self.game.clone();
        let out = self.out.clone();
        let thread_control = control.clone();
        let done = Arc::new(AtomicBool::new(false));
        let thread_done = done.clone();
        let spawned = std::thread::Builder::new()
            .name("search".to_string())
            .stack_size(crate::search::SEARCH_STACK_BYTES)
            .spawn(move || {
                let mut on_info = |info: &crate::search::Info| out.line(&format_info(info));
                let history: Vec<u64> = game.history.iter().map(crate::search::key).collect();
                let context = SearchContext {
                    history: &history,
                    control: Some(&thread_control),
                    on_info: Some(&mut on_info),
                };
                let result = searcher.search_with(&game.current, &limits, context);
                thread_done.store(true, Ordering::SeqCst);
                out.line(&format_bestmove(&result));
                searcher
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    handle,
                    control,
                    done,
                });
                Ok(())
            }
            Err(e) => {
                // The searcher moved into the failed closure; start a fresh one.
                self.reset_searcher();
                Err(UciError::Go(format!("cannot start the search thread: {e}")))
            }
        }
    }

    fn perft(&mut self, args: &[&str]) -> Result<(), UciError> {
        let depth = parse_depth("perft", args, None)?;
        let start = Instant::now();
        let entries = perft::divide(&self.game.current, depth);
        let total: u64 = entries.iter().map(|e| e.nodes).sum();
        for e in &entries {
            self.out.line(&format!("{}: {}", e.uci(), e.nodes));
        }
        let secs = start.elapsed().as_secs_f64().max(1e-9);
        self.out.line("");
        self.out.line(&format!("Nodes searched: {total}"));
        self.out.info_string(&format!(
            "perft {depth}: {:.0} ms, {:.0} leaves/s",
            secs * 1000.0,
            total as f64 / secs
        ));
        Ok(())
    }

    fn bench(&mut self, args: &[&str]) -> Result<(), UciError> {
        self.ensure_idle("bench")?;
        let depth = parse_depth("bench", args, Some(bench::DEFAULT_DEPTH))?;
        self.announce_eval();
        bench::run(depth, &self.eval_kind(), &self.out);
        Ok(())
    }

    fn eval_bench(&mut self, args: &[&str]) -> Result<(), UciError> {
        self.ensure_idle("evalbench")?;
        let depth = parse_depth("evalbench", args, Some(eval_bench::DEFAULT_DEPTH))?;
        self.announce_eval();
        eval_bench::run(depth, &self.eval_kind(), &self.out);
        Ok(())
    }
}

/// A searcher with the options' defaults.
fn default_searcher() -> Searcher {
    let mut searcher = Searcher::new(HASH_DEFAULT, 1);
    searcher.set_move_overhead(Duration::from_millis(MOVE_OVERHEAD_DEFAULT));
    searcher
}

/// `perft`'s depth: at least one ply (the count of depth 0 is 1 by definition),
/// and deeper than any count that could finish.
pub(crate) const PERFT_DEPTH_RANGE: ArgRange = ArgRange::new(1, 64);
/// `bench`'s depth, the range `perft` has.
pub(crate) const BENCH_DEPTH_RANGE: ArgRange = PERFT_DEPTH_RANGE;

/// `[depth]` for perft and bench, in [`PERFT_DEPTH_RANGE`] and
/// [`BENCH_DEPTH_RANGE`].
fn parse_depth(
    command: &'static str,
    args: &[&str],
    default: Option<u32>,
) -> Result<u32, UciError> {
    let range = if command == "perft" {
        PERFT_DEPTH_RANGE
    } else {
        BENCH_DEPTH_RANGE
    };
    let text = match (args, default) {
        ([], Some(d)) => return Ok(d),
        ([], None) => {
            return Err(UciError::Argument {
                command,
                problem: format!("needs a depth in {range}, like '{command} 5'"),
            })
        }
        ([text], _) => *text,
        ([_, rest @ ..], _) => {
            return Err(UciError::Argument {
                command,
                problem: format!("unexpected '{}'", rest.join(" ")),
            })
        }
    };
    range
        .parse(text)
        .map(|d| d as u32)
        .ok_or_else(|| UciError::Number {
            command,
            what: "depth",
            text: text.to_string(),
            range,
        })
}

const HELP: &str = "commands: uci isready ucinewgame setoption position go stop ponderhit quit \
d eval perft <depth> bench [depth] evalbench [depth] help";
