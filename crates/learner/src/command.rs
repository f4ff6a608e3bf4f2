//! `nnue-learn train`: checks the options and turns them into a [`TrainConfig`].

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use crate::cli::TrainArgs;
use crate::data::Filter;
use crate::error::LearnError;
use crate::loss::{LossParams, PowerParams};
use crate::model::ModelShape;
use crate::optim::{Optimizer, Schedule};
use crate::train::{train, TrainConfig, ValidationSource};

fn usage(message: String) -> LearnError {
    LearnError::Usage(message)
}

/// Parses `"32,32"` (or `""`) into widths.
pub fn parse_widths(text: &str) -> Result<Vec<usize>, LearnError> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse()
                .map_err(|_| usage(format!("--hidden: '{s}' is not a layer width")))
        })
        .collect()
}

/// The model shape of the options (defaults depend on the feature set).
pub fn shape_of(args: &TrainArgs) -> Result<ModelShape, LearnError> {
    let halfkp = args.feature_set.trim() == "HalfKP";
    let half = args.ft_size.unwrap_or(if halfkp { 256 } else { 512 });
    let hidden = match &args.hidden {
        Some(text) => parse_widths(text)?,
        None if halfkp => vec![32, 32],
        None => vec![32],
    };
    ModelShape::new(&args.feature_set, half, &hidden, args.factorize)
}

/// `path` with its extension replaced by `ext`.
fn beside(path: &Path, ext: &str) -> PathBuf {
    path.with_extension(ext)
}

fn check_ranges(args: &TrainArgs) -> Result<(), LearnError> {
    if args.epoch_size == 0 || args.batch_size == 0 {
        return Err(usage(
            "--epoch-size and --batch-size must be positive".into(),
        ));
    }
    if !(args.lr > 0.0 && args.lr.is_finite()) {
        return Err(usage(format!("--lr {} is not a positive rate", args.lr)));
    }
    if !(0.0..1.0).contains(&args.validation_fraction) {
        return Err(usage(format!(
            "--validation-fraction {} is not in [0, 1)",
            args.validation_fraction
        )));
    }
    if args.validation.is_empty() && args.validation_fraction == 0.0 {
        return Err(usage(
            "no validation data: give --validation or a --validation-fraction above 0".into(),
        ));
    }
    for (name, v) in [("--lambda", args.lambda), ("--lambda2", args.lambda2)] {
        if !(0.0..=1.0).contains(&v) {
            return Err(usage(format!("{name} {v} is not in [0, 1]")));
        }
    }
    if args.resume && args.init_net.is_some() {
        return Err(usage(
            "--init-net and --resume exclude each other: --resume restores the weights from the checkpoint".into(),
        ));
    }
    if args.resume && args.checkpoint_dir.is_none() {
        return Err(usage("--resume needs --checkpoint-dir".into()));
    }
    if args.save_every == 0 || args.loss_output_interval == 0 {
        return Err(usage(
            "--save-every and --loss-output-interval must be positive".into(),
        ));
    }
    Ok(())
}

/// The run's configuration.
pub fn config_of(args: &TrainArgs) -> Result<TrainConfig, LearnError> {
    check_ranges(args)?;
    let shape = shape_of(args)?;
    let start_lambda = args.start_lambda.unwrap_or(args.lambda);
    Ok(TrainConfig {
        train: args.train.clone(),
        validation: if args.validation.is_empty() {
            ValidationSource::HeldOut(args.validation_fraction)
        } else {
            ValidationSource::Files(args.validation.clone())
        },
        validation_count: args.validation_count,
        accuracy_count: args.accuracy_count,
        shape,
        init_net: args.init_net.clone(),
        epochs: args.epochs,
        epoch_size: args.epoch_size,
        batch_size: args.batch_size,
        optimizer: Optimizer {
            kind: args.optimizer,
            beta1: args.beta1,
            beta2: args.beta2,
            eps: args.eps,
            weight_decay: args.weight_decay,
            momentum: args.momentum,
            max_grad: args.max_grad,
        },
        schedule: Schedule {
            lr: args.lr,
            decay: args.lr_decay,
            steps: args.lr_steps.clone(),
            step_gamma: args.lr_step_gamma,
            newbob_decay: args.newbob_decay,
            max_rejections: args.max_consecutive_rejections.max(1),
        },
        loss: LossParams {
            kind: args.loss,
            coefficient: args.winning_probability_coefficient,
            lambda: args.lambda,
            lambda2: args.lambda2,
            lambda_limit: args.lambda_limit,
            power: PowerParams {
                in_offset: args.in_offset,
                out_offset: args.out_offset,
                in_scaling: args.in_scaling,
                out_scaling: args.out_scaling,
                exponent: args.pow_exp,
            },
        },
        start_lambda,
        end_lambda: args.end_lambda.unwrap_or(start_lambda),
        filter: Filter {
            smart_fen_skipping: args.smart_fen_skipping,
            random_fen_skipping: args.random_fen_skipping,
            early_fen_skipping: args.early_fen_skipping,
            eval_limit: args.eval_limit,
            use_draws: args.use_draw_games_in_training != 0,
            seed: args.seed,
        },
        mirror: args.mirror,
        quantization_aware: args.quantization_aware,
        validation_draws: args.use_draw_games_in_validation != 0,
        shuffle_buffer: args.shuffle_buffer,
        skip_invalid: args.skip_invalid,
        seed: args.seed,
        output_net: args.output_net.clone(),
        checkpoint_dir: args.checkpoint_dir.clone(),
        resume: args.resume,
        force: args.force,
        save_every: args.save_every,
        loss_output_interval: args.loss_output_interval,
        csv: args
            .csv
            .clone()
            .unwrap_or_else(|| beside(&args.output_net, "csv")),
        plot: args
            .plot
            .clone()
            .unwrap_or_else(|| beside(&args.output_net, "png")),
        progress: !args.no_progress,
        divergence_patience: args.divergence_patience,
        stop_after_batches: args.stop_after_batches,
    })
}

/// A rayon pool of `threads` workers (all cores when `None`).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, LearnError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        if n == 0 {
            return Err(usage("--threads must be at least 1".into()));
        }
        builder = builder.num_threads(n);
    }
    builder
        .build()
        .map_err(|e| usage(format!("cannot start {threads:?} threads: {e}")))
}

/// Runs `nnue-learn train`.
pub fn run_train(args: &TrainArgs, stop: &AtomicBool) -> Result<String, LearnError> {
    let config = config_of(args)?;
    crate::train::outputs::prepare_outputs(&config)?;
    let pool = thread_pool(args.threads)?;
    println!(
        "training {} on {} ({} threads)",
        config.shape.fingerprint(),
        args.train
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        pool.current_num_threads()
    );
    let outcome = pool.install(|| train(&config, stop, &mut std::io::stdout()))?;
    Ok(format!(
        "wrote {} after {} epochs, {} positions ({} in {:.1} s, {:.0} positions/s); validation loss {:.6}; {} parameters clamped by quantization",
        config.output_net.display(),
        outcome.epochs,
        outcome.positions,
        outcome.trained,
        outcome.seconds,
        outcome.trained as f64 / outcome.seconds.max(1e-9),
        outcome.val_loss,
        outcome.clamped
    ))
}
