//! `.binpack` and `.plain` files decoded once into memory. Neither format
//! allows random access (a `.binpack` entry is derived from the one before,
//! `.plain` records have no fixed size), while the training stream draws
//! records by index; so these files are read through the core's
//! [`TrainingDataReader`] at opening and kept as 40-byte records, the same
//! bytes a `.bin` file would map.

use std::fmt;
use std::path::{Path, PathBuf};

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use nnue_core::data::{
    decode_fast, DataError, ReaderOptions, TrainingDataReader, TrainingRecord, Validation,
};
use nnue_core::packed::{PackedSfenValue, PACKED_SFEN_VALUE_SIZE};

// The memory figure given in `--help` and the README: one record per position.
const _: () = assert!(size_of::<PackedSfenValue>() == PACKED_SFEN_VALUE_SIZE);

/// Records decoded before a progress count appears (smaller files load in
/// well under a second).
const PROGRESS_AFTER: u64 = 1 << 20;

/// Records between progress updates.
const PROGRESS_STEP: u64 = 1 << 14;

/// A `.binpack` or `.plain` file's records, in file order.
pub struct LoadedFile {
    path: PathBuf,
    records: Vec<PackedSfenValue>,
    options: ReaderOptions,
    /// Invalid records skipped while loading (`.plain` with `skip_invalid`).
    skipped: u64,
}

impl LoadedFile {
    /// Decodes every record of `path` (structural checks; `.plain` records are
    /// fully checked by the core). The first bad record or chunk is an error
    /// naming the file and the line, or the chunk, its byte offset and entry.
    pub fn read(
        path: &Path,
        options: ReaderOptions,
        progress: bool,
    ) -> Result<LoadedFile, DataError> {
        let reader = TrainingDataReader::open(path, options)?;
        let mut iter = reader.records(Validation::Fast)?;
        let bar = LoadProgress::new(path, progress);
        let mut records = Vec::new();
        for record in iter.by_ref() {
            records.push(record?.raw);
            bar.update(records.len() as u64);
        }
        bar.finish();
        records.shrink_to_fit();
        Ok(LoadedFile {
            path: path.to_path_buf(),
            records,
            options,
            skipped: iter.skipped(),
        })
    }

    /// Number of records.
    pub fn len(&self) -> u64 {
        self.records.len() as u64
    }

    /// Whether the file held no (valid) record.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Invalid records skipped while loading.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// Record `index` (counting from 0 in file order), decoded on the fast path.
    /// The padding byte is ignored, as in `.bin` files.
    pub fn get(&self, index: u64) -> Result<TrainingRecord, DataError> {
        let len = self.len();
        let raw = self
            .records
            .get(index as usize)
            .ok_or(DataError::OutOfRange { index, len })?;
        decode_fast(raw, self.options.policy).map_err(|reason| DataError::BadRecord {
            file: self.path.clone(),
            index,
            reason,
        })
    }
}

/// A record count on stderr, shown once a file turns out to be large.
struct LoadProgress {
    bar: ProgressBar,
    enabled: bool,
}

impl LoadProgress {
    fn new(path: &Path, enabled: bool) -> LoadProgress {
        let bar = ProgressBar::hidden();
        bar.set_style(
            ProgressStyle::with_template("{msg}: {human_pos} positions, {rate}, {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner())
                .with_key("rate", |state: &ProgressState, w: &mut dyn fmt::Write| {
                    let _ = write!(w, "{} positions/s", HumanCount(state.per_sec() as u64));
                }),
        );
        bar.set_message(format!(
            "decoding {} ({PACKED_SFEN_VALUE_SIZE} bytes per position in memory)",
            path.display()
        ));
        LoadProgress { bar, enabled }
    }

    fn update(&self, count: u64) {
        if !self.enabled || !count.is_multiple_of(PROGRESS_STEP) {
            return;
        }
        if count == PROGRESS_AFTER {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        self.bar.set_position(count);
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
