//! `nnue-learn random-net`: reproducible random nets for tests and benchmarks.

use std::path::PathBuf;

use nnue_core::nnue::{random_network, Architecture};

#[derive(clap::Args)]
pub struct RandomNetArgs {
    /// Seed of the SplitMix64 streams (the shared reference net uses 20201002).
    #[arg(long, default_value_t = 20201002)]
    pub seed: u64,
    /// Feature set name, e.g. `HalfKP`, `All`, `All+H+V`, `King-All`, `K*(H+V)`.
    #[arg(long, default_value = "HalfKP")]
    pub features: String,
    /// Transformer outputs per perspective (M in N->Mx2).
    #[arg(long, default_value_t = 256)]
    pub half: usize,
    /// Hidden layer widths, comma separated (empty for none).
    #[arg(long, default_value = "32,32", allow_hyphen_values = false)]
    pub hidden: String,
    /// Output file.
    #[arg(long)]
    pub out: PathBuf,
}

/// Parses `"32,32"` (or `""`) into widths.
fn widths(text: &str) -> Result<Vec<usize>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse()
                .map_err(|_| format!("--hidden: '{s}' is not a layer width"))
        })
        .collect()
}

pub fn run(args: &RandomNetArgs) -> Result<(), String> {
    let hidden = widths(&args.hidden)?;
    let arch = Architecture::new(&args.features, args.half, &hidden).map_err(|e| e.to_string())?;
    let net = random_network(&arch, args.seed).map_err(|e| e.to_string())?;
    let bytes = net.to_bytes();
    let target = args.out.display().to_string();
    std::fs::write(&args.out, &bytes).map_err(|e| format!("{target}: cannot write file: {e}"))?;
    print!(
        "wrote:         {target} (seed {})\n{}",
        args.seed,
        crate::info::report(&net, &bytes)
    );
    Ok(())
}
