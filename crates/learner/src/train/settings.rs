//! The options a checkpoint records and `--resume` compares: everything that
//! shapes the weights, the data stream or the loss. `--epochs` is left out (a
//! finished run may be continued for more epochs) except by a cosine schedule,
//! whose curve it stretches; so are the output paths,
//! `--threads` (results do not depend on it) and what only changes reporting.

use std::path::PathBuf;

use crate::checkpoint::{shown, Settings};
use crate::optim::{LrSchedule, Schedule};

use super::config::{TrainConfig, ValidationSource};

/// Options whose difference `--force` cannot override: the saved weights and
/// optimizer state only fit a model of the same shape and optimizer.
const UNFORCEABLE: [&str; 7] = [
    "--feature-set",
    "--ft-size",
    "--hidden",
    "--factorize",
    "--activation",
    "--output-buckets",
    "--optimizer",
];

/// Options added after checkpoints were first written, with the value a
/// checkpoint written before them ran with: such a checkpoint still resumes.
const LATER_OPTIONS: [(&str, &str); 8] = [
    ("--lr-schedule", "step"),
    ("--lr-final", NO_FINAL_LR),
    ("--lr-warmup-batches", "0"),
    ("--activation", "crelu"),
    ("--output-buckets", "1"),
    ("--min-pieces", "0"),
    ("--castling-fen-skipping", "false"),
    ("--wld-fen-skipping", "false"),
];

/// How a checkpoint records `--lr-final` left unset.
const NO_FINAL_LR: &str = "none";

fn final_lr(s: &Schedule) -> String {
    s.final_lr
        .map_or_else(|| NO_FINAL_LR.to_string(), |v| v.to_string())
}

fn files(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    names.join(" ")
}

fn list<T: ToString>(values: &[T]) -> String {
    let text: Vec<String> = values.iter().map(T::to_string).collect();
    text.join(",")
}

/// A value's name as the command line spells it (`mse-value`).
fn name<T: clap::ValueEnum>(value: T) -> String {
    value
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_string())
}

