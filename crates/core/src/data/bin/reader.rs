//! `.bin` reader over one or many files: memory-mapped, sequential or random
//! access by global record index.

use std::path::{Path, PathBuf};

use memmap2::Mmap;

use crate::data::error::{DataError, RecordError};
use crate::data::open::open_data_file;
use crate::data::record::{
    decode_fast, decode_full, RecordPolicy, TrainingRecord, ValidatedRecord,
};
use crate::packed::{PackedSfenValue, PACKED_SFEN_VALUE_SIZE};

/// Reader behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReaderOptions {
    /// Skip (and count) invalid records instead of stopping at the first
    /// one; a truncated tail is then ignored and counted too.
    pub skip_invalid: bool,
    /// Per-record rules (e.g. whether `MOVE_NONE` is accepted).
    pub policy: RecordPolicy,
}

/// Where a record lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordLocation {
    /// Index of the file in the order given to [`BinReader::open`].
    pub file: usize,
    /// Record index inside that file, from 0.
    pub index: u64,
}

struct BinFile {
    path: PathBuf,
    /// `None` for an empty file (zero-length maps are not portable).
    map: Option<Mmap>,
    /// Whole records in the file.
    records: u64,
    /// Global index of the file's first record.
    first: u64,
}

impl BinFile {
    fn bytes(&self) -> &[u8] {
        let len = (self.records * PACKED_SFEN_VALUE_SIZE as u64) as usize;
        self.map.as_deref().map_or(&[][..], |m| &m[..len])
    }
}

/// Training data spread over any number of `.bin` files, seen as one
/// sequence of records.
pub struct BinReader {
    files: Vec<BinFile>,
    total: u64,
    options: ReaderOptions,
    truncated_tails: u64,
}

impl BinReader {
    /// Maps every file. A file whose size is not a multiple of 40 is an
    /// error naming the file and the index of the cut-off record, unless
    /// `skip_invalid` is set (then its whole records are used and the tail
    /// is counted in [`Self::truncated_tails`]).
    ///
    /// The files must not be modified while the reader exists (memory map).
    pub fn open<P: AsRef<Path>>(
        paths: &[P],
        options: ReaderOptions,
    ) -> Result<BinReader, DataError> {
        let mut files = Vec::with_capacity(paths.len());
        let mut total = 0u64;
        let mut truncated_tails = 0u64;
        for path in paths {
            let path = path.as_ref();
            let file = open_data_file(path)?;
            let size = file.metadata().map_err(|e| DataError::io(path, e))?.len();
            let records = size / PACKED_SFEN_VALUE_SIZE as u64;
            let trailing = size % PACKED_SFEN_VALUE_SIZE as u64;
            if trailing != 0 {
                if !options.skip_invalid {
                    return Err(DataError::Truncated {
                        file: path.to_path_buf(),
                        index: records,
                        trailing,
                        size,
                    });
                }
                truncated_tails += 1;
            }
            let map = if size == 0 {
                None
            } else {
                // SAFETY: the map is read-only and lives as long as the
                // reader; callers are told not to modify the files meanwhile,
                // the usual contract of memory-mapped readers.
                Some(unsafe { Mmap::map(&file) }.map_err(|e| DataError::io(path, e))?)
            };
            files.push(BinFile {
                path: path.to_path_buf(),
                map,
                records,
                first: total,
            });
            total += records;
        }
        Ok(BinReader {
            files,
            total,
            options,
            truncated_tails,
        })
    }

    /// Total number of whole records.
    pub fn len(&self) -> u64 {
        self.total
    }

    /// Whether there are no records at all.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The options the reader was opened with.
    pub fn options(&self) -> ReaderOptions {
        self.options
    }

    /// Files whose cut-off last record was ignored (only with `skip_invalid`).
    pub fn truncated_tails(&self) -> u64 {
        self.truncated_tails
    }

    /// Number of files.
    pub fn file_count(&self) -> usize {
        self.files.len()
    }

    /// Path of file `file`.
    pub fn path(&self, file: usize) -> Option<&Path> {
        self.files.get(file).map(|f| f.path.as_path())
    }

    /// The whole records of file `file` as raw bytes (a multiple of 40), for
    /// callers that split work themselves (e.g. one rayon task per chunk).
    pub fn file_bytes(&self, file: usize) -> &[u8] {
        self.files.get(file).map_or(&[][..], BinFile::bytes)
    }

