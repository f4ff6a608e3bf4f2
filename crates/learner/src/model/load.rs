//! Starting weights from a quantized `.nnue` file (`--init-net`): every integer
//! parameter divided by the scale the export multiplies it by
//! ([`ParameterKind`]), so exporting the loaded model gives the file's parameters
//! back exactly. With the factoriser the virtual rows start at zero, so the
//! effective (merged) net is the loaded one.

use std::path::Path;

use nnue_core::nnue::{Architecture, Network, NetworkError, ParameterKind};

use super::dense::Dense;
use super::net::Model;
use super::shape::ModelShape;
use crate::error::LearnError;

/// Why a net cannot be the starting point of a run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InitNetError {
    /// The file's architecture is not the one trained; each entry names what
    /// differs and the option that sets it.
    #[error("{}", .0.join("; "))]
    Architecture(Vec<String>),
    /// A parameter that no 32-bit float exports back to (an i32 bias beyond
    /// 2^23 times its scale).
    #[error("{what} {value} has no 32-bit float that exports back to it")]
    Inexact { what: String, value: i64 },
}

/// The differences between the file's architecture and the one being trained,
/// each naming the option that sets it; empty when they agree.
pub fn architecture_differences(file: &Architecture, trained: &Architecture) -> Vec<String> {
    let widths = |w: &[usize]| {
        if w.is_empty() {
            "none".to_string()
        } else {
            w.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
        }
    };
    let mut out = Vec::new();
    if file.feature_set != trained.feature_set {
        out.push(format!(
            "feature set {}, training uses {} (--feature-set)",
            file.feature_set, trained.feature_set
        ));
    }
    if file.half_dims != trained.half_dims {
        out.push(format!(
            "transformer {}x2, training uses {}x2 (--ft-size)",
            file.half_dims, trained.half_dims
        ));
    }
    if file.hidden != trained.hidden {
        out.push(format!(
            "hidden layers {}, training uses {} (--hidden)",
            widths(&file.hidden),
            widths(&trained.hidden)
        ));
    }
    if file.activation != trained.activation {
        out.push(format!(
            "activation {}, training uses {} (--activation)",
            file.activation, trained.activation
        ));
    }
    if file.output_buckets != trained.output_buckets {
        out.push(format!(
            "{} output buckets, training uses {} (--output-buckets)",
            file.output_buckets, trained.output_buckets
        ));
    }
    out
}

/// The float value of `q`, checked to quantize back to `q` (true of every i8 and
/// i16 value; an i32 bias beyond 2^23 may not fit an f32's mantissa).
fn exact(kind: ParameterKind, q: i64, what: &str) -> Result<f32, InitNetError> {
    let x = kind.to_float(q);
    if i64::from(kind.to_i32(x)) == q {
        Ok(x)
    } else {
        Err(InitNetError::Inexact {
            what: what.to_string(),
            value: q,
        })
    }
}

fn exact_all<T: Copy + Into<i64>>(
    values: &[T],
    kind: ParameterKind,
    what: &str,
) -> Result<Vec<f32>, InitNetError> {
    values
        .iter()
        .map(|&q| exact(kind, q.into(), what))
        .collect()
}

/// Dense layer `k` of `net` in the float model's input-major layout (padding
/// columns, which multiply zero inputs, are dropped).
fn dense_of(net: &Network, k: usize) -> Result<Dense, InitNetError> {
    let layer = &net.layers()[k];
    let (wk, bk) = ParameterKind::of_layer(k, net.layers().len());
    let what = format!("layer {k} bias");
    let mut dense = Dense::zeros(layer.inputs, layer.outputs);
    dense.b = exact_all(&layer.biases, bk, &what)?;
    let row = layer.row_len();
    for o in 0..layer.outputs {
        for i in 0..layer.inputs {
            let q = layer.weights.as_slice()[o * row + i];
            dense.wt[i * layer.outputs + o] = exact(wk, q.into(), "weight")?;
        }
    }
    Ok(dense)
}

impl Model {
    /// The float model whose export is `net`, for `shape` (which must have the
    /// net's architecture). Virtual factoriser rows are zero. The error is the
    /// problem, for the caller to prefix with the file name.
    pub fn from_network(net: &Network, shape: &ModelShape) -> Result<Model, InitNetError> {
        let differences = architecture_differences(net.architecture(), &shape.arch);
        if !differences.is_empty() {
            return Err(InitNetError::Architecture(differences));
        }
        let kind = ParameterKind::Transformer;
        let mut ft_w = exact_all(net.ft_weights(), kind, "transformer weight")?;
        ft_w.resize(shape.rows() * shape.half(), 0.0);
        let ft_b = exact_all(net.ft_biases(), kind, "transformer bias")?;
        let dense = (0..net.layers().len())
            .map(|k| dense_of(net, k))
            .collect::<Result<_, _>>()?;
        Ok(Model {
            shape: shape.clone(),
            ft_w,
            ft_b,
            dense,
        })
    }

    /// Reads `path` (`--init-net`) as the starting weights of `shape`.
    pub fn load(path: &Path, shape: &ModelShape) -> Result<Model, LearnError> {
        let bytes = std::fs::read(path).map_err(|error| NetworkError::Io {
            source_name: path.display().to_string(),
            error,
        })?;
        Model::from_bytes(&bytes, path, shape)
    }

    /// [`Self::load`] of a file's `bytes`, named `path` in errors (the fuzz
    /// target reads damaged nets without files).
    pub fn from_bytes(bytes: &[u8], path: &Path, shape: &ModelShape) -> Result<Model, LearnError> {
        let net = Network::from_bytes(bytes, &path.display().to_string())?;
        Model::from_network(&net, shape).map_err(|problem| LearnError::InitNet {
            path: path.to_path_buf(),
            problem,
        })
    }
}
