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
    #[arg(long, default_value = "32,32")]
    pub hidden: String,
    /// The whole architecture in one: `<features>:<M>:<hidden,...>`, e.g.
    /// `HalfKP:256:32,32` or `All:512:32` (overrides the three options above).
    #[arg(long)]
    pub arch: Option<String>,
    /// Output file.
    #[arg(long)]
    pub out: PathBuf,
}

/// Parses `--arch` text `<features>:<M>:<hidden,...>`.
fn parse_arch(text: &str) -> Result<(String, usize, Vec<usize>), String> {
    let mut parts = text.splitn(3, ':');
    let features = parts.next().unwrap_or_default().trim().to_string();
    let half = parts
        .next()
        .ok_or_else(|| format!("--arch '{text}': expected <features>:<M>:<hidden,...>"))?;
    let half = half
        .trim()
        .parse()
        .map_err(|_| format!("--arch '{text}': '{half}' is not a transformer width"))?;
    let hidden = widths(parts.next().unwrap_or(""))?;
    Ok((features, half, hidden))
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
    let (features, half, hidden) = match &args.arch {
        Some(text) => parse_arch(text)?,
        None => (args.features.clone(), args.half, widths(&args.hidden)?),
    };
    let arch = Architecture::new(&features, half, &hidden).map_err(|e| e.to_string())?;
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
