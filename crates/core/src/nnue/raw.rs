//! The raw layout: a net's quantized parameters with no header, in the order
//! and types bullet's `SavedFormat` writes them for a `768 -> Nx2 -> B` net,
//! so an engine written for bullet's nets can `include_bytes!` ours.
//!
//! | part | type | count | order |
//! |---|---|---|---|
//! | feature weights | i16 | `768·K·N` | feature-major: the N weights of feature 0, then of feature 1, … (bullet's column-major `l0w`) |
//! | feature biases | i16 | `N` | |
//! | output weights | i16 | `B·2N` | bucket-major: per bucket the N side-to-move weights, then the N others (bullet's transposed `l1w`) |
//! | output biases | i16 | `B` | |
//! | padding | bytes | to a multiple of 64 | `bullet` repeated, as bullet pads |
//!
//! Feature `768·k + 384·c + 64·p + s` is the piece of kind `p` (pawn 0 … king 5)
//! of colour `c` (0 the perspective's own, 1 the other) on square `s` of the
//! perspective's board (a1 = 0; Black's view flipped `s ^ 56`; with king
//! buckets, mirrored `s ^ 7` when the own king stands on files e–h), in king
//! bucket `k` (bullet's `Chess768` and `ChessBucketsMirrored`). The toolkit's
//! own feature order is `64·(2p + c) + s` ([`crate::features`]), so rows are
//! permuted on the way out and no value changes.
//!
//! The values are the `.nnue` file's integers unchanged (transformer scale
//! `QA` = 127, output weights scale 9600/127 widened from i8, output bias
//! scale 9600 = `QA·QB` narrowed from i32 where it fits), so a raw net
//! evaluates exactly as the engine evaluates the `.nnue` it came from
//! (docs/FORMATS.md gives the formula).

use super::activation::Activation;
use super::arch::Architecture;
use super::network::Network;

/// Inputs of one king bucket: 12 piece planes of 64 squares.
pub const PLANES_INPUTS: usize = 768;
/// Squares per piece plane.
const SQUARES: usize = 64;
/// Piece kinds (pawn … king).
const KINDS: usize = 6;
/// The raw file's length is padded to a multiple of this many bytes (bullet's
/// 64-byte-aligned network struct).
pub const RAW_ALIGN: usize = 64;
/// The padding bytes, repeated (what bullet writes).
pub const RAW_PADDING: &[u8] = b"bullet";

/// Why a net has no raw layout.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RawLayoutError {
    /// The feature set is not 768 piece-square inputs (per king bucket).
    #[error(
        "feature set {0} has no raw layout (it holds All, KAm4 and KAm8 nets: 768 piece-square inputs per king bucket)"
    )]
    FeatureSet(String),
    /// The net has hidden layers between the transformer and the output.
    #[error("{0} hidden layer(s): the raw layout holds 768->Nx2->1 nets without hidden layers")]
    HiddenLayers(usize),
    /// An output bias does not fit the raw layout's i16.
    #[error(
        "output bias {value} of bucket {bucket} does not fit i16 (the raw layout stores it as i16 at scale 9600, so |bias| must stay below 3.41)"
    )]
    OutputBias { bucket: usize, value: i32 },
}

/// What an engine needs to read a raw file: its sizes and activation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RawShape {
    /// King buckets `K` (1 for All).
    pub king_buckets: usize,
    /// Transformer outputs per perspective `N`.
    pub half_dims: usize,
    /// Output buckets `B`.
    pub output_buckets: usize,
    /// CReLU or SCReLU.
    pub activation: Activation,
}

impl RawShape {
    /// The unpadded byte count of the four parts.
    pub fn payload_len(&self) -> usize {
        let i16s = PLANES_INPUTS * self.king_buckets * self.half_dims
            + self.half_dims
            + self.output_buckets * 2 * self.half_dims
            + self.output_buckets;
        2 * i16s
    }

    /// The file's length: the payload padded to [`RAW_ALIGN`].
    pub fn file_len(&self) -> usize {
        self.payload_len().next_multiple_of(RAW_ALIGN)
    }
}

/// The king buckets of a feature set with a raw layout, or why it has none.
fn king_buckets(feature_set: &str) -> Result<usize, RawLayoutError> {
    match feature_set {
        "All" => Ok(1),
        "KAm4" => Ok(4),
        "KAm8" => Ok(8),
        other => Err(RawLayoutError::FeatureSet(other.to_string())),
    }
}

/// The raw shape of `net`, or why it has none.
pub fn raw_shape(net: &Network) -> Result<RawShape, RawLayoutError> {
    raw_shape_of(net.architecture())
}

/// The raw shape of a net of architecture `arch`, or why it has none (what
/// a trainer checks before it starts).
pub fn raw_shape_of(arch: &Architecture) -> Result<RawShape, RawLayoutError> {
    let king_buckets = king_buckets(&arch.feature_set)?;
    if !arch.hidden.is_empty() {
        return Err(RawLayoutError::HiddenLayers(arch.hidden.len()));
    }
    Ok(RawShape {
        king_buckets,
        half_dims: arch.half_dims,
        output_buckets: arch.output_buckets,
        activation: arch.activation,
    })
}

