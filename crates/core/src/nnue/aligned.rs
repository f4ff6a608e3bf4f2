//! 64-byte aligned buffers.
//!
//! A `Vec` from the system allocator is only 16-byte aligned, so every 32- or
//! 64-byte SIMD load of a transformer row or weight row straddles two cache lines,
//! which costs AVX2 and AVX-512 code a large part of its speed. `Aligned` keeps a
//! `Vec` with slack and exposes the 64-byte aligned window inside it.

use std::fmt;

/// Alignment of every SIMD buffer, one cache line.
pub const ALIGN: usize = 64;

/// A fixed-length buffer whose first element is 64-byte aligned.
pub struct Aligned<T: Copy + Default> {
    buf: Vec<T>,
    start: usize,
    len: usize,
}

impl<T: Copy + Default> Aligned<T> {
    /// `len` default values.
    pub fn new(len: usize) -> Aligned<T> {
        let size = size_of::<T>().max(1);
        let slack = ALIGN / size;
        let buf = vec![T::default(); len + slack];
        let misalign = (buf.as_ptr() as usize) % ALIGN;
        let start = if misalign == 0 {
            0
        } else {
            (ALIGN - misalign) / size
        };
        Aligned { buf, start, len }
    }

    /// A copy of `values`, aligned.
    pub fn from_slice(values: &[T]) -> Aligned<T> {
        let mut a = Aligned::new(values.len());
        a.as_mut_slice().copy_from_slice(values);
        a
    }

    /// The values (the alignment padding excluded).
    pub fn as_slice(&self) -> &[T] {
        &self.buf[self.start..self.start + self.len]
    }

    /// The values, mutably (the alignment padding excluded).
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.buf[self.start..self.start + self.len]
    }
}

impl<T: Copy + Default> Clone for Aligned<T> {
    fn clone(&self) -> Self {
        Aligned::from_slice(self.as_slice())
    }
}

impl<T: Copy + Default> std::ops::Deref for Aligned<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy + Default> std::ops::DerefMut for Aligned<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T: Copy + Default + PartialEq> PartialEq for Aligned<T> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Default + Eq> Eq for Aligned<T> {}

impl<T: Copy + Default + fmt::Debug> fmt::Debug for Aligned<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Aligned({} values)", self.len)
    }
}
