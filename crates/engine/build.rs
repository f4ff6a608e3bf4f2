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

// The core's SHA-256, compiled into this build script (it has no dependencies).
// Its `pub` items are the core's API; here only `stockfish_name` is used.
#[path = "../core/src/nnue/sha256.rs"]
#[allow(unreachable_pub)]
mod sha256;

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
            sha256::stockfish_name(&bytes)
        );
    }
}
