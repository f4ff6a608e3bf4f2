//! The float HalfKAv2_hm model: a transformer of `width` outputs per perspective
//! with 8 PSQT outputs beside them, and eight [`FloatStack`]s, one per piece-count
//! bucket. Forward, as nnue-pytorch's model for this architecture and as 15.1
//! computes it in integers:
//!
//! ```text
//! acc_p   = b + Σ W[rows_p]             psqt_p = Σ P[rows_p][stack]
//! x       = per side, us first: clamp(acc[j]) · clamp(acc[j + w/2]) · 127/128
//! output  = stack(x) + (psqt_us - psqt_them) / 2           output units
//! value   = 600 · output                                   internal units
//! ```
//!
//! Only the position's stack and PSQT bucket are trained by it.

use nnue_core::features::halfka_v2_hm::{BUCKET_STRIDE, HALFKA_SIZE};
use nnue_core::nnue::halfka::shape::STACKS;

use super::features::HalfKaRows;
use super::stack::{FloatStack, StackTrace};
use crate::model::init::uniform_vec;
use crate::model::kernels::sum_rows;

/// Internal units per unit of float output (15.1's `600 · OutputScale / 16`).
pub const OUTPUT_TO_INTERNAL: f32 = 600.0;
/// The transformer's product is `a · b / 128` of values in units of 127.
const PRODUCT_FACTOR: f32 = 127.0 / 128.0;
/// Initial transformer bias: halfway into the clipped range.
const FT_BIAS_INIT: f32 = 0.5;
/// Most real features per perspective (both kings included).
const MAX_ACTIVE: f32 = 32.0;
/// The plane of both kings (no PSQT value).
const KING_PLANE: usize = 10;
/// Stockfish 15.1's middlegame piece values (pawn to queen), internal units:
/// the PSQT weights start as material, as nnue-pytorch starts them.
const PIECE_VALUES: [f32; 5] = [126.0, 781.0, 825.0, 1276.0, 2538.0];

/// The float parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct HalfKaModel {
    /// Transformer outputs per perspective.
    pub width: usize,
    /// Which rows exist (real, and virtual with the factoriser).
    pub rows: HalfKaRows,
    /// `rows × width`, row-major by feature.
    pub ft_w: Vec<f32>,
    /// `width` biases.
    pub ft_b: Vec<f32>,
    /// `rows × STACKS` PSQT weights, output units.
    pub psqt: Vec<f32>,
    /// One per piece-count bucket.
    pub stacks: Vec<FloatStack>,
}

/// One sample's forward values, kept for the backward pass.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// `[acc_us, acc_them]`, `2 · width` values.
    pub acc: Vec<f32>,
    /// The transformed input of the stack, `width` values.
    pub x: Vec<f32>,
    pub stack: StackTrace,
}

/// The PSQT value of real feature `feature` (its plane's piece, positive for
/// the perspective's own pieces), output units; kings and virtual rows 0.
fn initial_psqt(feature: usize) -> f32 {
    let plane = feature % BUCKET_STRIDE / 64;
    if feature >= HALFKA_SIZE || plane >= KING_PLANE {
        return 0.0;
    }
    let sign = if plane.is_multiple_of(2) { 1.0 } else { -1.0 };
    sign * PIECE_VALUES[plane / 2] / OUTPUT_TO_INTERNAL
}

impl HalfKaModel {
    /// A model of `width` transformer outputs from `seed`; virtual rows start at 0.
    pub fn new(width: usize, factorize: bool, seed: u64) -> HalfKaModel {
        let rows = HalfKaRows { factorize };
        let real = HalfKaRows { factorize: false }.rows();
        let scale = 0.5 / MAX_ACTIVE.sqrt();
        let mut ft_w = uniform_vec(seed, 0, real * width, scale);
        ft_w.resize(rows.rows() * width, 0.0);
        let psqt = (0..rows.rows() * STACKS)
            .map(|i| initial_psqt(i / STACKS))
            .collect();
        let stack = FloatStack::new(seed, width);
        HalfKaModel {
            width,
            rows,
            ft_w,
            ft_b: vec![FT_BIAS_INIT; width],
            psqt,
            stacks: vec![stack; STACKS],
        }
    }

    /// Buffers for one sample.
    pub fn trace(&self) -> Trace {
        Trace {
            acc: vec![0.0; 2 * self.width],
            x: vec![0.0; self.width],
            stack: StackTrace::default(),
        }
    }

    /// The PSQT sum of `rows` for bucket `stack`.
    fn psqt_sum(&self, rows: &[u32], stack: usize) -> f32 {
        rows.iter()
            .map(|&r| self.psqt[r as usize * STACKS + stack])
            .sum()
    }

    /// The value (internal units) of a position with rows `us` (side to move) and
    /// `them`, in bucket `stack`.
    pub fn forward(&self, us: &[u32], them: &[u32], stack: usize, t: &mut Trace) -> f32 {
        let (w, half) = (self.width, self.width / 2);
        let (acc_us, acc_them) = t.acc.split_at_mut(w);
        sum_rows(&self.ft_b, &self.ft_w, us, acc_us);
        sum_rows(&self.ft_b, &self.ft_w, them, acc_them);
        for (side, acc) in [&*acc_us, &*acc_them].into_iter().enumerate() {
            for j in 0..half {
                let (a, b) = (acc[j].clamp(0.0, 1.0), acc[j + half].clamp(0.0, 1.0));
                t.x[side * half + j] = a * b * PRODUCT_FACTOR;
            }
        }
        let positional = self.stacks[stack].forward(&t.x, &mut t.stack);
        let psqt = (self.psqt_sum(us, stack) - self.psqt_sum(them, stack)) / 2.0;
        OUTPUT_TO_INTERNAL * (positional + psqt)
    }
}
