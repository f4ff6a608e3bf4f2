//! Everything two programs of the toolkit must agree on: the training-data
//! formats (`packed`, `data`), the feature sets (`features`) and the quantized
//! network with its accumulator (`nnue`), and the command-line conventions every
//! program shares: exit statuses, one-line errors, stop signals (`cli`) and the
//! rule for output files (`output`).

pub mod cli;
pub mod data;
pub mod features;
pub mod nnue;
pub mod output;
pub mod packed;
