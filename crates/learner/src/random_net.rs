//! `nnue-learn random-net`: reproducible random nets for tests and benchmarks.

use std::path::PathBuf;

use nnue_core::nnue::{random_network, Architecture};
use nnue_core::output::{write_atomic, OutputCheck};

use crate::command::parse_widths;
use crate::error::LearnError;

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
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

/// Parses `--arch` text `<features>:<M>:<hidden,...>`.
fn parse_arch(text: &str) -> Result<(String, usize, Vec<usize>), LearnError> {
    let mut parts = text.splitn(3, ':');
    let features = parts.next().unwrap_or_default().trim().to_string();
    let half = parts.next().ok_or_else(|| {
        LearnError::Usage(format!(
            "--arch '{text}': expected <features>:<M>:<hidden,...>"
        ))
    })?;
    let half = half.trim().parse().map_err(|_| {
        LearnError::Usage(format!(
            "--arch '{text}': '{half}' is not a transformer width"
        ))
    })?;
    let hidden = parse_widths(parts.next().unwrap_or(""))?;
    Ok((features, half, hidden))
}

/// `nnue-learn random-net`: writes the net and returns its report.
pub fn run(args: &RandomNetArgs) -> Result<String, LearnError> {
    let (features, half, hidden) = match &args.arch {
        Some(text) => parse_arch(text)?,
        None => (
            args.features.clone(),
            args.half,
            parse_widths(&args.hidden)?,
        ),
    };
    OutputCheck::new(OutputCheck::mode_from_flags(args.force, false)).check(&args.out)?;
    let arch = Architecture::new(&features, half, &hidden)?;
    let net = random_network(&arch, args.seed)?;
    let bytes = net.to_bytes();
    let target = args.out.display().to_string();
    write_atomic(&args.out, &bytes)?;
    Ok(format!(
        "wrote:         {target} (seed {})\n{}",
        args.seed,
        crate::info::report(&net, &bytes)
    ))
}
