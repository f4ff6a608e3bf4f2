//! `nnue-learn export NET.nnue OUT --layout raw`: a trained net in the
//! headerless layout bullet-trained engines embed ([`nnue_core::nnue::raw`]),
//! with the numbers an engine needs to evaluate it printed beside.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use nnue_core::nnue::raw::{raw_shape, to_raw_bytes, RawShape};
use nnue_core::nnue::Network;
use nnue_core::output::{write_atomic, OutputCheck};

use crate::error::LearnError;

/// Transformer scale of the exported integers (`QA`).
const QA: i32 = 127;
/// `QA·QB`: the scale of the output bias and of the output before the final
/// division (9600 = 600 · 16).
const QAB: i32 = 9600;
/// Raw output per internal unit (the engine's `raw / 16`).
const FV_SCALE: i32 = nnue_core::nnue::FV_SCALE;

/// The layouts `export` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Layout {
    /// bullet's `SavedFormat` order: feature weights, feature biases, output
    /// weights, output biases, all i16 little-endian, padded to 64 bytes.
    Raw,
}

#[derive(clap::Args)]
pub struct ExportArgs {
    /// The `.nnue` file `nnue-learn train` wrote.
    pub net: PathBuf,
    /// The file to write.
    pub output: PathBuf,
    /// The layout to write (docs/FORMATS.md).
    #[arg(long, value_enum, default_value = "raw")]
    pub layout: Layout,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

/// What `export` prints: the shape and the constants of the evaluation.
fn report(output: &str, shape: &RawShape, len: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "wrote:         {output} ({len} bytes, raw layout)");
    let _ = writeln!(
        out,
        "shape:         768x{} -> {}x2 -> {} ({}, {} output bucket{})",
        shape.king_buckets,
        shape.half_dims,
        shape.output_buckets,
        shape.activation,
        shape.output_buckets,
        if shape.output_buckets == 1 { "" } else { "s" }
    );
    let _ = writeln!(
        out,
        "quantization:  QA = {QA}, QA*QB = {QAB}; value = out / {FV_SCALE} (out * 600 / {QAB}), in the units of the training scores (docs/FORMATS.md)"
    );
    out
}

/// Reads the `.nnue` at `net` and writes its raw layout to `output` (the
/// output rule already checked); the shape and the byte count written.
fn export_raw(net: &Path, output: &Path) -> Result<(RawShape, usize), LearnError> {
    let source = net.display().to_string();
    let bytes = std::fs::read(net).map_err(|e| LearnError::io(net, "cannot read file", e))?;
    let network = Network::from_bytes(&bytes, &source)?;
    let raw_error = |error| LearnError::RawLayout {
        path: net.to_path_buf(),
        error,
    };
    let shape = raw_shape(&network).map_err(raw_error)?;
    let raw = to_raw_bytes(&network).map_err(raw_error)?;
    write_atomic(output, &raw)?;
    Ok((shape, raw.len()))
}

/// `train --output-raw`: the trained `.nnue` at `net` written raw to `output`;
/// the byte count.
pub fn write_raw(net: &Path, output: &Path) -> Result<usize, LearnError> {
    export_raw(net, output).map(|(_, len)| len)
}

/// `nnue-learn export`: reads the net, writes the raw file, returns the report.
pub fn run(args: &ExportArgs) -> Result<String, LearnError> {
    let Layout::Raw = args.layout;
    OutputCheck::new(OutputCheck::mode_from_flags(args.force, false))
        .inputs([&args.net])
        .check(&args.output)?;
    let (shape, len) = export_raw(&args.net, &args.output)?;
    Ok(report(&args.output.display().to_string(), &shape, len))
}
