//! The transposition table's memory: an anonymous mapping aligned to 2 MiB and
//! advised as huge-page memory (`madvise(MADV_HUGEPAGE)`, what Stockfish does
//! for its table).
//!
//! Why: every node probes a random bucket, and with 4 KiB pages a 16 MiB table
//! spans 4096 pages, more than a core's TLB holds, so nearly every probe and
//! prefetch also walks the page tables, whose entries the NNUE rows push out of
//! the data caches. With 2 MiB pages the table is a handful of TLB entries. Linux
//! set to `transparent_hugepage=madvise` (a common default) only gives huge pages
//! to memory advised so; elsewhere the advice is ignored and the table works the
//! same with small pages.

use std::io;
use std::marker::PhantomData;

use memmap2::{MmapMut, MmapOptions};

/// Size and alignment of a huge page on x86-64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// `count` zero-initialised values of `T` in their own mapping.
///
/// Only for types whose all-zero bit pattern is a valid value (the table's
/// buckets are atomics) and whose alignment divides the page size.
pub(super) struct ZeroedTable<T> {
    map: MmapMut,
    offset: usize,
    count: usize,
    marker: PhantomData<T>,
}

impl<T> ZeroedTable<T> {
    /// Maps `count` values (a 2 MiB slack keeps the start 2 MiB aligned).
    pub(super) fn new(count: usize) -> io::Result<ZeroedTable<T>> {
        assert!(align_of::<T>() <= HUGE_PAGE, "alignment beyond a huge page");
        let bytes = count
            .checked_mul(size_of::<T>())
            .and_then(|b| b.checked_add(HUGE_PAGE))
            .ok_or_else(|| io::Error::from(io::ErrorKind::OutOfMemory))?;
        let map = MmapOptions::new().len(bytes).map_anon()?;
        let offset = map.as_ptr().align_offset(HUGE_PAGE);
        #[cfg(target_os = "linux")]
        {
            // A hint: a kernel without transparent huge pages refuses it, and the
            // table then simply uses small pages.
            let _ = map.advise_range(memmap2::Advice::HugePage, offset, count * size_of::<T>());
        }
        Ok(ZeroedTable {
            map,
            offset,
            count,
            marker: PhantomData,
        })
    }

    /// The values.
    #[inline]
    pub(super) fn as_slice(&self) -> &[T] {
        // SAFETY: the mapping holds `offset + count * size_of::<T>()` bytes (it
        // was made `HUGE_PAGE` longer than the values and `offset < HUGE_PAGE`),
        // the start is `HUGE_PAGE`-aligned and so aligned for `T`, an anonymous
        // mapping is zero-filled and all-zero is a valid `T` (see the type's
        // contract), and the slice borrows `self`, which owns the mapping; only
        // shared references are ever made, so values are changed only through
        // `T`'s own interior mutability (atomics).
        unsafe {
            std::slice::from_raw_parts(self.map.as_ptr().add(self.offset).cast::<T>(), self.count)
        }
    }
}
