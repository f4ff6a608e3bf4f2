//! Embeds `nets/default.nnue` (workspace root) into the `nnue` binary when the file
//! exists, so the engine plays with its network and no files around it. Without the
//! file the build still succeeds and the engine falls back to the classical
//! evaluation (and says so at run time).
//!
//! The embedded net is advertised under Stockfish's naming convention,
//! `nn-<first 12 hex digits of its SHA-256>.nnue`: the name says which net a binary
//! carries, and python-chess's option parser splits values at the word `default`, so
//! `default.nnue` itself would come back to the engine as `.nnue`.

use std::path::PathBuf;

use sha2::{Digest, Sha256};

/// Stockfish's name of a net: `nn-` + the first 6 bytes of its SHA-256 in hex +
/// `.nnue`, the rule of `nnue_core::nnue::sha256::stockfish_name` (a test pins the
/// two to each other).
fn stockfish_name(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let hex: String = digest[..6].iter().map(|b| format!("{b:02x}")).collect();
    format!("nn-{hex}.nnue")
}

fn main() {
    println!("cargo::rustc-check-cfg=cfg(embedded_net)");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let net = manifest.join("../../nets/default.nnue");
    // Watch the directory too, so adding the file later triggers a rebuild.
    println!("cargo::rerun-if-changed=../../nets");
    println!("cargo::rerun-if-changed=../../nets/default.nnue");
    if let Ok(bytes) = std::fs::read(&net) {
        let path = net.canonicalize().unwrap_or(net);
        println!("cargo::rustc-cfg=embedded_net");
        println!("cargo::rustc-env=NNUE_DEFAULT_NET={}", path.display());
        println!(
            "cargo::rustc-env=NNUE_DEFAULT_NAME={}",
            stockfish_name(&bytes)
        );
    }
}
