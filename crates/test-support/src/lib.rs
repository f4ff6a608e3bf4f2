//! What the tests of several crates share: where the reference vectors of
//! `tests/data/` are ([`test_data()`]), six worked `PackedSfenValue` records
//! ([`WORKED`]), a temporary directory removed when dropped ([`TempDir`]) and
//! positions from FEN text ([`position()`]) and Stockfish 15.1's net exported
//! from Debian's Stockfish ([`sf15_1_net()`]), and damaged copies of valid files
//! for the readers' property tests ([`damage`]), and the valid files those
//! tests and the cargo-fuzz targets of `fuzz/` both damage (random nets with
//! feature `core`; the tiny training runs' checkpoints and an init net with
//! feature `learner`) with the fuzz targets' input convention ([`fuzz`]), so
//! a property test and its fuzz target build the same file.
//!
//! A development dependency only (`publish = false`): one copy serves the
//! tests of every crate and the fuzz targets.

#[cfg(feature = "learner")]
mod checkpoints;
pub mod damage;
#[cfg(feature = "core")]
mod eval_files;
pub mod fuzz;
#[cfg(feature = "learner")]
mod halfka_checkpoint;
#[cfg(feature = "learner")]
mod init_net;
mod position;
mod sf15_net;
mod temp_dir;
mod test_data;
mod worked_records;

#[cfg(feature = "learner")]
pub use checkpoints::{checkpoint_template, tiny_checkpoint, tiny_train_config};
#[cfg(feature = "core")]
pub use eval_files::eval_files;
#[cfg(feature = "learner")]
pub use halfka_checkpoint::{
    fresh_halfka, sf15_1_tiny_args, tiny_halfka_checkpoint, tiny_halfka_run,
};
#[cfg(feature = "learner")]
pub use init_net::{init_net, init_net_shape, same_parameters};
pub use position::position;
pub use sf15_net::{sf15_1_net, DEBIAN_STOCKFISH, SF15_1_NET};
pub use temp_dir::TempDir;
pub use test_data::{test_data, test_data_bytes, test_data_text};
pub use worked_records::WORKED;
