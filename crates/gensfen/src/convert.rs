//! `nnue-gen-sfen convert IN OUT [--validate] [--append]`.

use std::path::Path;

use nnue_core::data::{
    AtomicOutput, BinpackWriter, ReaderOptions, RecordPolicy, TrainingDataWriter, Validation,
};
use nnue_core::packed::PADDING_BYTE;

use crate::error::CliError;
use crate::format::Format;
use crate::source::for_each_record;

/// Options of `convert`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ConvertOptions {
    /// Check every record fully (legal position and best move) and stop at
    /// the first bad one. Without it, `.bin` input gets the structural checks.
    pub validate: bool,
    /// Append to an existing output instead of replacing it.
    pub append: bool,
    /// Accept `MOVE_NONE` / `0000` best moves.
    pub allow_move_none: bool,
}

/// Converts `input` to `output` (formats by extension) and returns the
/// number of records written.
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
pub fn convert(input: &Path, output: &Path, options: ConvertOptions) -> Result<u64, CliError> {
    let out_format = Format::from_path(output)?;
    Format::from_path(input)?;
    if let (Ok(a), Ok(b)) = (input.canonicalize(), output.canonicalize()) {
        if a == b {
            return Err(CliError::SameFile(output.to_path_buf()));
        }
    }
    let reader_options = ReaderOptions {
        skip_invalid: false,
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
    let (guard, file) = AtomicOutput::create(output, options.append)?;
    // Errors name the destination the user gave, not the temporary file.
    let mut writer = TrainingDataWriter::from_file(file, output, out_format)?;
    let mut count = 0u64;
    for_each_record(input, reader_options, validation, |raw, _| {
        let mut rec = *raw;
        rec.padding = PADDING_BYTE;
        writer.write(&rec)?;
        count += 1;
        Ok(())
    })?;
    writer.finish()?;
    guard.commit()?;
    Ok(count)
}
