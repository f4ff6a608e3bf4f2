//! Where generated records go: a small [`RecordSink`] trait over the core's
//! writer (`.bin`, `.binpack`, `.plain` by extension), and `--save-every`
//! rotation over any of them.

use std::path::{Path, PathBuf};

use nnue_core::data::TrainingDataWriter;
use nnue_core::packed::PackedSfenValue;

use crate::format::Format;
use crate::generate::error::GenerateError;
use crate::generate::options::OutputMode;

/// A destination for finished records. Implementations write whole records only
/// and make everything durable in [`RecordSink::finish`].
pub trait RecordSink: Send {
    /// Writes `records` (one game's, or part of one at the end of a run).
    fn write_batch(&mut self, records: &[PackedSfenValue]) -> Result<(), GenerateError>;
    /// Flushes everything to disk.
    fn finish(self: Box<Self>) -> Result<(), GenerateError>;
}

/// Any training-data file through the core's writer (`.bin`, `.binpack` or
/// `.plain` by extension). The generator hands over whole games, so `.binpack`
/// chains stay intact.
struct DataSink(TrainingDataWriter);

impl RecordSink for DataSink {
    fn write_batch(&mut self, records: &[PackedSfenValue]) -> Result<(), GenerateError> {
        Ok(self.0.write_all(records)?)
    }

    fn finish(self: Box<Self>) -> Result<(), GenerateError> {
        self.0.finish()?;
        Ok(())
    }
}

/// Checks that `path` may be written under `mode` without touching it: an
/// existing file needs `--append` or `--force`.
pub fn check_output(path: &Path, mode: OutputMode) -> Result<(), GenerateError> {
    if mode == OutputMode::New && path.exists() {
        return Err(GenerateError::OutputExists(path.to_path_buf()));
    }
    Format::from_path(path).map_err(|e| GenerateError::InvalidOption(e.to_string()))?;
    Ok(())
}

/// Most `--save-every` parts checked up front (a run this long checks the later
/// parts when it opens them).
const PARTS_CHECKED: u64 = 100_000;

/// [`check_output`] for every part a `--save-every every` run of `count` records
/// will write.
pub fn check_parts(
    base: &Path,
    mode: OutputMode,
    every: u64,
    count: u64,
) -> Result<(), GenerateError> {
    let parts = count.div_ceil(every).min(PARTS_CHECKED);
    (0..parts).try_for_each(|k| check_output(&part_path(base, k), mode))
}

/// Opens the sink for `path` (format by extension) under `mode`.
pub fn open_sink(path: &Path, mode: OutputMode) -> Result<Box<dyn RecordSink>, GenerateError> {
    // check_output also refuses an unknown extension as an option error.
    check_output(path, mode)?;
    // Appending checks that an existing file ends on a whole record or chunk.
    let writer = match mode {
        OutputMode::Append => TrainingDataWriter::append(path)?,
        _ => TrainingDataWriter::create(path)?,
    };
    Ok(Box::new(DataSink(writer)))
}

/// `--save-every N`: `<stem>_0.<ext>`, `<stem>_1.<ext>`, ... of N records each.
pub struct RotatingSink {
    base: PathBuf,
    mode: OutputMode,
    every: u64,
    part: u64,
    in_part: u64,
    current: Option<Box<dyn RecordSink>>,
}

impl RotatingSink {
    /// Opens part 0 (so that an unwritable destination fails at once).
    pub fn open(base: &Path, mode: OutputMode, every: u64) -> Result<RotatingSink, GenerateError> {
        let current = open_sink(&part_path(base, 0), mode)?;
        Ok(RotatingSink {
            base: base.to_path_buf(),
            mode,
            every,
            part: 0,
            in_part: 0,
            current: Some(current),
        })
    }
}

/// The name of part `k` of `base`.
pub fn part_path(base: &Path, k: u64) -> PathBuf {
    let stem = base
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    match base.extension() {
        Some(ext) => base.with_file_name(format!("{stem}_{k}.{}", ext.to_string_lossy())),
        None => base.with_file_name(format!("{stem}_{k}")),
    }
}

impl RecordSink for RotatingSink {
    fn write_batch(&mut self, mut records: &[PackedSfenValue]) -> Result<(), GenerateError> {
        while !records.is_empty() {
            if self.in_part == self.every {
                if let Some(done) = self.current.take() {
                    done.finish()?;
                }
                self.part += 1;
                self.in_part = 0;
                self.current = Some(open_sink(&part_path(&self.base, self.part), self.mode)?);
            }
            let room = (self.every - self.in_part).min(records.len() as u64) as usize;
            let sink = self.current.as_mut().expect("a part is open");
            sink.write_batch(&records[..room])?;
            self.in_part += room as u64;
            records = &records[room..];
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> Result<(), GenerateError> {
        match self.current.take() {
            Some(sink) => sink.finish(),
            None => Ok(()),
        }
    }
}
