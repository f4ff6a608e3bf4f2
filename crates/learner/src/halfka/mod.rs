//! Training Stockfish 15.1's net shape (HalfKAv2_hm, issue 42): `nnue-learn train
//! --preset sf15.1`. A separate path from the HalfKP/All trainer ([`crate::model`],
//! [`crate::train`]) because the net differs in every part after the features:
//! PSQT outputs beside the transformer ([`model`]), the pairwise product of the
//! accumulator halves, eight layer stacks chosen by piece count with squared and
//! clipped activations and a skip output ([`stack`]). Rows of a position and the
//! factoriser's virtual rows are in [`features`], the float-to-integer export in
//! 15.1's layout in [`quantize`], the training loop in [`trainer`], its
//! checkpoints (`--checkpoint-dir`, `--resume`) in [`checkpoint`].

pub mod checkpoint;
pub mod features;
pub mod gradients;
pub mod model;
pub mod optimizer;
pub mod quantize;
pub mod stack;
pub mod trainer;

pub use features::{HalfKaRows, Sample, VIRTUAL_ROWS};
pub use model::{HalfKaModel, OUTPUT_TO_INTERNAL};
pub use quantize::quantize;
pub use trainer::{train_halfka, HalfKaRun};
