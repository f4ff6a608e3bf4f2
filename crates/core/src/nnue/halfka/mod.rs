//! Stockfish 15.1's network, bit for bit: HalfKAv2_hm features ([`crate::features::halfka_v2_hm`]),
//! a 1024-wide transformer with PSQT accumulators ([`transformer`]), eight layer
//! stacks chosen by piece count ([`stack`]), 15.1's `.nnue` layout ([`file`]),
//! the whole evaluation ([`network`]) and an incremental accumulator stack whose
//! king-move refreshes start from a per-king-square cache ([`accumulator`],
//! [`finny`]), reproducible random nets ([`random`]). [`shape`] holds the sizes and hashes; the width is a parameter so
//! that a trainer can build narrower nets of the same layout.

pub mod accumulator;
pub mod file;
pub mod finny;
pub mod network;
pub mod random;
pub mod shape;
pub mod stack;
pub mod transformer;

pub use accumulator::HalfKaStack;
pub use file::has_sf15_version;
pub use network::{HalfKaNetwork, RawEval};
pub use random::random_halfka_network;
pub use shape::Shape;
