//! The kernel of the masked transformer gradient ([`super::masked`]): over one
//! list of entries, the sum of each entry's `dy` in the columns its mask word
//! passes.
//!
//! Term `k` of an entry is `dy` where bit `k` of its word is set and `+0`
//! elsewhere. The entries at even positions of the list are summed into one
//! partial sum and those at odd positions into another, each in list order
//! from `+0`; the column's sum is `even + odd`. Two chains halve the wait on
//! each addition's latency; the order is fixed by the list alone.
//!
//! A partial sum starting at `+0` is never `-0` (`x + y` is `-0` only when both
//! are), so adding a `+0` term leaves it unchanged: the AVX-512 build skips
//! blocked columns with a masked add, the AVX2 build adds a selected `+0`, the
//! plain build skips them, and all three give the same bits.

use crate::model::kernels::Simd;
use crate::model::single::WORD_BITS;

/// One entry's term: where its mask word is and `dy`.
#[derive(Copy, Clone, Debug)]
pub(super) struct Term {
    /// Index of the word in the batch's words.
    pub(super) at: usize,
    pub(super) dy: f32,
}

/// `out[k] = even[k] + odd[k]` over the first `out.len()` columns (at most
/// [`WORD_BITS`]) for the terms of `entries` (see the module documentation),
/// their mask words in `words`.
#[inline(always)]
pub(super) fn sum_terms(
    words: &[u64],
    entries: &[u32],
    term: impl Fn(u32) -> Term,
    out: &mut [f32],
) {
    sum_terms_n(words, entries, term, 0, [out]);
}

/// [`sum_terms`] of `N` column words at once: word `j` of an entry is
/// `stride * j` after its first (`term`'s), its sums go to `out[j]`. Each
/// entry's index and `dy` are then found once for all `N` words.
#[inline(always)]
pub(super) fn sum_terms_n<const N: usize>(
    words: &[u64],
    entries: &[u32],
    term: impl Fn(u32) -> Term,
    stride: usize,
    out: [&mut [f32]; N],
) {
    let full = out.iter().all(|o| o.len() == WORD_BITS);
    match Simd::detect() {
        // SAFETY: the CPU supports the instructions (checked at run time).
        #[cfg(target_arch = "x86_64")]
        Simd::Avx512 if full => unsafe { avx512::sum(words, entries, term, stride, out) },
        _ => {
            for (j, out) in out.into_iter().enumerate() {
                let term = |e| {
                    let t = term(e);
                    Term {
                        at: t.at + j * stride,
                        dy: t.dy,
                    }
                };
                sum_word(words, entries, term, out);
            }
        }
    }
}

/// One column word with the widest build the CPU has below AVX-512.
#[inline(always)]
fn sum_word(words: &[u64], entries: &[u32], term: impl Fn(u32) -> Term, out: &mut [f32]) {
    match Simd::detect() {
        // SAFETY: the CPU supports the instructions (checked at run time).
        #[cfg(target_arch = "x86_64")]
        Simd::Avx2 | Simd::Avx512 if out.len() == WORD_BITS => unsafe {
            avx2::sum(words, entries, term, out)
        },
        _ => sum_plain(words, entries, term, out),
    }
}

/// Adds each entry's term to the chain of its position in the list, `even` or
/// `odd`, in list order (the module documentation): the one order every build
/// keeps. Inlined, so each SIMD build's `add` stays in its registers.
#[inline(always)]
fn two_chains<S>(
    entries: &[u32],
    term: impl Fn(u32) -> Term,
    even: &mut S,
    odd: &mut S,
    mut add: impl FnMut(&mut S, Term),
) {
    let mut pairs = entries.chunks_exact(2);
    for pair in &mut pairs {
        add(even, term(pair[0]));
        add(odd, term(pair[1]));
    }
    if let [last] = pairs.remainder() {
        add(even, term(*last));
    }
}

