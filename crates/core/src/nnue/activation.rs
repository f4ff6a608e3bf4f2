//! The feature transformer's activation: Stockfish's ClippedReLU, or the
//! squared clipped ReLU (SCReLU) modern trainers use.
//!
//! # Quantization of SCReLU
//! In float, SCReLU is `clamp(x, 0, 1)²`. The accumulator stays int16 at the
//! transformer scale `QA` = [`FT_SCALE`](super::quant::FT_SCALE) = 127, so
//! `c = clamp(a, 0, 127)` is `127·clamp(x, 0, 1)` and `c² = 127²·x²`.
//!
//! - Without hidden layers, the output layer multiplies `c²` by the int8
//!   output weights (scale `QB` = 9600/127) and divides the i32 sum by `QA`:
//!   `raw = bias + (Σ c²·w) / 127` = `9600·(b + Σ x²·w)`, the scale of every
//!   other net's raw output, so `raw / 16` is in internal units as usual. The
//!   division truncates toward zero and is taken once, after both
//!   perspectives' sums are added. Each term is at most `127²·128 < 2²¹`; the
//!   sums wrap in i32 like every kernel's, which is exact because the range
//!   check ([`super::range`]) refuses a net whose reachable `|Σ c²·w|` could
//!   exceed `127·16·EVAL_LIMIT` (about 2²⁶).
//! - With hidden layers, the first layer reads `c² / 127` (truncated), a value
//!   in `0..=127` like a clipped one: `127·x²` at the hidden layers' input
//!   scale, so the rest of the net is unchanged.

use std::fmt;
use std::str::FromStr;

/// The transformer's activation.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Activation {
    /// `clamp(x, 0, 1)`: Stockfish's, and every net's before SCReLU.
    #[default]
    ClippedRelu,
    /// `clamp(x, 0, 1)²`.
    SquaredClippedRelu,
}

/// The transformer's quantized output range, `0..=QA` (127).
pub const QA: i32 = 127;

/// An activation name that is neither `crelu` nor `screlu`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown activation '{0}' (expected crelu or screlu)")]
pub struct UnknownActivation(pub String);

impl Activation {
    /// The short name options and summaries use (`crelu`, `screlu`).
    pub const fn name(self) -> &'static str {
        match self {
            Activation::ClippedRelu => "crelu",
            Activation::SquaredClippedRelu => "screlu",
        }
    }

    /// The transformed value of a clamped accumulator `c` in `0..=QA` as the
    /// first hidden layer reads it (see the module docs).
    #[inline]
    pub const fn transformed(self, c: i32) -> i32 {
        match self {
            Activation::ClippedRelu => c,
            Activation::SquaredClippedRelu => c * c / QA,
        }
    }
}

impl fmt::Display for Activation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Activation {
    type Err = UnknownActivation;

    fn from_str(s: &str) -> Result<Activation, UnknownActivation> {
        match s {
            "crelu" => Ok(Activation::ClippedRelu),
            "screlu" => Ok(Activation::SquaredClippedRelu),
            other => Err(UnknownActivation(other.to_string())),
        }
    }
}
