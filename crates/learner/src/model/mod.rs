//! The float model: shape and factoriser ([`shape`]), feature rows
//! ([`features`]), f32 loops ([`kernels`]), dense layers ([`dense`]), the network
//! ([`net`]), the fused backward pass of a net without hidden layers
//! ([`single`]) and its fake quantization ([`fake_quant`]), its initialisation ([`init`]) or its starting weights from a `.nnue`
//! file ([`load`]).

pub mod dense;
pub mod fake_quant;
pub mod features;
pub mod init;
pub mod kernels;
pub mod load;
pub mod net;
pub mod shape;
pub mod single;

pub use dense::Dense;
pub use features::Extractor;
pub use net::{Model, Trace, NET_TO_INTERNAL};
pub use shape::{Factorizer, ModelShape};
