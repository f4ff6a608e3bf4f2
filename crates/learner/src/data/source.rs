//! Where training positions come from. The trainer only sees [`PositionSource`]:
//! random access by global index over one or many files, whatever their format.

use std::ops::Range;
use std::path::{Path, PathBuf};

use nnue_core::data::{BinReader, DataError, DataFormat, ReaderOptions, TrainingRecord};

use super::loaded::LoadedFile;
use crate::error::LearnError;

/// Random access to decoded positions of one or many files.
pub trait PositionSource: Send + Sync {
    /// Number of records.
    fn len(&self) -> u64;

    /// Whether there are no records.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Global index ranges of the files, in order (streams interleave them).
    fn file_ranges(&self) -> Vec<Range<u64>>;

    /// Record `index` decoded on the fast path; errors name the file and record.
    fn record(&self, index: u64) -> Result<TrainingRecord, DataError>;

    /// The files, for messages.
    fn describe(&self) -> String;
}

/// How [`DataSource::open`] reads.
#[derive(Clone, Copy, Debug, Default)]
pub struct SourceOptions {
    /// Skip (and count) invalid records: a cut-off `.bin` tail, bad `.plain`
    /// records. A bad `.binpack` chunk still stops (its entries chain).
    pub skip_invalid: bool,
    /// Show a record count while a large `.binpack` or `.plain` file loads.
    pub progress: bool,
}

/// One file's records.
enum FileData {
    /// `.bin`: memory-mapped, decoded on access.
    Mapped(BinReader),
    /// `.binpack`, `.plain`: decoded into memory at opening.
    Loaded(LoadedFile),
}

struct SourceFile {
    /// Global index of the file's first record.
    first: u64,
    len: u64,
    data: FileData,
}

/// `.bin`, `.binpack` and `.plain` files (chosen by extension, mixed freely)
/// seen as one sequence of records. `.bin` files are memory-mapped; the others
/// are decoded at opening and held in memory at 40 bytes per position.
pub struct DataSource {
    files: Vec<SourceFile>,
    paths: Vec<PathBuf>,
    total: u64,
    skipped: u64,
}

impl DataSource {
    /// Opens `paths`. A missing, unreadable, truncated or corrupt file, a
    /// directory or an unknown extension is an error naming the file (and the
    /// record, line or chunk).
    pub fn open(paths: &[PathBuf], options: SourceOptions) -> Result<DataSource, LearnError> {
        let reader_options = ReaderOptions {
            skip_invalid: options.skip_invalid,
            ..ReaderOptions::default()
        };
        let mut source = DataSource {
            files: Vec::with_capacity(paths.len()),
            paths: paths.to_vec(),
            total: 0,
            skipped: 0,
        };
        for path in paths {
            let data = open_file(path, reader_options, options.progress)?;
            let (len, skipped) = match &data {
                FileData::Mapped(r) => (r.len(), r.truncated_tails()),
                FileData::Loaded(f) => (f.len(), f.skipped()),
            };
            source.files.push(SourceFile {
                first: source.total,
                len,
                data,
            });
            source.total += len;
            source.skipped += skipped;
        }
        Ok(source)
    }

    /// Invalid records skipped while opening (with `skip_invalid`).
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// [`DataError::NoRecords`] for these files: the core's message for "read
    /// nothing".
    pub fn no_records(&self) -> LearnError {
        DataError::no_records(&self.paths, self.skipped).into()
    }
}

fn open_file(path: &Path, options: ReaderOptions, progress: bool) -> Result<FileData, DataError> {
    Ok(match DataFormat::from_path(path)? {
        DataFormat::Bin => FileData::Mapped(BinReader::open(&[path], options)?),
        _ => FileData::Loaded(LoadedFile::read(path, options, progress)?),
    })
}

impl PositionSource for DataSource {
    fn len(&self) -> u64 {
        self.total
    }

    fn file_ranges(&self) -> Vec<Range<u64>> {
        self.files
            .iter()
            .map(|f| f.first..f.first + f.len)
            .collect()
    }

    fn record(&self, index: u64) -> Result<TrainingRecord, DataError> {
        if index >= self.total {
            return Err(DataError::OutOfRange {
                index,
                len: self.total,
            });
        }
        let file = &self.files[self.files.partition_point(|f| f.first + f.len <= index)];
        let local = index - file.first;
        match &file.data {
            FileData::Mapped(reader) => reader.get(local),
            FileData::Loaded(loaded) => loaded.get(local),
        }
    }

    fn describe(&self) -> String {
        let names: Vec<String> = self.paths.iter().map(|p| p.display().to_string()).collect();
        names.join(", ")
    }
}
