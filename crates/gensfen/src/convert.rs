//! `nnue-gen-sfen convert IN OUT [--validate] [--append]`.

use std::io::{BufWriter, Write};
use std::path::Path;

use nnue_core::data::{
    AtomicOutput, BinWriter, DataError, PlainWriter, ReaderOptions, RecordPolicy, Validation,
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
    /// Skip and count invalid records instead of stopping at the first one.
    pub skip_invalid: bool,
}

/// What a conversion did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Converted {
    /// Records written.
    pub written: u64,
    /// Invalid records skipped (only with `skip_invalid`).
    pub skipped: u64,
}

/// Converts `input` to `output` (formats by extension) and says how many
/// records it wrote and skipped. An input without any valid record is an
/// error (and leaves the output as it was).
///
/// The output is written to a temporary file renamed into place only after
/// the last record, so on any error the destination is left as it was (no
/// half-written file). `.bin` output gets padding 0xFF like Stockfish's
/// binpack-based `convert`; `.plain` output is byte-identical to it.
pub fn convert(
    input: &Path,
    output: &Path,
    options: ConvertOptions,
) -> Result<Converted, CliError> {
    let out_format = Format::from_path(output)?;
    Format::from_path(input)?;
    if let (Ok(a), Ok(b)) = (input.canonicalize(), output.canonicalize()) {
        if a == b {
            return Err(CliError::SameFile(output.to_path_buf()));
        }
    }
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
    let (guard, file) = AtomicOutput::create(output, options.append)?;
    let io_err = |e| DataError::Io {
        file: output.to_path_buf(),
        source: e,
    };
    let mut count = 0u64;
    let skipped;
    match out_format {
        Format::Bin => {
            let mut writer = BinWriter::from_file(file, guard.temp_path())?;
            skipped = for_each_record(input, reader_options, validation, |raw, _| {
                let mut rec = *raw;
                rec.padding = PADDING_BYTE;
                writer.write(&rec)?;
                count += 1;
                Ok(())
            })?;
            writer.finish()?;
        }
        Format::Plain => {
            let mut writer = PlainWriter::new(BufWriter::with_capacity(1 << 16, file));
            skipped = for_each_record(input, reader_options, validation, |_, rec| {
                writer.write(rec).map_err(io_err)?;
                count += 1;
                Ok(())
            })?;
            let mut inner = writer.into_inner();
            inner.flush().map_err(io_err)?;
            let file = inner.into_inner().map_err(|e| io_err(e.into_error()))?;
            file.sync_all().map_err(io_err)?;
        }
    }
    if count == 0 {
        return Err(DataError::no_records(&[input], skipped).into());
    }
    guard.commit()?;
    Ok(Converted {
        written: count,
        skipped,
    })
}
