//! Training data: sources ([`source`], with in-memory `.binpack`/`.plain`
//! files in [`loaded`]), the shuffled stream ([`stream`]), filters
//! ([`filter`]), `--mirror` augmentation ([`mirror`]), sparse batches
//! ([`batch`]) and the parallel batch builder ([`batcher`]). Data flows one
//! way: source -> stream -> batcher -> batch.

pub mod batch;
pub mod batcher;
pub mod filter;
pub mod loaded;
pub mod mirror;
pub mod source;
pub mod stream;

pub use batch::SparseBatch;
pub use batcher::Batcher;
pub use filter::{Filter, FilterPreset};
pub use source::{DataSource, PositionSource, SourceOptions};
pub use stream::{Stream, StreamState};
