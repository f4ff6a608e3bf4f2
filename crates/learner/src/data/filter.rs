//! The trainer's position filter: the toolkit's shared one
//! ([`nnue_core::data::filter`]), which `nnue-gen-sfen convert` and `shuffle`
//! apply with the same options and presets.

pub use nnue_core::data::filter::{draw_hash, is_noisy, Filter, FilterPreset};
