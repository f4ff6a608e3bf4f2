//! What the tests of several crates share: where the reference vectors of
//! `tests/data/` are ([`test_data()`]), six worked `PackedSfenValue` records
//! ([`WORKED`]), a temporary directory removed when dropped ([`TempDir`]) and
//! positions from FEN text ([`position()`]) and Stockfish 15.1's net exported
//! from Debian's Stockfish ([`sf15_1_net()`]), and damaged copies of valid files
//! for the readers' property tests ([`damage`]).
//!
//! A development dependency only (`publish = false`): one copy serves the
//! tests of `nnue-core`, `nnue-engine` and `nnue-gensfen`.

pub mod damage;
mod position;
mod sf15_net;
mod temp_dir;
mod test_data;
mod worked_records;

pub use position::position;
pub use sf15_net::{sf15_1_net, DEBIAN_STOCKFISH, SF15_1_NET};
pub use temp_dir::TempDir;
pub use test_data::{test_data, test_data_bytes, test_data_text};
pub use worked_records::WORKED;
