//! `nnue-learn info <net.nnue>`.

use std::fmt::Write as _;
use std::path::PathBuf;

use nnue_core::nnue::arch::{padded, VERSION};
use nnue_core::nnue::sha256::{sha256_hex, stockfish_name};
use nnue_core::nnue::Network;

use crate::error::LearnError;

#[derive(clap::Args)]
pub struct InfoArgs {
    /// The `.nnue` file.
    pub net: PathBuf,
}

/// A human-readable report on `net` loaded from `bytes`.
pub fn report(net: &Network, bytes: &[u8]) -> String {
    let arch = net.architecture();
    let hashes = net.hashes();
    let mut out = String::new();
    let _ = writeln!(out, "size:          {} bytes", bytes.len());
    let _ = writeln!(out, "version:       0x{VERSION:08X}");
    let _ = writeln!(out, "architecture:  {}", arch.summary());
    let _ = writeln!(
        out,
        "feature set:   {} ({} features per perspective)",
        net.feature_set_name(),
        arch.inputs
    );
    let _ = writeln!(out, "description:   {}", net.description());
    let _ = writeln!(
        out,
        "hashes:        file 0x{:08X}  transformer 0x{:08X}  network 0x{:08X}",
        hashes.file, hashes.transformer, hashes.network
    );
    let _ = writeln!(
        out,
        "transformer:   {} -> {} x2, i16 weights {} + biases {}",
        arch.inputs,
        arch.half_dims,
        arch.inputs * arch.half_dims,
        arch.half_dims
    );
    let last = net.layers().len().saturating_sub(1);
    for (k, layer) in net.layers().iter().enumerate() {
        let kind = if k == last { "output" } else { "hidden" };
        let _ = writeln!(
            out,
            "{kind} layer:  {} -> {}{}, i8 weights {} (rows padded to {}) + i32 biases {}",
            layer.inputs,
            layer.outputs,
            if k == last { "" } else { " ClippedReLU" },
            layer.outputs * layer.inputs,
            padded(layer.inputs),
            layer.outputs
        );
    }
    let _ = writeln!(out, "sha256:        {}", sha256_hex(bytes));
    let _ = writeln!(out, "sf net name:   {}", stockfish_name(bytes));
    out
}

/// `nnue-learn info`: the report of the file.
pub fn run(args: &InfoArgs) -> Result<String, LearnError> {
    let source = args.net.display().to_string();
    let bytes =
        std::fs::read(&args.net).map_err(|e| LearnError::io(&args.net, "cannot read file", e))?;
    let net = Network::from_bytes(&bytes, &source)?;
    Ok(format!("file:          {source}\n{}", report(&net, &bytes)))
}
