//! What a float model looks like: the feature set, widths and the factoriser.

use nnue_core::features::FeatureSet;
use nnue_core::nnue::{Activation, Architecture};

use crate::error::LearnError;

/// Virtual features of the factoriser: every real feature also switches on the
/// feature `real % period` of a block of `period` rows shared by all king squares
/// (HalfKP: the 641 piece-square planes; King-All: the 768 All features). At export
/// each real row gets its virtual row added, so the file is a plain net.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Factorizer {
    /// Number of virtual features, and the period of real indices they repeat with.
    pub period: usize,
}

impl Factorizer {
    /// The factoriser of a feature set, if it has one.
    pub fn for_set(set: &FeatureSet) -> Result<Factorizer, LearnError> {
        match set.name() {
            "HalfKP" => Ok(Factorizer { period: 641 }),
            "King-All" | "K*All" => Ok(Factorizer { period: 768 }),
            other => Err(LearnError::Usage(format!(
                "--factorize: feature set {other} has no factoriser (HalfKP and King-All have)"
            ))),
        }
    }

    /// The virtual feature row of real feature `feature` in a model of `inputs` real
    /// features.
    #[inline]
    pub fn virtual_row(&self, inputs: usize, feature: u32) -> u32 {
        (inputs + feature as usize % self.period) as u32
    }
}

/// Sizes of a float model: the quantized architecture plus the virtual rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelShape {
    /// The exported network's architecture.
    pub arch: Architecture,
    /// The factoriser, if training with one.
    pub factorizer: Option<Factorizer>,
}

impl ModelShape {
    /// A checked shape: the architecture must be one a `.nnue` file can hold.
    pub fn new(
        feature_set: &str,
        half: usize,
        hidden: &[usize],
        factorize: bool,
    ) -> Result<ModelShape, LearnError> {
        let set = FeatureSet::parse(feature_set)?;
        let arch = Architecture::new(set.name(), half, hidden)?;
        arch.validate()?;
        let factorizer = if factorize {
            Some(Factorizer::for_set(&set)?)
        } else {
            None
        };
        Ok(ModelShape { arch, factorizer })
    }

    /// This shape with the transformer activation `activation` and `buckets`
    /// material output buckets, checked.
    pub fn with_output(
        self,
        activation: Activation,
        buckets: usize,
    ) -> Result<ModelShape, LearnError> {
        let arch = self
            .arch
            .with_activation(activation)
            .with_output_buckets(buckets);
        arch.validate()?;
        Ok(ModelShape { arch, ..self })
    }

    /// Real features per perspective.
    pub fn inputs(&self) -> usize {
        self.arch.inputs
    }

    /// Transformer rows: real features then virtual ones.
    pub fn rows(&self) -> usize {
        self.arch.inputs + self.factorizer.map_or(0, |f| f.period)
    }

    /// Transformer outputs per perspective.
    pub fn half(&self) -> usize {
        self.arch.half_dims
    }

    /// A one-line name used in checkpoints to refuse resuming another model.
    pub fn fingerprint(&self) -> String {
        match self.factorizer {
            Some(f) => format!("{} factorized({})", self.arch.summary(), f.period),
            None => self.arch.summary(),
        }
    }
}
