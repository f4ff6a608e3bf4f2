//! Fake quantization of the dense layers (`--quantization-aware`).
//!
//! The `.nnue` file stores the output layer's weights as int8 at a scale of
//! 9600/127: one step is 1/75.6 of a float unit, about 7.9 internal units per
//! fully active transformer output. A net without hidden layers feeds all `2M`
//! transformer outputs (most of them active) straight into that layer, so the
//! rounding errors add up: on a trained All 768->256x2-1 net they move the
//! evaluation by about 30 internal units (standard deviation), as much as the
//! whole difference between the net and the evaluation it was trained to copy.
//! Training through rounded copies of the dense layers (gradients passed straight
//! through to the float weights) lets the transformer learn around the rounding,
//! so the float model and the exported net agree.

use nnue_core::nnue::ParameterKind;

use super::dense::Dense;
use super::net::Model;

/// The dense layers with every weight and bias at the value the exported net
/// will hold.
pub fn quantized_dense(dense: &[Dense]) -> Vec<Dense> {
    dense
        .iter()
        .enumerate()
        .map(|(k, layer)| {
            let (wk, bk) = ParameterKind::of_layer(k, dense.len());
            Dense {
                inputs: layer.inputs,
                outputs: layer.outputs,
                wt: layer.wt.iter().map(|&w| wk.rounded(w)).collect(),
                b: layer.b.iter().map(|&b| bk.rounded(b)).collect(),
            }
        })
        .collect()
}

impl Model {
    /// A copy whose dense layers are quantized ([`quantized_dense`]): what the
    /// exported net computes, up to the transformer's much finer rounding.
    pub fn with_quantized_dense(&self) -> Model {
        Model {
            dense: quantized_dense(&self.dense),
            ..self.clone()
        }
    }

    /// The exported net read back as a float model: every parameter rounded as
    /// the `.nnue` file stores it, the factoriser's rows merged. Small steps
    /// (fine-tuning at a low rate) can move the float transformer coherently
    /// while every weight still rounds back to the integer it started from, so
    /// only this model says what the engine will evaluate. `None` when the
    /// weights cannot be exported (the export's own error says why).
    pub fn as_exported(&self) -> Option<Model> {
        let (net, _) = self.export().ok()?;
        Model::from_network(&net, &self.shape).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ModelShape;
    use nnue_core::nnue::quant::OUTPUT_WEIGHT_SCALE;

    #[test]
    fn snapped_layers_export_to_the_same_integers() {
        let shape = ModelShape::new("All", 8, &[4], false).expect("shape");
        let model = Model::new(shape, 7, 32);
        let snapped = model.with_quantized_dense();
        let (a, _) = model.export().expect("export");
        let (b, _) = snapped.export().expect("export");
        assert_eq!(a.to_bytes(), b.to_bytes());
        assert_ne!(model.dense, snapped.dense);
    }

    #[test]
    fn output_weights_land_on_the_int8_grid() {
        let layer = Dense {
            inputs: 3,
            outputs: 1,
            wt: vec![0.004, -0.0071, 5.0],
            b: vec![0.1],
        };
        let q = quantized_dense(&[layer]);
        let steps: Vec<f32> = q[0].wt.iter().map(|w| w * OUTPUT_WEIGHT_SCALE).collect();
        // 0.30 -> 0, -0.54 -> -1, 378 saturates at 127.
        assert_eq!(
            steps.iter().map(|s| s.round()).collect::<Vec<_>>(),
            [0.0, -1.0, 127.0]
        );
        assert!((q[0].b[0] - 0.1).abs() < 1e-4);
    }
}
