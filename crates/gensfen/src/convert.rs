//! `nnue-gen-sfen convert IN OUT [--validate] [--append | --force]
//! [--input-format NAME] [--output-format NAME] [--rescale F] [filters]`.

use std::path::PathBuf;

use clap::Args;

use nnue_core::data::filter::FilterArgs;
use nnue_core::data::{
    check_appendable, BinpackWriter, DataError, ReaderOptions, RecordPolicy, TrainingDataWriter,
    Validation,
};
use nnue_core::output::{AtomicOutput, OutputCheck};
use nnue_core::packed::PADDING_BYTE;

use crate::error::Error;
use crate::format::{transform_formats_as, Format};
use crate::source::for_each_record_as;

/// The arguments of `nnue-gen-sfen convert` (its help text is in `cli.rs`).
#[derive(Debug, Clone, Args)]
pub struct ConvertArgs {
    /// Input file (.bin, .binpack, .plain, .vf, .mf or .bf, or any name with
    /// --input-format).
    pub input: PathBuf,
    /// Output file (the same formats, or any name with --output-format);
    /// written only when the conversion succeeds.
    pub output: PathBuf,
    /// The input's format where its extension does not say: bin, binpack,
    /// plain, viriformat (vf), marlinformat (mf) or bulletformat (bf).
    #[arg(long, value_name = "NAME")]
    pub input_format: Option<Format>,
    /// The output's format where its extension does not say (names as
    /// --input-format).
    #[arg(long, value_name = "NAME")]
    pub output_format: Option<Format>,
    /// Check every record fully (legal position and best move), not only its
    /// structure, and stop at the first bad one.
    #[arg(long)]
    pub validate: bool,
    /// Append to an existing output instead of refusing it.
    #[arg(long, conflicts_with = "force")]
    pub append: bool,
    /// Replace an existing output (never the input).
    #[arg(long)]
    pub force: bool,
    /// Accept records whose best move is MOVE_NONE (0 / "0000").
    #[arg(long)]
    pub allow_move_none: bool,
    /// Skip and count invalid records instead of stopping at the first one.
    #[arg(long)]
    pub skip_invalid: bool,
    /// Multiply every score by F (rounded to the nearest integer), e.g. to
    /// move between an engine's centipawns and Stockfish's internal units;
    /// without it scores are copied unchanged. A score that leaves the
    /// 16-bit range is an error naming the record.
    #[arg(long, value_name = "F", value_parser = parse_factor)]
    pub rescale: Option<f64>,
    /// Which records are written (all without these options).
    #[command(flatten)]
    pub filter: FilterArgs,
}

/// A `--rescale` factor: a finite number above 0.
fn parse_factor(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(f) if f.is_finite() && f > 0.0 => Ok(f),
        _ => Err(format!("{text:?} is not a finite number above 0")),
    }
}

/// `score` times `factor`, rounded; one that leaves the 16-bit range is an
/// error naming the record (its index among the records read).
fn rescaled(score: i16, factor: f64, input: &std::path::Path, index: u64) -> Result<i16, Error> {
    let scaled = (f64::from(score) * factor).round();
    if scaled < f64::from(i16::MIN) || scaled > f64::from(i16::MAX) {
        return Err(Error::Rescale {
            file: input.to_path_buf(),
            index,
            score,
            factor,
        });
    }
    Ok(scaled as i16)
}

/// What a conversion did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Converted {
    /// Records written.
    pub written: u64,
    /// Invalid records skipped (only with `skip_invalid`).
    pub skipped: u64,
    /// Valid records the filter left out.
    pub filtered: u64,
}

/// Runs `convert` and says what it did.
pub fn run(args: &ConvertArgs) -> Result<String, Error> {
    let done = convert(args)?;
    let filtered = if args.filter.filter().is_some() {
        format!(", {} filtered out", done.filtered)
    } else {
        String::new()
    };
    Ok(format!(
        "converted {} records ({} invalid skipped{filtered}): {} -> {}",
        done.written,
        done.skipped,
        args.input.display(),
        args.output.display()
    ))
}

/// Converts `input` to `output` (formats by extension) and says how many
/// records it wrote and skipped. An input without any valid record is an
/// error (and leaves the output as it was).
///
/// The output is written to a temporary file renamed into place only after
/// the last record, so on any error the destination is left as it was (no
/// half-written file). Any of `.bin`, `.binpack` and `.plain` converts to
/// any other. Every record gets padding 0xFF, as Stockfish's `convert`
/// writes it (its generator writes 0; readers ignore the byte), so
/// `.binpack -> .bin` and `.bin -> .binpack` reproduce the tools' bytes;
/// `.plain` output is byte-identical to theirs. `.binpack` output needs
/// legal records (validated in full) and chains consecutive positions of a
/// game; it stores no fullmove number (readers derive it from the ply).
///
/// `.vf` output makes one game of each run of consecutive records that
/// follow from each other by the stored move with the same result, and
/// needs legal records with a move; `.mf` and `.bf` store no move, so their
/// records read back with `MOVE_NONE` and cannot become `.binpack` or
/// `.vf`. A record the output cannot hold is an error naming it, never
/// altered.
pub fn convert(options: &ConvertArgs) -> Result<Converted, Error> {
    let (input, output) = (options.input.as_path(), options.output.as_path());
    let mode = OutputCheck::mode_from_flags(options.force, options.append);
    let (in_format, out_format) = transform_formats_as(
        (input, options.input_format),
        (output, options.output_format),
        OutputCheck::new(mode),
        true,
    )?;
    let reader_options = ReaderOptions {
        skip_invalid: options.skip_invalid,
        policy: RecordPolicy {
            allow_move_none: options.allow_move_none,
        },
    };
    let validation = if options.validate {
        Validation::Full
    } else {
        Validation::Fast
    };
    if options.append && out_format == Format::Binpack && output.exists() {
        // Appending after a cut-off chunk would hide the new data behind it.
        BinpackWriter::check_whole_chunks(output)?;
    }
    if options.append {
        // The same for a cut-off .mf/.bf record or an unterminated .vf game.
        check_appendable(output, out_format)?;
    }
    let (guard, file) = AtomicOutput::create(output, options.append)?;
    // Errors name the destination the user gave, not the temporary file.
    let mut writer = TrainingDataWriter::from_file(file, output, out_format)?;
    let (mut count, mut read) = (0u64, 0u64);
    let filter = options.filter.filter();
    let source = (input, Some(in_format));
    let skipped = for_each_record_as(source, reader_options, validation, |raw, record| {
        read += 1;
        if filter
            .as_ref()
            .is_some_and(|f| !f.accepts(record, read - 1))
        {
            return Ok(());
        }
        let mut rec = *raw;
        rec.padding = PADDING_BYTE;
        if let Some(factor) = options.rescale {
            rec.score = rescaled(rec.score, factor, input, count)?;
        }
        writer.write(&rec)?;
        count += 1;
        Ok(())
    })?;
    writer.finish()?;
    if read == 0 {
        return Err(DataError::no_records(&[input], skipped).into());
    }
    guard.commit()?;
    Ok(Converted {
        written: count,
        skipped,
        filtered: read - count,
    })
}
