//! `nnue-learn random-net`: reproducible random nets for tests and benchmarks.

use std::path::PathBuf;

use nnue_core::nnue::{random_network, Architecture};
use nnue_core::output::{write_atomic, OutputCheck};

use super::shape::{parse_widths, ShapeArgs};
use crate::error::LearnError;

#[derive(clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct RandomNetArgs {
    /// Seed of the SplitMix64 streams (the shared reference net uses 20201002).
    #[arg(long, default_value_t = 20201002)]
    pub seed: u64,
    #[command(flatten)]
    pub shape: ShapeArgs,
    /// The whole architecture in one: `<features>:<M>:<hidden,...>`, e.g.
    /// `HalfKP:256:32,32` or `All:512:32` (overrides --feature-set, --ft-size
    /// and --hidden; --activation and --output-buckets still apply).
    #[arg(long)]
    pub arch: Option<String>,
    /// Output file.
    #[arg(long, alias = "out")]
    pub output_net: PathBuf,
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
    let arch = match &args.arch {
        Some(text) => {
            let (features, half, hidden) = parse_arch(text)?;
            let arch = Architecture::new(&features, half, &hidden)?
                .with_activation(args.shape.activation)
                .with_output_buckets(args.shape.output_buckets);
            arch.validate()?;
            arch
        }
        None => args.shape.architecture()?,
    };
    let out = &args.output_net;
    OutputCheck::new(OutputCheck::mode_from_flags(args.force, false)).check(out)?;
    let net = random_network(&arch, args.seed)?;
    let bytes = net.to_bytes();
    let target = out.display().to_string();
    write_atomic(out, &bytes)?;
    Ok(format!(
        "wrote:         {target} (seed {})\n{}",
        args.seed,
        super::info::report(&net, &bytes)
    ))
}
