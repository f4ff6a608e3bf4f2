//! The options that describe a net's shape, the same in every subcommand that
//! makes or trains one (`train`, `bench`, `random-net`). The older spellings
//! (`--features`, `--half`) are kept as hidden aliases.

use nnue_core::nnue::{Activation, Architecture};

use crate::error::LearnError;
use crate::model::ModelShape;

/// Transformer width per perspective for HalfKP (Stockfish 12's).
const HALFKP_FT_SIZE: usize = 256;
/// Transformer width per perspective for every other feature set.
const OTHER_FT_SIZE: usize = 512;
/// Hidden layers for HalfKP (Stockfish 12's 32-32).
const HALFKP_HIDDEN: [usize; 2] = [32, 32];
/// Hidden layers for every other feature set.
const OTHER_HIDDEN: [usize; 1] = [32];

/// `--feature-set`, `--ft-size`, `--hidden`, `--factorize`, `--activation`,
/// `--output-buckets`.
#[derive(clap::Args, Clone, Debug)]
pub struct ShapeArgs {
    /// Feature set, e.g. HalfKP, All, King-All, All+H+V, K*(H+V).
    #[arg(long, alias = "features", default_value = "HalfKP")]
    pub feature_set: String,
    /// Transformer outputs per perspective (M in N->Mx2) [default: 256 for
    /// HalfKP, 512 otherwise].
    #[arg(long, alias = "half", value_parser = super::at_least::<usize>(0))]
    pub ft_size: Option<usize>,
    /// Hidden layer widths, comma separated; empty (`--hidden=`) for none
    /// [default: 32,32 for HalfKP, 32 otherwise].
    #[arg(long)]
    pub hidden: Option<String>,
    /// Train with the factoriser's virtual features (HalfKP, King-All).
    #[arg(long)]
    pub factorize: bool,
    /// The feature transformer's activation: crelu (clamp(x, 0, 1)) or screlu
    /// (clamp(x, 0, 1)²).
    #[arg(long, default_value = "crelu", value_parser = parse_activation)]
    pub activation: Activation,
    /// Output layers picked by the number of pieces on the board (8: one per
    /// four pieces); 1, 2, 4, 8, 16 or 32.
    #[arg(long, default_value_t = 1)]
    pub output_buckets: usize,
}

/// Parses `--activation`.
fn parse_activation(text: &str) -> Result<Activation, String> {
    text.parse()
        .map_err(|e: nnue_core::nnue::activation::UnknownActivation| e.to_string())
}

/// Parses `"32,32"` (or `""`) into widths.
pub fn parse_widths(text: &str) -> Result<Vec<usize>, LearnError> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse()
                .map_err(|_| LearnError::Usage(format!("--hidden: '{s}' is not a layer width")))
        })
        .collect()
}

impl ShapeArgs {
    fn halfkp(&self) -> bool {
        self.feature_set.trim() == "HalfKP"
    }

    /// `--ft-size`, or the feature set's default.
    pub fn ft_size(&self) -> usize {
        let default = if self.halfkp() {
            HALFKP_FT_SIZE
        } else {
            OTHER_FT_SIZE
        };
        self.ft_size.unwrap_or(default)
    }

    /// `--hidden`, or the feature set's default.
    pub fn hidden(&self) -> Result<Vec<usize>, LearnError> {
        match &self.hidden {
            Some(text) => parse_widths(text),
            None if self.halfkp() => Ok(HALFKP_HIDDEN.to_vec()),
            None => Ok(OTHER_HIDDEN.to_vec()),
        }
    }

    /// The float model's shape.
    pub fn model_shape(&self) -> Result<ModelShape, LearnError> {
        ModelShape::new(
            &self.feature_set,
            self.ft_size(),
            &self.hidden()?,
            self.factorize,
        )?
        .with_output(self.activation, self.output_buckets)
    }

    /// The quantized net's architecture (`--factorize` only applies to training).
    pub fn architecture(&self) -> Result<Architecture, LearnError> {
        if self.factorize {
            return Err(LearnError::Usage(
                "--factorize only applies to training (a .nnue file holds the merged rows)".into(),
            ));
        }
        let arch = Architecture::new(&self.feature_set, self.ft_size(), &self.hidden()?)?
            .with_activation(self.activation)
            .with_output_buckets(self.output_buckets);
        arch.validate()?;
        Ok(arch)
    }
}