/// The reference: column by column, blocked terms skipped.
fn sum_plain(words: &[u64], entries: &[u32], term: impl Fn(u32) -> Term, out: &mut [f32]) {
    let mut even = [0.0f32; WORD_BITS];
    let mut odd = [0.0f32; WORD_BITS];
    for (n, &e) in entries.iter().enumerate() {
        let Term { at, dy } = term(e);
        let word = words[at];
        let sums = if n % 2 == 0 { &mut even } else { &mut odd };
        for (k, s) in sums.iter_mut().enumerate().take(out.len()) {
            if word >> k & 1 == 1 {
                *s += dy;
            }
        }
    }
    for (k, o) in out.iter_mut().enumerate() {
        *o = even[k] + odd[k];
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::{Term, WORD_BITS};

    /// 16-column registers of a word.
    const REGS: usize = WORD_BITS / 16;

    /// [`super::sum_plain`] for `N` full words: four registers per word and
    /// chain, each term one masked add.
    #[target_feature(enable = "avx512f")]
    pub(super) fn sum<const N: usize>(
        words: &[u64],
        entries: &[u32],
        term: impl Fn(u32) -> Term,
        stride: usize,
        out: [&mut [f32]; N],
    ) {
        let mut even = [[_mm512_setzero_ps(); REGS]; N];
        let mut odd = [[_mm512_setzero_ps(); REGS]; N];
        let add = |sums: &mut [[__m512; REGS]; N], t: Term| {
            let dy = _mm512_set1_ps(t.dy);
            for (j, sums) in sums.iter_mut().enumerate() {
                // Each register's 16 bits loaded straight into a mask register.
                let quarters: *const u16 = (&words[t.at + j * stride] as *const u64).cast();
                for (q, s) in sums.iter_mut().enumerate() {
                    // SAFETY: quarter `q < 4` of a live u64 (x86 is little-endian).
                    let bits = unsafe { quarters.add(q).read_unaligned() };
                    *s = _mm512_mask_add_ps(*s, bits, *s, dy);
                }
            }
        };
        super::two_chains(entries, &term, &mut even, &mut odd, add);
        for (j, out) in out.into_iter().enumerate() {
            for (q, chunk) in out.chunks_exact_mut(16).enumerate() {
                let sum = _mm512_add_ps(even[j][q], odd[j][q]);
                // SAFETY: `chunk` is 16 floats.
                unsafe { _mm512_storeu_ps(chunk.as_mut_ptr(), sum) };
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::Term;

    /// Columns per pass over the entries: four 8-float registers per chain, so
    /// both chains, `dy` and the shift counts fit the 16 registers.
    const PASS_COLUMNS: usize = 32;

    /// [`super::sum_plain`] for a full word, [`PASS_COLUMNS`] columns per pass:
    /// bit `k` is shifted into the sign bit of lane `k`, which selects `dy` or
    /// `+0`.
    #[target_feature(enable = "avx2")]
    pub(super) fn sum(words: &[u64], entries: &[u32], term: impl Fn(u32) -> Term, out: &mut [f32]) {
        // Lane `l` of register `q` tests bit `8q + l` of the pass's 32 bits.
        let shifts: [__m256i; 4] = std::array::from_fn(|q| {
            let top = 31 - 8 * q as i32;
            _mm256_setr_epi32(
                top,
                top - 1,
                top - 2,
                top - 3,
                top - 4,
                top - 5,
                top - 6,
                top - 7,
            )
        });
        for (pass, out) in out.chunks_exact_mut(PASS_COLUMNS).enumerate() {
            let mut even = [_mm256_setzero_ps(); 4];
            let mut odd = [_mm256_setzero_ps(); 4];
            let add = |sums: &mut [__m256; 4], t: Term| {
                let halves: *const i32 = (&words[t.at] as *const u64).cast();
                // SAFETY: half `pass < 2` of a live u64 (x86 is little-endian).
                let bits = _mm256_set1_epi32(unsafe { halves.add(pass).read_unaligned() });
                let dy = _mm256_set1_ps(t.dy);
                for (q, s) in sums.iter_mut().enumerate() {
                    let select = _mm256_castsi256_ps(_mm256_sllv_epi32(bits, shifts[q]));
                    *s = _mm256_add_ps(*s, _mm256_blendv_ps(_mm256_setzero_ps(), dy, select));
                }
            };
            super::two_chains(entries, &term, &mut even, &mut odd, add);
            for (q, chunk) in out.chunks_exact_mut(8).enumerate() {
                // SAFETY: `chunk` is 8 floats.
                unsafe { _mm256_storeu_ps(chunk.as_mut_ptr(), _mm256_add_ps(even[q], odd[q])) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mask words and `dy`s whose sums depend on the order of their additions.
    fn terms(n: usize) -> (Vec<u64>, Vec<f32>) {
        (0..n)
            .map(|i| {
                let x = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                (x ^ (x >> 29), ((x >> 40) % 20_000) as f32 / 7_919.0 - 1.26)
            })
            .unzip()
    }

    #[test]
    fn every_build_sums_like_the_plain_one() {
        let (words, dys) = terms(41);
        for n in [0, 1, 2, 5, 40, 41] {
            let entries: Vec<u32> = (0..n as u32).rev().collect();
            let term = |e: u32| Term {
                at: e as usize,
                dy: dys[e as usize],
            };
            let mut plain = [0.0f32; WORD_BITS];
            sum_plain(&words, &entries, term, &mut plain);
            let mut widest = [0.0f32; WORD_BITS];
            sum_terms(&words, &entries, term, &mut widest);
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&plain), bits(&widest), "{n} entries");
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                let mut avx2 = [0.0f32; WORD_BITS];
                // SAFETY: checked just above.
                unsafe { avx2::sum(&words, &entries, term, &mut avx2) };
                assert_eq!(bits(&plain), bits(&avx2), "{n} entries, AVX2");
            }
            // Column 3 by hand: even positions, odd positions, then their sum.
            let pick = |parity: usize| {
                let mut s = 0.0f32;
                for (_, &e) in entries.iter().enumerate().filter(|(k, _)| k % 2 == parity) {
                    if words[e as usize] >> 3 & 1 == 1 {
                        s += dys[e as usize];
                    }
                }
                s
            };
            assert_eq!(plain[3].to_bits(), (pick(0) + pick(1)).to_bits());
        }
    }

    #[test]
    fn words_summed_together_equal_words_summed_alone() {
        let (words, dys) = terms(64);
        let entries: Vec<u32> = (0..31).map(|k| 2 * k).collect();
        let term = |e: u32| Term {
            at: e as usize,
            dy: dys[e as usize],
        };
        let (mut a, mut b) = ([0.0f32; WORD_BITS], [0.0f32; WORD_BITS]);
        sum_terms_n(&words, &entries, term, 1, [&mut a, &mut b]);
        let mut second = [0.0f32; WORD_BITS];
        let next = |e: u32| Term {
            at: e as usize + 1,
            dy: dys[e as usize],
        };
        sum_terms(&words, &entries, next, &mut second);
        let mut first = [0.0f32; WORD_BITS];
        sum_terms(&words, &entries, term, &mut first);
        assert_eq!(a, first);
        assert_eq!(b, second);
    }

    #[test]
    fn narrow_sums_take_the_low_columns() {
        let (words, dys) = terms(9);
        let entries: Vec<u32> = (0..9).collect();
        let term = |e: u32| Term {
            at: e as usize,
            dy: dys[e as usize],
        };
        let mut full = [0.0f32; WORD_BITS];
        sum_plain(&words, &entries, term, &mut full);
        let mut narrow = [0.0f32; 24];
        sum_terms(&words, &entries, term, &mut narrow);
        assert_eq!(narrow[..], full[..24]);
    }
}
