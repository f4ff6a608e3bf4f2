//! Where generated records go: a small [`RecordSink`] trait over the core's
//! writer (`.bin`, `.binpack`, `.plain` by extension), and `--save-every`
//! rotation over any of them.

use std::path::{Path, PathBuf};

use nnue_core::data::TrainingDataWriter;
use nnue_core::output::{OutputCheck, OutputMode};
use nnue_core::packed::PackedSfenValue;

use crate::error::Error;

/// A destination for finished records. Implementations write whole records only
/// and make everything durable in [`RecordSink::finish`].
pub(crate) trait RecordSink: Send {
    /// Writes `records` (one game's, or part of one at the end of a run).
    fn write_batch(&mut self, records: &[PackedSfenValue]) -> Result<(), Error>;
    /// Flushes everything to disk.
    fn finish(self: Box<Self>) -> Result<(), Error>;
}

/// Any training-data file through the core's writer (`.bin`, `.binpack` or
/// `.plain` by extension). The generator hands over whole games, so `.binpack`
/// chains stay intact.
struct DataSink(TrainingDataWriter);

impl RecordSink for DataSink {
    fn write_batch(&mut self, records: &[PackedSfenValue]) -> Result<(), Error> {
        Ok(self.0.write_all(records)?)
    }

    fn finish(self: Box<Self>) -> Result<(), Error> {
        self.0.finish()?;
        Ok(())
    }
}

/// Most `--save-every` parts checked up front (a run this long checks the later
/// parts when it opens them).
pub(crate) const PARTS_CHECKED: u64 = 10_000;

/// The output rule for every file a run writes, before any game is played:
/// `base` alone, or with `--save-every every` each part a run of `count`
/// records will write (the first [`PARTS_CHECKED`]).
pub(crate) fn check_outputs(
    check: &OutputCheck,
    base: &Path,
    save_every: Option<u64>,
    count: u64,
) -> Result<(), Error> {
    let checked = match save_every {
        // Part names differ by construction, so each is checked on its own
        // (check_all would compare every pair).
        Some(every) => (0..count.div_ceil(every).min(PARTS_CHECKED))
            .try_for_each(|k| check.check(&part_path(base, k))),
        None => check.check(base),
    };
    checked.map_err(Error::appendable)
}

/// Opens the sink for `path` (format by extension) under `mode`; the caller
/// has checked it under the output rule. Generated data goes straight to its
/// file (as Stockfish's generator writes it), not through a temporary one: a
/// run of days that is killed keeps the whole games it wrote, and
/// `--append` does not copy a large file first.
pub(crate) fn open_sink(path: &Path, mode: OutputMode) -> Result<Box<dyn RecordSink>, Error> {
    // Appending checks that an existing file ends on a whole record or chunk.
    let writer = match mode {
        OutputMode::Append => TrainingDataWriter::append(path)?,
        _ => TrainingDataWriter::create(path)?,
    };
    Ok(Box::new(DataSink(writer)))
}

/// `--save-every N`: `<stem>_0.<ext>`, `<stem>_1.<ext>`, ... of N records each.
pub(crate) struct RotatingSink {
    base: PathBuf,
    check: OutputCheck,
    mode: OutputMode,
    every: u64,
    part: u64,
    in_part: u64,
    current: Option<Box<dyn RecordSink>>,
}

impl RotatingSink {
    /// Opens part 0 (so that an unwritable destination fails at once).
    /// `check` is the run's output rule, applied again to each part opened
    /// (parts beyond [`PARTS_CHECKED`] were not checked up front).
    pub(crate) fn open(
        base: &Path,
        check: OutputCheck,
        mode: OutputMode,
        every: u64,
    ) -> Result<RotatingSink, Error> {
        let current = open_sink(&part_path(base, 0), mode)?;
        Ok(RotatingSink {
            base: base.to_path_buf(),
            check,
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
    fn write_batch(&mut self, mut records: &[PackedSfenValue]) -> Result<(), Error> {
        while !records.is_empty() {
            if self.in_part == self.every {
                if let Some(done) = self.current.take() {
                    done.finish()?;
                }
                self.part += 1;
                self.in_part = 0;
                let path = part_path(&self.base, self.part);
                self.check.check(&path).map_err(Error::appendable)?;
                self.current = Some(open_sink(&path, self.mode)?);
            }
            let room = (self.every - self.in_part).min(records.len() as u64) as usize;
            let sink = self.current.as_mut().expect("a part is open");
            sink.write_batch(&records[..room])?;
            self.in_part += room as u64;
            records = &records[room..];
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> Result<(), Error> {
        match self.current.take() {
            Some(sink) => sink.finish(),
            None => Ok(()),
        }
    }
}
