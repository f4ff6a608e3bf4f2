//! `.binpack` reader: chunk headers checked here, chains decoded by the
//! `sfbinpack` crate (under [`super::guard::contain`]), every entry turned
//! into a [`PackedSfenValue`] and validated like a `.bin` record.

use std::fs::File;
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use sfbinpack::ChunkReader;

use super::convert::packed_from_entry;
use super::guard::{contain, DecoderPanic};
use crate::data::error::{ChunkError, DataError};
use crate::data::record::{decode_fast, RecordPolicy, TrainingRecord};
use crate::packed::PackedSfenValue;

/// Chunk magic.
pub const CHUNK_MAGIC: [u8; 4] = *b"BINP";
/// Chunk header: magic + u32 little-endian payload size.
pub const CHUNK_HEADER_SIZE: usize = 8;
/// Stockfish's reader refuses chunks above 100 MiB; so do we.
pub const MAX_CHUNK_SIZE: u32 = 100 * 1024 * 1024;

/// One chunk's payload and where it sits in the file.
#[derive(Debug, Clone, Copy)]
pub struct Chunk<'a> {
    /// Chunk number from 0.
    pub index: u64,
    /// Byte offset of the chunk header in the file.
    pub offset: u64,
    /// The payload (chains), without the header.
    pub data: &'a [u8],
}

/// Where an entry sits in a `.binpack` file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BinpackLocation {
    /// Chunk number from 0.
    pub chunk: u64,
    /// Byte offset of the chunk header.
    pub offset: u64,
    /// Entry number within the chunk, from 0.
    pub entry: u64,
}

enum Bytes {
    Map(Mmap),
    Owned(Vec<u8>),
}

/// A whole `.binpack` file (memory-mapped) or buffer.
pub struct BinpackReader {
    path: PathBuf,
    bytes: Bytes,
}

impl BinpackReader {
    /// Maps `path`. Nothing is decoded yet: errors in the data surface
    /// while iterating.
    pub fn open(path: impl AsRef<Path>) -> Result<BinpackReader, DataError> {
        let path = path.as_ref();
        let file = File::open(path).map_err(|e| DataError::io(path, e))?;
        let len = file.metadata().map_err(|e| DataError::io(path, e))?.len();
        let bytes = if len == 0 {
            Bytes::Owned(Vec::new())
        } else {
            // SAFETY: the map is read-only; training files are not modified
            // while a conversion or training run reads them (the same
            // assumption BinReader makes).
            Bytes::Map(unsafe { Mmap::map(&file) }.map_err(|e| DataError::io(path, e))?)
        };
        Ok(BinpackReader {
            path: path.to_path_buf(),
            bytes,
        })
    }

    /// Reads from memory; `path` only names the data in errors.
    pub fn from_bytes(bytes: Vec<u8>, path: impl AsRef<Path>) -> BinpackReader {
        BinpackReader {
            path: path.as_ref().to_path_buf(),
            bytes: Bytes::Owned(bytes),
        }
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Map(m) => m,
            Bytes::Owned(v) => v,
        }
    }

    /// The path given at opening.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The chunks in file order; the first bad header ends the iteration
    /// with an error.
    pub fn chunks(&self) -> Chunks<'_> {
        Chunks {
            path: &self.path,
            bytes: self.bytes(),
            pos: 0,
            index: 0,
        }
    }

    /// Every entry in file order, validated like a `.bin` record on the
    /// fast path ([`decode_fast`]). The first problem ends the iteration
    /// with an error naming the chunk and entry: later entries of a chain
    /// are derived from earlier ones, so nothing after a bad entry can be
    /// trusted.
    pub fn entries(&self, policy: RecordPolicy) -> Entries<'_> {
        Entries {
            chunks: self.chunks(),
            current: None,
            policy,
            failed: false,
        }
    }
}

/// Iterator over the chunks of a [`BinpackReader`].
pub struct Chunks<'a> {
    path: &'a Path,
    bytes: &'a [u8],
    pos: usize,
    index: u64,
}