/// One setting: the option as spelled on the command line, and its value.
type Pair = (&'static str, String);

/// The settings of `config` as `(option, value)` pairs, options spelled as on
/// the command line, in a fixed order: data, model, batches, optimizer,
/// schedule, loss, filters and the rest.
pub fn settings_of(config: &TrainConfig) -> Settings {
    let mut pairs = data_settings(config);
    pairs.extend(model_settings(config));
    pairs.extend([
        ("--epoch-size", config.epoch_size.to_string()),
        ("--batch-size", config.batch_size.to_string()),
    ]);
    pairs.extend(optimizer_settings(config));
    pairs.extend(schedule_settings(&config.schedule));
    pairs.extend(loss_settings(config));
    pairs.extend(filter_settings(config));
    // A cosine's curve depends on the run's length, so a cosine run is only
    // continued with the same --epochs.
    if config.schedule.curve == LrSchedule::Cosine {
        pairs.push(("--epochs", config.epochs.to_string()));
    }
    pairs
        .into_iter()
        .map(|(option, value)| (option.to_string(), value))
        .collect()
}

/// The data read: training files, validation and how much of it is used.
fn data_settings(config: &TrainConfig) -> Vec<Pair> {
    let validation = match &config.validation {
        ValidationSource::Files(paths) => ("--validation", files(paths)),
        ValidationSource::HeldOut(fraction) => ("--validation-fraction", fraction.to_string()),
    };
    vec![
        ("--train", files(&config.train)),
        validation,
        ("--validation-count", config.validation_count.to_string()),
        ("--accuracy-count", config.accuracy_count.to_string()),
    ]
}

/// The model's shape.
fn model_settings(config: &TrainConfig) -> Vec<Pair> {
    let arch = &config.shape.arch;
    vec![
        ("--feature-set", arch.feature_set.clone()),
        ("--ft-size", arch.half_dims.to_string()),
        ("--hidden", list(&arch.hidden)),
        ("--factorize", config.shape.factorizer.is_some().to_string()),
        ("--activation", arch.activation.to_string()),
        ("--output-buckets", arch.output_buckets.to_string()),
    ]
}

/// The optimizer and its rate.
fn optimizer_settings(config: &TrainConfig) -> Vec<Pair> {
    let o = &config.optimizer;
    vec![
        ("--optimizer", name(o.kind)),
        ("--lr", config.schedule.lr.to_string()),
        ("--beta1", o.beta1.to_string()),
        ("--beta2", o.beta2.to_string()),
        ("--eps", o.eps.to_string()),
        ("--weight-decay", o.weight_decay.to_string()),
        ("--momentum", o.momentum.to_string()),
        ("--max-grad", o.max_grad.to_string()),
    ]
}

/// How the rate changes over the run.
fn schedule_settings(s: &Schedule) -> Vec<Pair> {
    vec![
        ("--lr-decay", s.decay.to_string()),
        ("--lr-steps", list(&s.steps)),
        ("--lr-step-gamma", s.step_gamma.to_string()),
        ("--newbob-decay", s.newbob_decay.to_string()),
        ("--max-consecutive-rejections", s.max_rejections.to_string()),
        ("--lr-schedule", name(s.curve)),
        ("--lr-final", final_lr(s)),
        ("--lr-warmup-batches", s.warmup_batches.to_string()),
    ]
}

/// The loss and its parameters.
fn loss_settings(config: &TrainConfig) -> Vec<Pair> {
    let l = &config.loss;
    vec![
        ("--loss", name(l.kind)),
        (
            "--winning-probability-coefficient",
            l.coefficient.to_string(),
        ),
        ("--lambda", l.lambda.to_string()),
        ("--lambda2", l.lambda2.to_string()),
        ("--lambda-limit", l.lambda_limit.to_string()),
        ("--start-lambda", config.start_lambda.to_string()),
        ("--end-lambda", config.end_lambda.to_string()),
        ("--in-offset", l.power.in_offset.to_string()),
        ("--out-offset", l.power.out_offset.to_string()),
        ("--in-scaling", l.power.in_scaling.to_string()),
        ("--out-scaling", l.power.out_scaling.to_string()),
        ("--pow-exp", l.power.exponent.to_string()),
    ]
}

/// Which positions are trained on and how, and the seed.
fn filter_settings(config: &TrainConfig) -> Vec<Pair> {
    let f = &config.filter;
    vec![
        ("--smart-fen-skipping", f.smart_fen_skipping.to_string()),
        ("--random-fen-skipping", f.random_fen_skipping.to_string()),
        ("--early-fen-skipping", f.early_fen_skipping.to_string()),
        ("--eval-limit", f.eval_limit.to_string()),
        ("--min-pieces", f.min_pieces.to_string()),
        (
            "--castling-fen-skipping",
            f.castling_fen_skipping.to_string(),
        ),
        ("--wld-fen-skipping", f.wld_fen_skipping.to_string()),
        (
            "--use-draw-games-in-training",
            u8::from(f.use_draws).to_string(),
        ),
        (
            "--use-draw-games-in-validation",
            u8::from(config.validation_draws).to_string(),
        ),
        ("--mirror", config.mirror.to_string()),
        (
            "--quantization-aware",
            config.quantization_aware.to_string(),
        ),
        ("--shuffle-buffer", config.shuffle_buffer.to_string()),
        ("--skip-invalid", config.skip_invalid.to_string()),
        ("--seed", config.seed.to_string()),
    ]
}

/// The value a checkpoint that predates `option` ran with.
fn later_default(option: &str) -> Option<String> {
    LATER_OPTIONS
        .iter()
        .find(|(o, _)| *o == option)
        .map(|(_, v)| v.to_string())
}

/// Every option whose value differs between the checkpoint (`saved`) and this
/// command line (`current`), as `--lr: checkpoint 0.001, command line 0.002`,
/// and whether `--force` may accept them all.
pub fn differences(saved: &Settings, current: &Settings) -> (Vec<String>, bool) {
    let value = |set: &Settings, option: &str| {
        set.iter()
            .find(|(o, _)| o == option)
            .map(|(_, v)| v.clone())
            .or_else(|| later_default(option))
            .unwrap_or_else(|| "(not recorded)".to_string())
    };
    let mut out = Vec::new();
    let mut forceable = true;
    let mut options: Vec<&String> = current.iter().map(|(o, _)| o).collect();
    options.extend(
        saved
            .iter()
            .map(|(o, _)| o)
            .filter(|o| !current.iter().any(|(c, _)| c == *o)),
    );
    for option in options {
        let (was, now) = (value(saved, option), value(current, option));
        if was != now {
            forceable &= !UNFORCEABLE.contains(&option.as_str());
            let (option, was) = (shown(option), shown(&was));
            out.push(format!("{option}: checkpoint {was}, command line {now}"));
        }
    }
    (out, forceable)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(pairs: &[(&str, &str)]) -> Settings {
        pairs
            .iter()
            .map(|(o, v)| (o.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_checkpoint_from_before_the_schedule_options_resumes() {
        let old = set(&[("--lr", "0.001")]);
        let now = set(&[
            ("--lr", "0.001"),
            ("--lr-schedule", "step"),
            ("--lr-final", NO_FINAL_LR),
            ("--lr-warmup-batches", "0"),
        ]);
        assert_eq!(differences(&old, &now), (vec![], true));
        let cosine = set(&[("--lr", "0.001"), ("--lr-schedule", "cosine")]);
        assert_eq!(
            differences(&old, &cosine),
            (
                vec!["--lr-schedule: checkpoint step, command line cosine".to_string()],
                true
            )
        );
    }

    #[test]
    fn a_checkpoint_from_before_the_castling_and_wld_rules_resumes_without_them() {
        let old = set(&[("--lr", "0.001")]);
        let off = set(&[
            ("--lr", "0.001"),
            ("--castling-fen-skipping", "false"),
            ("--wld-fen-skipping", "false"),
        ]);
        assert_eq!(differences(&old, &off), (vec![], true));
        let on = set(&[("--lr", "0.001"), ("--wld-fen-skipping", "true")]);
        assert_eq!(
            differences(&old, &on),
            (
                vec!["--wld-fen-skipping: checkpoint false, command line true".to_string()],
                true
            )
        );
    }

    #[test]
    fn every_difference_is_named_and_the_shape_cannot_be_forced() {
        let saved = set(&[("--lr", "0.001"), ("--seed", "0"), ("--ft-size", "16")]);
        let same = differences(&saved, &saved);
        assert_eq!(same, (vec![], true));
        let lr = set(&[("--lr", "0.002"), ("--seed", "1"), ("--ft-size", "16")]);
        assert_eq!(
            differences(&saved, &lr),
            (
                vec![
                    "--lr: checkpoint 0.001, command line 0.002".to_string(),
                    "--seed: checkpoint 0, command line 1".to_string()
                ],
                true
            )
        );
        let shape = set(&[("--lr", "0.001"), ("--seed", "0"), ("--ft-size", "8")]);
        assert_eq!(
            differences(&saved, &shape),
            (
                vec!["--ft-size: checkpoint 16, command line 8".to_string()],
                false
            )
        );
    }

    #[test]
    fn a_checkpoint_from_before_screlu_and_buckets_resumes_only_as_a_plain_net() {
        let old = set(&[("--lr", "0.001")]);
        let plain = set(&[
            ("--lr", "0.001"),
            ("--activation", "crelu"),
            ("--output-buckets", "1"),
        ]);
        assert_eq!(differences(&old, &plain), (vec![], true));
        let new = set(&[
            ("--lr", "0.001"),
            ("--activation", "screlu"),
            ("--output-buckets", "8"),
        ]);
        assert_eq!(
            differences(&old, &new),
            (
                vec![
                    "--activation: checkpoint crelu, command line screlu".to_string(),
                    "--output-buckets: checkpoint 1, command line 8".to_string()
                ],
                false
            )
        );
    }
}
