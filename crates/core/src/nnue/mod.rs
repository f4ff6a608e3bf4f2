//! The quantized NNUE: architecture and hashes ([`arch`]), `.nnue` reading and
//! writing ([`io`]), the network and its forward pass ([`network`]), float ↔ int
//! mapping ([`quant`]), SIMD kernels ([`simd`]), the incremental accumulator stack
//! ([`accumulator`]), reproducible random nets ([`random`]), the transformer's
//! activation ([`activation`]), material output buckets ([`buckets`]), the
//! headerless layout bullet-trained engines embed ([`raw`]) and Stockfish 15.1's
//! HalfKAv2_hm nets with PSQT and layer stacks ([`halfka`]).

pub mod accumulator;
pub mod activation;
pub mod aligned;
pub mod arch;
pub mod buckets;
pub mod error;
pub mod halfka;
pub mod io;
pub mod network;
pub mod quant;
pub mod random;
pub mod range;
pub mod raw;
pub mod sha256;
pub mod simd;

pub use accumulator::AccumulatorStack;
pub use activation::Activation;
pub use arch::{Architecture, ArchitectureError, Hashes};
pub use error::NetworkError;
pub use network::{AffineLayer, Network, Scratch};
pub use quant::{FloatAffine, ParameterKind, QuantizationReport};
pub use random::random_network;
pub use range::{check_range, RangeError, EVAL_LIMIT};
pub use simd::Kernel;

/// Raw network output per internal unit (Stockfish's `FV_SCALE`).
pub const FV_SCALE: i32 = 16;

/// Full refresh and forward pass: the network's value of `pos` in internal units
/// (raw output / 16, truncated toward zero) from the side to move's view.
pub fn evaluate(net: &Network, pos: &shakmaty::Chess) -> i32 {
    use shakmaty::Position;
    net.evaluate_board(Kernel::detect(), pos.board(), pos.turn())
}
