//! PQR training (thesis section 5.3): triplets of a game position `p`, the
//! position `q` after the move played and the position `r` after a random
//! other legal move, built on the fly from game-ordered records
//! ([`triplet`]), checked for game order before a run starts ([`probe`]),
//! and the likelihood loss that ranks them ([`loss`]).

pub mod figures;
pub mod loss;
pub mod probe;
pub mod triplet;

pub use figures::triplet_figures;
pub use loss::{pqr_loss, PqrLoss};
pub use probe::{probe_game_order, GameOrderError};
pub use triplet::{triplet_at, triplet_of, Triplet};

/// Positions a triplet puts into a batch, in this order: p, q, r.
pub const TRIPLET_LEN: usize = 3;
