//! Reproducible pseudo-random networks, bit-identical to
//! the reference generator `make_random_halfkp.py` (the script behind the Stockfish 12
//! vectors of `tests/data/`) for HalfKP 256x2-32-32 and extended to any
//! architecture, for tests, benchmarks and `nnue-learn random-net`.
//!
//! Counter-based SplitMix64: element `i` of tensor stream `s` is
//! `lo + splitmix64_finalize(seed·G + s·S + (i+1)·G) mod (hi − lo + 1)` with
//! `G = 0x9E3779B97F4A7C15`, `S = 0xD1B54A32D192ED03`, all arithmetic mod 2^64.
//!
//! Streams and ranges: transformer biases 1 in [−16, 48], transformer weights 2 in
//! [−24, 24]; hidden layer `k` (0-based) has biases on stream `3 + 2k` and weights on
//! `4 + 2k`, in [−2048, 2048] and [−6, 6] for the first hidden layer and [−2048, 4096]
//! and [−24, 24] for later ones; the output layer follows with biases in [−200, 200]
//! and weights in [−20, 20]. Weights are drawn row-major over the unpadded
//! `[outputs][inputs]` matrix (padding columns are zero). For 256x2-32-32 this is
//! exactly the Python script's stream table. An SCReLU net without hidden layers
//! draws its output weights in [−1, 1] instead: its output layer reads squares,
//! up to 127 times the clipped values, and wider weights would put the net
//! beyond the engine's range ([`super::range`]).

use super::activation::Activation;
use super::arch::Architecture;
use super::error::NetworkError;
use super::network::Network;

const G: u64 = 0x9E37_79B9_7F4A_7C15;
const S: u64 = 0xD1B5_4A32_D192_ED03;

/// Range of the output layer's weights.
const OUTPUT_WEIGHTS: (i64, i64) = (-20, 20);
/// Range of the output layer's weights of an SCReLU net without hidden layers.
const SCRELU_OUTPUT_WEIGHTS: (i64, i64) = (-1, 1);

/// The SplitMix64 output function.
#[inline]
pub fn splitmix64_finalize(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `n` values of stream `stream` in `lo..=hi`.
pub fn stream_values(seed: u64, stream: u64, n: usize, lo: i64, hi: i64) -> Vec<i64> {
    let span = (hi - lo + 1) as u64;
    let base = seed.wrapping_mul(G).wrapping_add(stream.wrapping_mul(S));
    (0..n as u64)
        .map(|i| {
            let z = splitmix64_finalize(base.wrapping_add((i + 1).wrapping_mul(G)));
            lo + (z % span) as i64
        })
        .collect()
}

/// A network of architecture `arch` with the documented pseudo-random parameters.
pub fn random_network(arch: &Architecture, seed: u64) -> Result<Network, NetworkError> {
    arch.validate()
        .map_err(|error| NetworkError::Architecture {
            source_name: "<random network>".to_string(),
            error,
        })?;
    let m = arch.half_dims;
    let ft_biases = stream_values(seed, 1, m, -16, 48)
        .into_iter()
        .map(|v| v as i16)
        .collect();
    let ft_weights = stream_values(seed, 2, arch.inputs * m, -24, 24)
        .into_iter()
        .map(|v| v as i16)
        .collect();
    let shapes = arch.affine_layers();
    let last = shapes.len() - 1;
    let output_weights = if last == 0 && arch.activation == Activation::SquaredClippedRelu {
        SCRELU_OUTPUT_WEIGHTS
    } else {
        OUTPUT_WEIGHTS
    };
    let layers = shapes
        .iter()
        .enumerate()
        .map(|(k, &(inputs, outputs))| {
            let ((blo, bhi), (wlo, whi)) = if k == last {
                ((-200, 200), output_weights)
            } else if k == 0 {
                ((-2048, 2048), (-6, 6))
            } else {
                ((-2048, 4096), (-24, 24))
            };
            let stream = 3 + 2 * k as u64;
            let biases = stream_values(seed, stream, outputs, blo, bhi)
                .into_iter()
                .map(|v| v as i32)
                .collect();
            let weights = stream_values(seed, stream + 1, outputs * inputs, wlo, whi)
                .into_iter()
                .map(|v| v as i8)
                .collect();
            (biases, weights)
        })
        .collect();
    Network::from_parameters(arch.clone(), ft_biases, ft_weights, layers)
}
