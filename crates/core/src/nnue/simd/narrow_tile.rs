//! The two pieces the AVX2 and AVX-512 kernels of int8-row updates share, as
//! macros because each expands over its own register type and intrinsics (a
//! generic function cannot name `_mm256_*` and `_mm512_*` alike, and closures
//! would not inline into `#[target_feature]` code).

/// One tile of an int8-row update into the register array `$regs`: the tile of
/// `$src` from `$start` loaded, every removed row subtracted and every added row
/// added (widened to int16 by `$widen`), the result stored to `$dst`. The
/// registers stay filled, so a fused caller can take its dot product from them.
///
/// Expands to unsafe operations: the caller's `unsafe` block must guarantee
/// `$start + $regs.len() * $lanes <= $dst.len() <= $src.len()` and every row
/// index inside `$table` (row `f` is `$table[f * n..(f + 1) * n]`, `n =
/// $dst.len()`).
macro_rules! narrow_tile {
    ($regs:ident = $src:ident + $table:ident[$removed:ident, $added:ident] -> $dst:ident at $start:expr;
     lanes: $lanes:expr, load: $load:ident, widen: $widen:ident, sub: $sub:ident, add: $add:ident,
     store: $store:ident) => {{
        let n = $dst.len();
        for (k, reg) in $regs.iter_mut().enumerate() {
            *reg = $load($src.as_ptr().add($start + k * $lanes).cast());
        }
        for &f in $removed {
            let row = $table.as_ptr().add(f as usize * n + $start);
            for (k, reg) in $regs.iter_mut().enumerate() {
                *reg = $sub(*reg, $widen(row.add(k * $lanes)));
            }
        }
        for &f in $added {
            let row = $table.as_ptr().add(f as usize * n + $start);
            for (k, reg) in $regs.iter_mut().enumerate() {
                *reg = $add(*reg, $widen(row.add(k * $lanes)));
            }
        }
        for (k, reg) in $regs.iter().enumerate() {
            $store($dst.as_mut_ptr().add($start + k * $lanes).cast(), *reg);
        }
    }};
}

/// Calls `$fused(dst, src, table, removed, added, weights)` with the row lists
/// of the usual moves (one row off and one on; a capture, a promotion or
/// castling) as arrays, so each gets a copy compiled for its row counts with
/// the row loops unrolled, and any other move with the slices.
macro_rules! by_row_counts {
    ($fused:expr; $dst:ident, $src:ident, $table:ident, $removed:ident, $added:ident, $weights:ident) => {
        match ($removed, $added) {
            (&[r], &[a]) => $fused($dst, $src, $table, [r], [a], $weights),
            (&[r0, r1], &[a]) => $fused($dst, $src, $table, [r0, r1], [a], $weights),
            (&[r], &[a0, a1]) => $fused($dst, $src, $table, [r], [a0, a1], $weights),
            (&[r0, r1], &[a0, a1]) => $fused($dst, $src, $table, [r0, r1], [a0, a1], $weights),
            _ => $fused($dst, $src, $table, $removed, $added, $weights),
        }
    };
}

pub(super) use {by_row_counts, narrow_tile};
