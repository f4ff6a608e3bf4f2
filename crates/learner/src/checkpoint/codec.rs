//! Little-endian encoding of checkpoint fields, with reads that report what was
//! missing instead of panicking on a short or damaged file.

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

    pub fn at_end(&self) -> bool {
        self.pos == self.bytes.len()
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| {
                format!(
                    "truncated: {what} needs {n} bytes at offset {} of {}",
                    self.pos,
                    self.bytes.len()
                )
            })?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], String> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N, what)?);
        Ok(a)
    }

    pub fn u8(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.take(1, what)?[0])
    }
    pub fn u32(&mut self, what: &str) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }
    pub fn u64(&mut self, what: &str) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.array(what)?))
    }
    pub fn f64(&mut self, what: &str) -> Result<f64, String> {
        Ok(f64::from_le_bytes(self.array(what)?))
    }

    /// A length that must fit in the rest of the file at `unit` bytes each.
    fn len(&mut self, unit: usize, what: &str) -> Result<usize, String> {
        let n = self.u64(what)?;
        let left = (self.bytes.len() - self.pos) as u64;
        if n.saturating_mul(unit as u64) > left {
            return Err(format!(
                "{what}: {n} values of {unit} bytes do not fit in the {left} bytes left at offset {}",
                self.pos
            ));
        }
        Ok(n as usize)
    }

    pub fn str(&mut self, what: &str) -> Result<String, String> {
        let n = self.len(1, what)?;
        let b = self.take(n, what)?;
        String::from_utf8(b.to_vec()).map_err(|_| format!("{what} is not UTF-8"))
    }
    pub fn f32s(&mut self, what: &str) -> Result<Vec<f32>, String> {
        let n = self.len(4, what)?;
        let b = self.take(4 * n, what)?;
        Ok(b.chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
    pub fn u64s(&mut self, what: &str) -> Result<Vec<u64>, String> {
        let n = self.len(8, what)?;
        (0..n).map(|_| self.u64(what)).collect()
    }
    pub fn f64s(&mut self, what: &str) -> Result<Vec<f64>, String> {
        let n = self.len(8, what)?;
        (0..n).map(|_| self.f64(what)).collect()
    }

    /// `f32`s that must number exactly `n` (a tensor of a known shape).
    pub fn tensor(&mut self, n: usize, what: &str) -> Result<Vec<f32>, String> {
        let v = self.f32s(what)?;
        if v.len() != n {
            return Err(format!("{what}: {} values, the model needs {n}", v.len()));
        }
        Ok(v)
    }
}