    /// Finds the file and local index of global record `index`.
    pub fn locate(&self, index: u64) -> Result<RecordLocation, DataError> {
        if index >= self.total {
            return Err(DataError::OutOfRange {
                index,
                len: self.total,
            });
        }
        let file = self.files.partition_point(|f| f.first + f.records <= index);
        let f = &self.files[file];
        Ok(RecordLocation {
            file,
            index: index - f.first,
        })
    }

    fn raw_at(&self, loc: RecordLocation) -> PackedSfenValue {
        let start = (loc.index * PACKED_SFEN_VALUE_SIZE as u64) as usize;
        let bytes = &self.files[loc.file].bytes()[start..start + PACKED_SFEN_VALUE_SIZE];
        let mut arr = [0u8; PACKED_SFEN_VALUE_SIZE];
        arr.copy_from_slice(bytes);
        PackedSfenValue::from_bytes(&arr)
    }

    fn bad(&self, loc: RecordLocation, reason: RecordError) -> DataError {
        DataError::BadRecord {
            file: self.files[loc.file].path.clone(),
            index: loc.index,
            reason,
        }
    }

    /// The undecoded record at global `index`.
    pub fn raw(&self, index: u64) -> Result<PackedSfenValue, DataError> {
        Ok(self.raw_at(self.locate(index)?))
    }

    /// Record `index`, decoded on the fast path (no move generation).
    pub fn get(&self, index: u64) -> Result<TrainingRecord, DataError> {
        let loc = self.locate(index)?;
        decode_fast(&self.raw_at(loc), self.options.policy).map_err(|e| self.bad(loc, e))
    }

    /// Record `index`, fully validated (legal position and move).
    pub fn get_validated(&self, index: u64) -> Result<ValidatedRecord, DataError> {
        let loc = self.locate(index)?;
        decode_full(&self.raw_at(loc), self.options.policy).map_err(|e| self.bad(loc, e))
    }

    /// All records in order, fast path.
    pub fn iter(&self) -> Records<'_, TrainingRecord> {
        Records::new(self, decode_fast)
    }

    /// All records in order, fully validated.
    pub fn iter_validated(&self) -> Records<'_, ValidatedRecord> {
        Records::new(self, decode_full)
    }

    /// All records in order, undecoded, with their location.
    pub fn iter_raw(&self) -> impl Iterator<Item = (RecordLocation, PackedSfenValue)> + '_ {
        self.files.iter().enumerate().flat_map(move |(fi, f)| {
            f.bytes()
                .chunks_exact(PACKED_SFEN_VALUE_SIZE)
                .enumerate()
                .filter_map(move |(i, chunk)| {
                    PackedSfenValue::from_slice(chunk).map(|v| {
                        (
                            RecordLocation {
                                file: fi,
                                index: i as u64,
                            },
                            v,
                        )
                    })
                })
        })
    }
}

type Decoder<T> = fn(&PackedSfenValue, RecordPolicy) -> Result<T, RecordError>;

/// Sequential iterator over a [`BinReader`].
///
/// Without `skip_invalid` it yields the first bad record as an `Err` and
/// then ends; with it, bad records are skipped and counted in
/// [`Records::skipped`].
pub struct Records<'a, T> {
    reader: &'a BinReader,
    decode: Decoder<T>,
    file: usize,
    index: u64,
    skipped: u64,
    failed: bool,
}

impl<'a, T> Records<'a, T> {
    fn new(reader: &'a BinReader, decode: Decoder<T>) -> Self {
        Records {
            reader,
            decode,
            file: 0,
            index: 0,
            skipped: 0,
            failed: false,
        }
    }

    /// Records skipped as invalid so far.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// Location of the record the next call to `next` will look at.
    pub fn location(&self) -> RecordLocation {
        RecordLocation {
            file: self.file,
            index: self.index,
        }
    }
}

impl<T> Iterator for Records<'_, T> {
    type Item = Result<T, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        loop {
            let f = self.reader.files.get(self.file)?;
            if self.index >= f.records {
                self.file += 1;
                self.index = 0;
                continue;
            }
            let loc = self.location();
            self.index += 1;
            match (self.decode)(&self.reader.raw_at(loc), self.reader.options.policy) {
                Ok(v) => return Some(Ok(v)),
                Err(_) if self.reader.options.skip_invalid => self.skipped += 1,
                Err(e) => {
                    self.failed = true;
                    return Some(Err(self.reader.bad(loc, e)));
                }
            }
        }
    }
}