/// The toolkit's feature index of the raw layout's feature `raw`: within a
/// king bucket, raw `384·c + 64·p + s` is the toolkit's `64·(2p + c) + s`.
pub const fn toolkit_feature(raw: usize) -> usize {
    let bucket = raw / PLANES_INPUTS;
    let within = raw % PLANES_INPUTS;
    let colour = within / (KINDS * SQUARES);
    let kind = within / SQUARES % KINDS;
    let square = within % SQUARES;
    bucket * PLANES_INPUTS + SQUARES * (2 * kind + colour) + square
}

/// Appends `values` as little-endian i16.
fn push_i16s(out: &mut Vec<u8>, values: impl IntoIterator<Item = i16>) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// The raw file of `net` (module docs), or why it has none.
pub fn to_raw_bytes(net: &Network) -> Result<Vec<u8>, RawLayoutError> {
    let shape = raw_shape(net)?;
    let n = shape.half_dims;
    let mut out = Vec::with_capacity(shape.file_len());
    for raw in 0..PLANES_INPUTS * shape.king_buckets {
        let row = net.ft_row(toolkit_feature(raw) as u32);
        push_i16s(&mut out, row.iter().copied());
    }
    push_i16s(&mut out, net.ft_biases().iter().copied());
    let [output] = net.layers() else {
        return Err(RawLayoutError::HiddenLayers(
            net.layers().len().saturating_sub(1),
        ));
    };
    for bucket in 0..output.outputs {
        let start = bucket * output.row_len();
        let row = &output.weights[start..start + 2 * n];
        push_i16s(&mut out, row.iter().map(|&w| i16::from(w)));
    }
    for (bucket, &bias) in output.biases.iter().enumerate() {
        let narrow = i16::try_from(bias).map_err(|_| RawLayoutError::OutputBias {
            bucket,
            value: bias,
        })?;
        push_i16s(&mut out, [narrow]);
    }
    let padding = out.len().next_multiple_of(RAW_ALIGN) - out.len();
    out.extend(RAW_PADDING.iter().copied().cycle().take(padding));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::random_network;

    #[test]
    fn raw_features_map_to_the_toolkit_planes() {
        // Own pawn a1, their pawn a1, own king h8, their king h8, bucket 1.
        assert_eq!(toolkit_feature(0), 0);
        assert_eq!(toolkit_feature(384), 64);
        assert_eq!(toolkit_feature(5 * 64 + 63), 10 * 64 + 63);
        assert_eq!(toolkit_feature(384 + 5 * 64 + 63), 11 * 64 + 63);
        assert_eq!(toolkit_feature(768 + 384 + 64), 768 + 3 * 64);
    }

    #[test]
    fn a_random_net_lays_out_in_bullet_order_with_bullet_padding() {
        let arch = Architecture::new("All", 8, &[])
            .unwrap()
            .with_output_buckets(2);
        let net = random_network(&arch, 5).unwrap();
        let bytes = to_raw_bytes(&net).unwrap();
        let shape = raw_shape(&net).unwrap();
        // 768·8 + 8 + 2·16 + 2 = 6186 i16 = 12372 bytes, padded to 12416.
        assert_eq!(shape.payload_len(), 12_372);
        assert_eq!(bytes.len(), 12_416);
        assert_eq!(&bytes[12_372..12_378], b"bullet");
        let i16_at = |k: usize| i16::from_le_bytes([bytes[2 * k], bytes[2 * k + 1]]);
        // Raw feature 384 (their pawn on a1) holds the toolkit's row 64.
        assert_eq!(i16_at(384 * 8 + 3), net.ft_row(64)[3]);
        let output = &net.layers()[0];
        let out_start = 768 * 8 + 8;
        assert_eq!(
            i16_at(out_start + 16 + 9),
            i16::from(output.weights[output.row_len() + 9])
        );
        assert_eq!(i32::from(i16_at(out_start + 33)), output.biases[1]);
    }

    #[test]
    fn an_output_bias_beyond_i16_is_refused_naming_its_bucket() {
        let arch = Architecture::new("All", 1, &[]).unwrap();
        let layers = vec![(vec![40_000], vec![1, 2])];
        let net = Network::from_parameters(arch, vec![0], vec![0; 768], layers).unwrap();
        let error = to_raw_bytes(&net).unwrap_err();
        assert_eq!(
            error,
            RawLayoutError::OutputBias {
                bucket: 0,
                value: 40_000
            }
        );
        assert!(error
            .to_string()
            .starts_with("output bias 40000 of bucket 0 does not fit i16"));
    }

    #[test]
    fn nets_without_a_raw_layout_are_refused_by_name() {
        let hidden = random_network(&Architecture::new("All", 8, &[4]).unwrap(), 1).unwrap();
        assert_eq!(
            to_raw_bytes(&hidden).unwrap_err(),
            RawLayoutError::HiddenLayers(1)
        );
        let halfkp = random_network(&Architecture::new("King-All", 8, &[]).unwrap(), 1).unwrap();
        assert_eq!(
            to_raw_bytes(&halfkp).unwrap_err(),
            RawLayoutError::FeatureSet("King-All".to_string())
        );
    }
}
