//! Everything two programs of the toolkit must agree on: the training-data
//! formats (`packed`, `data`), the feature sets (`features`) and the quantized
//! network with its accumulator (`nnue`).

pub mod data;
pub mod features;
pub mod nnue;
pub mod packed;
