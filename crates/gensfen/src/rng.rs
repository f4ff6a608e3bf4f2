//! The generator's random numbers: one seeded xoshiro256++ stream per worker, so a
//! run is reproducible from `--seed` (and `--shard`, and the worker's index).

use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Odd constant of SplitMix64, used to spread seed components apart.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: a bijective 64-bit mixer.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of one worker's stream: a mix of the run's seed, the shard index and
/// the worker index, so that streams of different shards and workers are unrelated
/// and each is reproducible on its own.
pub fn worker_seed(seed: u64, shard: u64, worker: u64) -> u64 {
    mix(mix(mix(seed).wrapping_add(shard.wrapping_mul(GOLDEN))).wrapping_add(worker))
}

/// A seed from text: a number is used as is, anything else is hashed (FNV-1a), as
/// Stockfish's `seed` option accepts both.
pub fn parse_seed(text: &str) -> u64 {
    text.parse::<u64>().unwrap_or_else(|_| {
        text.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
        })
    })
}

/// One worker's random stream.
pub struct GenRng(Xoshiro256PlusPlus);

impl GenRng {
    /// The stream for `seed` (see [`worker_seed`]).
    pub fn new(seed: u64) -> GenRng {
        GenRng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    /// The next raw 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (`n > 0`), without modulo bias (Lemire's method).
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            let low = m as u64;
            if low >= n.wrapping_neg() % n {
                return (m >> 64) as u64;
            }
        }
    }

    /// Shuffles `items` (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = GenRng::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800), "{seen:?}");
    }

    #[test]
    fn worker_seeds_differ_by_shard_and_worker() {
        let a = worker_seed(5, 0, 0);
        assert_ne!(a, worker_seed(5, 1, 0));
        assert_ne!(a, worker_seed(5, 0, 1));
        assert_ne!(worker_seed(5, 1, 0), worker_seed(5, 0, 1));
        assert_eq!(a, worker_seed(5, 0, 0));
    }

    #[test]
    fn seeds_from_numbers_and_text() {
        assert_eq!(parse_seed("42"), 42);
        assert_eq!(parse_seed("a"), 0xAF63_DC4C_8601_EC8C);
    }
}
