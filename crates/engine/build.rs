//! Embeds `nets/default.nnue` (workspace root) into the `nnue` binary when the file
//! exists, so the engine plays with its network and no files around it. Without the
//! file the build still succeeds and the engine falls back to the classical
//! evaluation (and says so at run time).

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(embedded_net)");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let net = manifest.join("../../nets/default.nnue");
    // Watch the directory too, so adding the file later triggers a rebuild.
    println!("cargo::rerun-if-changed=../../nets");
    println!("cargo::rerun-if-changed=../../nets/default.nnue");
    if net.is_file() {
        let path = net.canonicalize().unwrap_or(net);
        println!("cargo::rustc-cfg=embedded_net");
        println!("cargo::rustc-env=NNUE_DEFAULT_NET={}", path.display());
    }
}
