//! The one error type of `nnue-gen-sfen`: every failure of every subcommand,
//! each printable as one line that names the option, file and record at
//! fault, and each mapped to the project's exit statuses
//! ([`nnue_core::cli::exit`]).

use std::path::PathBuf;

use nnue_core::cli::exit;
use nnue_core::data::DataError;
use nnue_core::nnue::NetworkError;
use nnue_core::output::OutputError;
use thiserror::Error;

/// Why a subcommand failed.
#[derive(Debug, Error)]
pub enum Error {
    /// Reading, validating or writing training data failed.
    #[error("{0}")]
    Data(#[from] DataError),
    /// An output path breaks the output rule, or writing it failed.
    #[error("{0}")]
    Output(#[from] OutputError),
    /// An output of a command that can append exists and neither `--append`
    /// nor `--force` was given (the rule's refusal, naming both ways out).
    #[error("{}: already exists (use --append to add to it or --force to replace it)", .0.display())]
    OutputExists(PathBuf),
    /// `--depth2` is below `--depth`.
    #[error("--depth2 {depth2} is smaller than --depth {depth}")]
    DepthOrder { depth: u32, depth2: u32 },
    /// `--write-minply` is above `--write-maxply`.
    #[error("--write-minply {min} is larger than --write-maxply {max}")]
    WritePlyOrder { min: u32, max: u32 },
    /// `--random-move-minply 0` (plies count from 1; -1 means "from the start").
    #[error("--random-move-minply 0: expected -1 or a ply >= 1")]
    RandomPlyZero,
    /// `--random-move-minply` is above `--random-move-maxply`.
    #[error("--random-move-minply {min} is larger than --random-move-maxply {max}")]
    RandomPlyOrder { min: i32, max: u32 },
    /// `--adjudicate-draw`'s bound is not below `--adjudicate-win`'s.
    #[error(
        "--adjudicate-draw {draw} with --adjudicate-win {win}: the draw score must be smaller than the win score"
    )]
    AdjudicationOrder { draw: String, win: String },
    /// `--eval-file` together with `--use-nnue false`.
    #[error("--eval-file with --use-nnue false: choose one")]
    EvalFileWithoutNnue,
    /// `rescore --static` with a depth.
    #[error("--static with --depth {0}: a static evaluation has no depth")]
    StaticWithDepth(u32),
    /// `rescore --static` with a node limit.
    #[error("--static with --soft-nodes or --nodes: a static evaluation has no search to limit")]
    StaticWithNodes,
    /// `rescore --best-move` without a search to take the move from.
    #[error("--best-move with {0}: the best move needs a search (--depth 1 or more, --soft-nodes or --nodes)")]
    BestMoveWithoutSearch(String),
    /// `convert --rescale` took a score out of the 16-bit range.
    #[error("{}: record {index}: score {score} times {factor} leaves the 16-bit score range", file.display())]
    Rescale {
        file: PathBuf,
        index: u64,
        score: i16,
        factor: f64,
    },
    /// An input could not be read.
    #[error("{}: cannot read: {source}", file.display())]
    Read {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A temporary file could not be created or written.
    #[error("{}: cannot write: {source}", file.display())]
    Write {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A book line is not a legal position.
    #[error("{}:{line}: not a legal FEN/EPD position: {problem}", file.display())]
    BookLine {
        file: PathBuf,
        line: usize,
        #[source]
        problem: crate::generate::book::BookLineError,
    },
    /// The book holds no position.
    #[error("{}: the book holds no position", .0.display())]
    EmptyBook(PathBuf),
    /// The network could not be loaded.
    #[error("{0}")]
    Network(#[from] NetworkError),
    /// `--use-nnue true` without `--eval-file`, and the binary embeds no net.
    #[error("--use-nnue: this binary embeds no network; pass --eval-file FILE.nnue")]
    NoEmbeddedNet,
    /// A worker's hash table could not be allocated.
    #[error("--hash: {0}")]
    Hash(#[from] nnue_engine::search::HashError),
    /// A worker thread could not be started.
    #[error("cannot start worker thread {index}: {source}")]
    Thread {
        index: usize,
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    /// The process exit status for this error: [`exit::USAGE`] when the
    /// command line cannot be run as written (options that contradict each
    /// other, an unsupported extension, an output the rule refuses),
    /// [`exit::FAILURE`] otherwise (bad data, I/O, a directory given as input).
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Data(DataError::UnsupportedExtension(_))
            | Error::OutputExists(_)
            | Error::DepthOrder { .. }
            | Error::WritePlyOrder { .. }
            | Error::RandomPlyZero
            | Error::RandomPlyOrder { .. }
            | Error::AdjudicationOrder { .. }
            | Error::EvalFileWithoutNnue
            | Error::StaticWithDepth(_)
            | Error::StaticWithNodes
            | Error::BestMoveWithoutSearch(_) => exit::USAGE,
            Error::Output(o) if o.is_usage() => exit::USAGE,
            _ => exit::FAILURE,
        }
    }
}

impl Error {
    /// The rule's refusal for a command that can also append (`generate`,
    /// `convert`): an existing output's message names `--append` too.
    pub(crate) fn appendable(error: OutputError) -> Error {
        match error {
            OutputError::Exists(path) => Error::OutputExists(path),
            other => Error::Output(other),
        }
    }
}
