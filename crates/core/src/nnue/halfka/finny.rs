//! The refresh cache ("Finny tables"): for each perspective and own-king square,
//! the accumulators of the last board refreshed there and that board's pieces.
//!
//! A king move changes every HalfKAv2_hm feature of its side, so 15.1 recomputes
//! the accumulator from the biases and all (up to 32) active rows. Kings return to
//! squares they stood on a few moves earlier, where most pieces have not moved:
//! starting from the cached accumulator of that king square and applying only the
//! pieces that differ costs a handful of rows instead. Accumulator arithmetic wraps
//! (int16 and int32 alike), so the order of additions cannot change the result: a
//! cached refresh equals a full one bit for bit (tested).

use shakmaty::{Board, Color, Piece, Role, Square};

use super::transformer::{Psqt, Transformer};
use crate::features::halfka_v2_hm::HalfKaV2Hm;
use crate::features::perspective_index;
use crate::nnue::aligned::Aligned;
use crate::nnue::simd::Kernel;

/// One cached refresh.
#[derive(Clone, Debug)]
struct Slot {
    acc: Aligned<i16>,
    psqt: Psqt,
    board: Board,
}

/// The cache of one search thread: 2 perspectives × 64 king squares.
#[derive(Clone, Debug)]
pub struct FinnyTable {
    slots: Vec<Slot>,
    removed: Vec<u32>,
    added: Vec<u32>,
}

impl FinnyTable {
    /// Every slot holds the empty board's accumulators (the biases, PSQT zero).
    pub fn new(transformer: &Transformer) -> FinnyTable {
        let empty = Slot {
            acc: transformer.biases.clone(),
            psqt: Psqt::default(),
            board: Board::empty(),
        };
        FinnyTable {
            slots: vec![empty; 2 * 64],
            removed: Vec::with_capacity(32),
            added: Vec::with_capacity(32),
        }
    }

    /// Refreshes `perspective`'s accumulators of `board` into `acc` and `psqt`
    /// from the slot of its king's square, then stores the result there. A board
    /// without that king gets a plain refresh (`features` is scratch space).
    #[allow(clippy::too_many_arguments)]
    pub fn refresh(
        &mut self,
        transformer: &Transformer,
        kernel: Kernel,
        board: &Board,
        perspective: Color,
        features: &mut Vec<u32>,
        acc: &mut [i16],
        psqt: &mut Psqt,
    ) {
        let Some(king) = board.king_of(perspective) else {
            transformer.refresh(kernel, board, perspective, features, acc, psqt);
            return;
        };
        let slot = &mut self.slots[perspective_index(perspective) * 64 + king.to_usize()];
        self.removed.clear();
        self.added.clear();
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                let (old, new) = (slot.board.by_piece(piece), board.by_piece(piece));
                let index = |sq: Square| HalfKaV2Hm::index(perspective, king, piece, sq);
                self.removed.extend((old & !new).into_iter().map(index));
                self.added.extend((new & !old).into_iter().map(index));
            }
        }
        let (removed, added) = (&self.removed, &self.added);
        transformer.update(kernel, acc, &slot.acc, psqt, &slot.psqt, removed, added);
        slot.acc.copy_from_slice(acc);
        slot.psqt = *psqt;
        slot.board.clone_from(board);
    }
}
