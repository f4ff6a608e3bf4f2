//! Why a network could not be loaded or built.

/// Every way a `.nnue` file (or a set of in-memory parameters) can be unusable.
/// Each variant names the file (`source`) and, where it applies, the byte offset and
/// the expected and found values.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    /// A net whose evaluation can leave the engine's range (see
    /// [`super::range`]): a diverged training run's, or damaged weights.
    #[error(
        "{source_name}: {error}; refusing the net (its weights are not those of a converged run)"
    )]
    Range {
        source_name: String,
        error: super::range::RangeError,
    },
    /// The first four bytes are not the version word of any `.nnue` file (or the
    /// file is shorter than that): said first, before any detail, since the usual
    /// cause is a wrong path.
    #[error("{source_name}: not a .nnue file ({detail})")]
    NotNnue { source_name: String, detail: String },
    /// A `.nnue` file of a later Stockfish format this program does not read.
    #[error("{source_name}: unsupported .nnue version 0x{found:08X} ({format}); this program reads version 0x{expected:08X} (Stockfish 12/13 HalfKP and nnue-learn nets)")]
    UnsupportedVersion {
        source_name: String,
        found: u32,
        expected: u32,
        format: &'static str,
    },
    #[error("{source_name}: cannot read file: {error}")]
    Io {
        source_name: String,
        error: std::io::Error,
    },
    #[error(
        "{source_name}: truncated: {what} needs bytes {offset}..{end} but the file has {len} bytes"
    )]
    Truncated {
        source_name: String,
        what: &'static str,
        offset: u64,
        end: u64,
        len: u64,
    },
    #[error("{source_name}: {} trailing bytes after the network (it ends at byte offset {offset}, the file has {len} bytes)", len - offset)]
    TrailingBytes {
        source_name: String,
        offset: u64,
        len: u64,
    },
    #[error("{source_name}: wrong {what} at byte offset {offset}: expected 0x{expected:08X}, found 0x{found:08X}")]
    Mismatch {
        source_name: String,
        what: &'static str,
        offset: u64,
        expected: u32,
        found: u32,
    },
    #[error("{source_name}: bad architecture description at byte offset {offset}: {problem} (description: {description:?})")]
    Description {
        source_name: String,
        offset: u64,
        problem: String,
        description: String,
    },
    #[error("{source_name}: bad parameters: {error}")]
    Architecture {
        source_name: String,
        error: super::arch::ArchitectureError,
    },
    #[error("{source_name}: bad parameters: {problem}")]
    Parameters {
        source_name: String,
        problem: String,
    },
}
