//! Little-endian encoding of checkpoint fields, with reads that report what was
//! missing instead of panicking on a short or damaged file.

/// Why a checkpoint could not be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    #[error("not an nnue-learn checkpoint (bad magic bytes)")]
    BadMagic,
    #[error("checkpoint version {found}, this build reads {supported}")]
    Version { found: u32, supported: u32 },
    #[error("truncated: {what} needs {needed} bytes at offset {offset} of {len}")]
    Truncated {
        what: String,
        needed: usize,
        offset: usize,
        len: usize,
    },
    #[error("{what}: {count} values of {unit} bytes do not fit in the {left} bytes left at offset {offset}")]
    TooLong {
        what: String,
        count: u64,
        unit: usize,
        left: u64,
        offset: usize,
    },
    #[error("{0} is not UTF-8")]
    NotUtf8(String),
    #[error("{what}: {found} values, the model needs {needed}")]
    Shape {
        what: String,
        found: usize,
        needed: usize,
    },
    #[error("{what}: {found} values, expected {expected}")]
    Count {
        what: &'static str,
        found: usize,
        expected: usize,
    },
    /// A count of the loop (positions, steps, draws) no run reaches: the loop
    /// adds to it, so a damaged one would overflow.
    #[error("{what} {found} is beyond any run (at most {max})")]
    Counter { what: String, found: u64, max: u64 },
    #[error("trailing bytes after the checkpoint")]
    Trailing,
    /// The saved data stream does not fit this run's data.
    #[error(transparent)]
    Stream(#[from] crate::data::stream::StreamMismatch),
}

/// The largest position, step or draw count a checkpoint may hold: 2^56, some
/// 200 years of a billion positions a second, and far enough from 2^64 that
/// the loop's additions cannot overflow.
pub const MAX_COUNTER: u64 = 1 << 56;

/// Appends fields to a byte buffer.
#[derive(Default)]
pub struct Writer {
    pub bytes: Vec<u8>,
}

impl Writer {
    pub fn u8(&mut self, v: u8) {
        self.bytes.push(v);
    }
    pub fn u32(&mut self, v: u32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    pub fn u64(&mut self, v: u64) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    pub fn f64(&mut self, v: f64) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    pub fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.bytes.extend_from_slice(s.as_bytes());
    }
    pub fn f32s(&mut self, v: &[f32]) {
        self.u64(v.len() as u64);
        self.bytes.reserve(4 * v.len());
        for x in v {
            self.bytes.extend_from_slice(&x.to_le_bytes());
        }
    }
    pub fn u64s(&mut self, v: &[u64]) {
        self.u64(v.len() as u64);
        for &x in v {
            self.u64(x);
        }
    }
    pub fn f64s(&mut self, v: &[f64]) {
        self.u64(v.len() as u64);
        for &x in v {
            self.f64(x);
        }
    }
}

/// Reads fields back; every failure says which field and where.
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, pos: 0 }
    }

    /// A reader after a file's `magic` bytes and its `u32` version, both checked: every
    /// checkpoint kind starts this way, with its own magic and version.
    pub fn after_header(
        bytes: &'a [u8],
        magic: &[u8],
        version: u32,
    ) -> Result<Reader<'a>, CodecError> {
        if bytes.len() < magic.len() || &bytes[..magic.len()] != magic {
            return Err(CodecError::BadMagic);
        }
        let mut r = Reader::new(&bytes[magic.len()..]);
        let found = r.u32("version")?;
        if found != version {
            return Err(CodecError::Version {
                found,
                supported: version,
            });
        }
        Ok(r)
    }

    pub fn at_end(&self) -> bool {
        self.pos == self.bytes.len()
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], CodecError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| CodecError::Truncated {
                what: what.to_string(),
                needed: n,
                offset: self.pos,
                len: self.bytes.len(),
            })?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], CodecError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N, what)?);
        Ok(a)
    }

    pub fn u8(&mut self, what: &str) -> Result<u8, CodecError> {
        Ok(self.take(1, what)?[0])
    }
    pub fn u32(&mut self, what: &str) -> Result<u32, CodecError> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }
    pub fn u64(&mut self, what: &str) -> Result<u64, CodecError> {
        Ok(u64::from_le_bytes(self.array(what)?))
    }
    pub fn f64(&mut self, what: &str) -> Result<f64, CodecError> {
        Ok(f64::from_le_bytes(self.array(what)?))
    }

    /// A count the training loop adds to: refused from [`MAX_COUNTER`] on.
    pub fn counter(&mut self, what: &str) -> Result<u64, CodecError> {
        let found = self.u64(what)?;
        if found > MAX_COUNTER {
            return Err(CodecError::Counter {
                what: what.to_string(),
                found,
                max: MAX_COUNTER,
            });
        }
        Ok(found)
    }

    /// A count of items of at least `unit` bytes each, which must fit in the
    /// rest of the file: a damaged count is refused here, not after reading
    /// what follows as items.
    pub fn count(&mut self, unit: usize, what: &str) -> Result<usize, CodecError> {
        let n = self.u64(what)?;
        let left = (self.bytes.len() - self.pos) as u64;
        if n.saturating_mul(unit as u64) > left {
            return Err(CodecError::TooLong {
                what: what.to_string(),
                count: n,
                unit,
                left,
                offset: self.pos,
            });
        }
        Ok(n as usize)
    }

    pub fn str(&mut self, what: &str) -> Result<String, CodecError> {
        let n = self.count(1, what)?;
        let b = self.take(n, what)?;
        String::from_utf8(b.to_vec()).map_err(|_| CodecError::NotUtf8(what.to_string()))
    }
    pub fn f32s(&mut self, what: &str) -> Result<Vec<f32>, CodecError> {
        let n = self.count(4, what)?;
        let b = self.take(4 * n, what)?;
        Ok(b.chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
    pub fn u64s(&mut self, what: &str) -> Result<Vec<u64>, CodecError> {
        let n = self.count(8, what)?;
        (0..n).map(|_| self.u64(what)).collect()
    }
    pub fn f64s(&mut self, what: &str) -> Result<Vec<f64>, CodecError> {
        let n = self.count(8, what)?;
        (0..n).map(|_| self.f64(what)).collect()
    }

    /// `f32`s that must number exactly `n` (a tensor of a known shape).
    pub fn tensor(&mut self, n: usize, what: &str) -> Result<Vec<f32>, CodecError> {
        let v = self.f32s(what)?;
        if v.len() != n {
            return Err(CodecError::Shape {
                what: what.to_string(),
                found: v.len(),
                needed: n,
            });
        }
        Ok(v)
    }
}