impl<'a> Chunks<'a> {
    fn error(&self, reason: ChunkError) -> DataError {
        DataError::BadChunk {
            file: self.path.to_path_buf(),
            chunk: self.index,
            offset: self.pos as u64,
            reason,
        }
    }

    fn read_header(&self) -> Result<Chunk<'a>, ChunkError> {
        let rest = &self.bytes[self.pos..];
        let Some((header, payload)) = rest.split_first_chunk::<CHUNK_HEADER_SIZE>() else {
            return Err(ChunkError::TruncatedHeader(rest.len() as u64));
        };
        let (magic, size) = header.split_at(4);
        if magic != CHUNK_MAGIC {
            return Err(ChunkError::BadMagic([
                magic[0], magic[1], magic[2], magic[3],
            ]));
        }
        let size = u32::from_le_bytes([size[0], size[1], size[2], size[3]]);
        if size > MAX_CHUNK_SIZE {
            return Err(ChunkError::TooLarge(size));
        }
        let data = payload.get(..size as usize).ok_or(ChunkError::Truncated {
            size: u64::from(size),
            available: payload.len() as u64,
        })?;
        Ok(Chunk {
            index: self.index,
            offset: self.pos as u64,
            data,
        })
    }
}

impl<'a> Iterator for Chunks<'a> {
    type Item = Result<Chunk<'a>, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.bytes.len() {
            return None;
        }
        match self.read_header() {
            Ok(chunk) => {
                self.pos += CHUNK_HEADER_SIZE + chunk.data.len();
                self.index += 1;
                Some(Ok(chunk))
            }
            Err(reason) => {
                let err = self.error(reason);
                self.pos = self.bytes.len();
                Some(Err(err))
            }
        }
    }
}

struct CurrentChunk<'a> {
    chunk: Chunk<'a>,
    decoder: ChunkReader,
    entry: u64,
}

/// Iterator over the validated entries of a [`BinpackReader`].
pub struct Entries<'a> {
    chunks: Chunks<'a>,
    current: Option<CurrentChunk<'a>>,
    policy: RecordPolicy,
    failed: bool,
}

/// One entry: where it is, its `.bin` form and its decoded fields.
pub type BinpackEntry = (BinpackLocation, PackedSfenValue, TrainingRecord);

impl Entries<'_> {
    /// Decodes the next entry of the current chunk, `None` at its end.
    fn next_in_chunk(&mut self) -> Option<Result<BinpackEntry, DataError>> {
        let cur = self.current.as_mut()?;
        if !cur.decoder.has_next(cur.chunk.data) {
            self.current = None;
            return None;
        }
        let location = BinpackLocation {
            chunk: cur.chunk.index,
            offset: cur.chunk.offset,
            entry: cur.entry,
        };
        cur.entry += 1;
        let (decoder, data) = (&mut cur.decoder, cur.chunk.data);
        // The conversion runs contained too: on corrupt chains the crate's
        // position can hold counters that overflow its own accessors.
        let reason = match contain(|| packed_from_entry(&decoder.next(data))) {
            Ok(raw) => match decode_fast(&raw, self.policy) {
                Ok(record) => return Some(Ok((location, raw, record))),
                Err(reason) => ChunkError::BadEntry {
                    entry: location.entry,
                    reason,
                },
            },
            Err(DecoderPanic(detail)) => ChunkError::CorruptMoveText {
                entry: location.entry,
                detail,
            },
        };
        Some(Err(DataError::BadChunk {
            file: self.chunks.path.to_path_buf(),
            chunk: location.chunk,
            offset: location.offset,
            reason,
        }))
    }
}

impl Iterator for Entries<'_> {
    type Item = Result<BinpackEntry, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        loop {
            if let Some(item) = self.next_in_chunk() {
                self.failed = item.is_err();
                return Some(item);
            }
            match self.chunks.next()? {
                Ok(chunk) => {
                    self.current = Some(CurrentChunk {
                        chunk,
                        decoder: ChunkReader::default(),
                        entry: 0,
                    })
                }
                Err(e) => {
                    self.failed = true;
                    return Some(Err(e));
                }
            }
        }
    }
}
