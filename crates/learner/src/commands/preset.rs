//! `nnue-learn train --preset`: named nets trained by their own path. `sf15.1` is
//! Stockfish 15.1's HalfKAv2_hm shape (1024x2 transformer with 8 PSQT buckets,
//! eight 16-32-1 layer stacks chosen by piece count), trained with the
//! HalfKAv2_hm factoriser and written in 15.1's `.nnue` layout
//! ([`crate::halfka`]); `--ft-size` picks a narrower transformer (a multiple of
//! 64; 15.1 itself loads only 1024, our engine any).

use nnue_core::nnue::halfka::shape::{SF15_1_WIDTH, WIDTH_MULTIPLE};

use super::train::TrainArgs;
use crate::error::LearnError;
use crate::halfka::HalfKaRun;

/// `--preset`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Preset {
    /// Stockfish 15.1's HalfKAv2_hm net.
    #[value(name = "sf15.1")]
    Sf15_1,
}

/// Options of the general trainer the preset's path does not take, each named
/// with whether the command line set it.
fn unsupported(args: &TrainArgs) -> Vec<&'static str> {
    let shape = &args.shape;
    [
        ("--hidden", shape.hidden.is_some()),
        ("--output-buckets", shape.output_buckets != 1),
        ("--init-net", args.init_net.is_some()),
        ("--validation", !args.validation.is_empty()),
        ("--output-raw", args.output_raw.is_some()),
        ("--mirror", args.mirror),
        ("--quantization-aware", args.quantization_aware),
        ("--newbob-decay", args.newbob_decay != 1.0),
    ]
    .into_iter()
    .filter_map(|(name, set)| set.then_some(name))
    .collect()
}

/// The HalfKAv2_hm run of `args`, or a usage error naming what does not fit.
pub fn halfka_run(args: &TrainArgs) -> Result<HalfKaRun, LearnError> {
    let refused = unsupported(args);
    if !refused.is_empty() {
        return Err(LearnError::Usage(format!(
            "--preset sf15.1 does not take {} (options of the HalfKP/All trainer)",
            refused.join(", ")
        )));
    }
    if args.resume && args.checkpoint_dir.is_none() {
        return Err(LearnError::Usage("--resume needs --checkpoint-dir".into()));
    }
    let width = args.shape.ft_size.unwrap_or(SF15_1_WIDTH);
    if width == 0 || !width.is_multiple_of(WIDTH_MULTIPLE) {
        return Err(LearnError::Usage(format!(
            "--ft-size {width}: a HalfKAv2_hm transformer width must be a positive multiple of {WIDTH_MULTIPLE}"
        )));
    }
    let config = super::train::config_of_parts(args);
    let total_batches = args.epochs * args.epoch_size.div_ceil(args.batch_size as u64);
    config
        .3
        .check(total_batches)
        .map_err(|e| LearnError::Usage(e.to_string()))?;
    Ok(HalfKaRun {
        train: args.train.clone(),
        output_net: args.output_net.clone(),
        width,
        factorize: true,
        epochs: args.epochs,
        epoch_size: args.epoch_size,
        batch_size: args.batch_size,
        schedule: config.3,
        optimizer: config.0,
        loss: config.1,
        power_lambda: args.start_lambda.unwrap_or(args.lambda),
        filter: config.2,
        validation_fraction: args.validation_fraction,
        validation_count: args.validation_count,
        seed: args.seed,
        force: args.force,
        skip_invalid: args.skip_invalid,
        stop_after_batches: args.stop_after_batches,
        checkpoint_dir: args.checkpoint_dir.clone(),
        resume: args.resume,
    })
}
