//! Bit cursor over the 256-bit PackedSfen stream.
//!
//! Stockfish's packer writes every field least-significant bit first, bit `k`
//! of the stream living in byte `k / 8` at bit `k % 8`. Reading the 32 bytes
//! as four little-endian `u64` words therefore gives one contiguous 256-bit
//! integer whose bit `k` is stream bit `k`, so the reader can pull any field
//! (or a window of up to 57 bits) with two shifts instead of a per-bit loop.

/// Number of bits in a PackedSfen.
pub const STREAM_BITS: u32 = 256;

/// Writes fields into a zeroed 32-byte buffer, LSB first.
pub(crate) struct BitWriter {
    words: [u64; 4],
    cursor: u32,
}

impl BitWriter {
    pub(crate) fn new() -> Self {
        BitWriter {
            words: [0; 4],
            cursor: 0,
        }
    }

    /// Appends the low `width` bits of `value` (width <= 32). Values wider
    /// than `width` are truncated, exactly like Stockfish's `write_n_bit`.
    /// Bits that would land past bit 255 are dropped; the encoder never gets
    /// there because the worst-case position needs about 229 bits.
    pub(crate) fn write(&mut self, value: u32, width: u32) {
        let value = u64::from(value) & ((1u64 << width) - 1);
        let word = (self.cursor >> 6) as usize;
        let shift = self.cursor & 63;
        if let Some(w) = self.words.get_mut(word) {
            *w |= value << shift;
        }
        if shift + width > 64 {
            if let Some(w) = self.words.get_mut(word + 1) {
                *w |= value >> (64 - shift);
            }
        }
        self.cursor += width;
    }

    /// Number of bits written so far.
    pub(crate) fn cursor(&self) -> u32 {
        self.cursor
    }

    /// Moves the cursor; bits passed over keep their value (0 unless
    /// written), which is how runs of empty squares are "written".
    pub(crate) fn set_cursor(&mut self, cursor: u32) {
        self.cursor = cursor;
    }

    pub(crate) fn into_bytes(self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (chunk, word) in out.chunks_exact_mut(8).zip(self.words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        out
    }
}

/// Reads fields from a 32-byte buffer, LSB first.
///
/// A fifth zero word lets `window` read past the last real word without a
/// branch; callers check the cursor against [`STREAM_BITS`] before trusting
/// what they read.
pub(crate) struct BitReader {
    words: [u64; 5],
    cursor: u32,
}

impl BitReader {
    #[inline]
    pub(crate) fn new(bytes: &[u8; 32]) -> Self {
        let mut words = [0u64; 5];
        for (word, chunk) in words.iter_mut().zip(bytes.chunks_exact(8)) {
            let mut b = [0u8; 8];
            b.copy_from_slice(chunk);
            *word = u64::from_le_bytes(b);
        }
        BitReader { words, cursor: 0 }
    }

    /// The next 64 stream bits starting at the cursor, without moving it.
    /// Exact while `cursor < 256` (bits past 255 read as 0 up to the end of
    /// the window); past that the value is meaningless but harmless, since
    /// any record whose fields reach bit 256 is rejected as overflowing.
    #[inline]
    pub(crate) fn window(&self) -> u64 {
        let word = ((self.cursor >> 6) & 3) as usize;
        let pair = u128::from(self.words[word]) | (u128::from(self.words[word + 1]) << 64);
        (pair >> (self.cursor & 63)) as u64
    }

    /// Reads `width` bits (width <= 32) and advances the cursor.
    #[inline]
    pub(crate) fn read(&mut self, width: u32) -> u32 {
        let v = (self.window() & ((1u64 << width) - 1)) as u32;
        self.cursor += width;
        v
    }

    #[inline]
    pub(crate) fn skip(&mut self, width: u32) {
        self.cursor += width;
    }

    #[inline]
    pub(crate) fn cursor(&self) -> u32 {
        self.cursor
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip_across_word_boundaries() {
        let mut w = BitWriter::new();
        let fields: Vec<(u32, u32)> = (0..36u32)
            .map(|i| (i.wrapping_mul(2654435761) >> 7, 1 + i % 11))
            .collect();
        assert!(fields.iter().map(|f| f.1).sum::<u32>() <= STREAM_BITS);
        for &(v, n) in &fields {
            w.write(v, n);
        }
        assert_eq!(w.cursor(), fields.iter().map(|f| f.1).sum::<u32>());
        let bytes = w.into_bytes();
        let mut r = BitReader::new(&bytes);
        for &(v, n) in &fields {
            assert_eq!(r.read(n), v & ((1 << n) - 1));
        }
    }

    #[test]
    fn first_bit_is_lsb_of_first_byte() {
        let mut w = BitWriter::new();
        w.write(1, 1);
        w.write(0b10, 2);
        assert_eq!(w.into_bytes()[0], 0b101);
    }
}
