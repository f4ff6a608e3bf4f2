//! `KAm4`, `KAm8`: All, mirrored so the own king is on files a–d, once per king
//! bucket (the thesis' unfinished "symmetry and king bucketing" idea, section 6.7).
//!
//! On the perspective's relative board (own pieces white, Black's view flipped
//! `sq ^ 56`): if the own king stands on files e–h, every square is mirrored
//! horizontally (files a↔h, `sq ^ 7`), so the king is on files a–d. The mirrored
//! king square (file 0..=3, rank 0..=7) picks the bucket:
//!
//! * `KAm4`: `2 * (rank / 4) + file / 2`, rank halves (1–4, 5–8) × file groups
//!   (a–b, c–d);
//! * `KAm8`: `2 * (rank / 2) + file / 2`, rank pairs (1–2, 3–4, 5–6, 7–8) × file
//!   groups (a–b, c–d).
//!
//! ```text
//! KAm8 buckets, own king's (mirrored) square    KAm4
//!   rank 7-8:  6 6 7 7                           2 2 3 3
//!   rank 5-6:  4 4 5 5                           2 2 3 3
//!   rank 3-4:  2 2 3 3                           0 0 1 1
//!   rank 1-2:  0 0 1 1                           0 0 1 1
//!              a b c d                           a b c d
//! ```
//!
//! `index = 768 * bucket + 64 * plane(piece) + mirrored(sq)`, kings included:
//! buckets × 768 features. A side without a king uses bucket 0, unmirrored. The
//! accumulator is refreshed when the own king changes bucket or crosses the mirror
//! line (between the d- and e-files); otherwise the moved pieces' features change,
//! as for All.

use shakmaty::{Board, Color, Square};

use super::block::{FeatureBlock, MAX_PIECES};
use super::context::MoveContext;
use super::delta::FeatureDelta;
use super::orient::{orient, plane, relative_piece, Orientation};

/// How many king buckets a [`MirroredKingAll`] has.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum KingBuckets {
    /// `KAm4`: rank halves × file groups.
    Four,
    /// `KAm8`: rank pairs × file groups.
    Eight,
}

/// The mirrored, king-bucketed All block.
#[derive(Copy, Clone, Debug)]
pub struct MirroredKingAll(pub KingBuckets);

/// Where the own king puts a perspective: its bucket and whether to mirror.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct KingFrame {
    /// The king bucket.
    pub bucket: usize,
    /// Whether squares are mirrored (the own king is on files e–h).
    pub mirror: bool,
}

impl MirroredKingAll {
    /// Number of buckets.
    pub const fn buckets(self) -> usize {
        match self.0 {
            KingBuckets::Four => 4,
            KingBuckets::Eight => 8,
        }
    }

    /// The bucket and mirroring of `perspective` on `board`.
    pub fn frame(self, board: &Board, perspective: Color) -> KingFrame {
        let Some(king) = board.king_of(perspective) else {
            return KingFrame {
                bucket: 0,
                mirror: false,
            };
        };
        let king = orient(king, perspective, Orientation::Flip);
        let mirror = king.file().to_usize() >= 4;
        let king = if mirror { king.flip_horizontal() } else { king };
        let (file, rank) = (king.file().to_usize(), king.rank().to_usize());
        let bucket = match self.0 {
            KingBuckets::Four => 2 * (rank / 4) + file / 2,
            KingBuckets::Eight => 2 * (rank / 2) + file / 2,
        };
        KingFrame { bucket, mirror }
    }

    /// The index of `piece` on `sq` (absolute) for `perspective` in `frame`.
    pub fn index(frame: KingFrame, perspective: Color, piece: shakmaty::Piece, sq: Square) -> u32 {
        let rel = relative_piece(piece, perspective);
        let sq = orient(sq, perspective, Orientation::Flip);
        let sq = if frame.mirror {
            sq.flip_horizontal()
        } else {
            sq
        };
        (768 * frame.bucket + 64 * plane(rel) + sq.to_usize()) as u32
    }
}

impl FeatureBlock for MirroredKingAll {
    fn name(&self) -> String {
        match self.0 {
            KingBuckets::Four => "KAm4",
            KingBuckets::Eight => "KAm8",
        }
        .to_string()
    }

    fn size(&self) -> usize {
        768 * self.buckets()
    }

    fn max_active(&self) -> usize {
        MAX_PIECES
    }

    fn active(&self, board: &Board, perspective: Color, out: &mut Vec<u32>) {
        let frame = self.frame(board, perspective);
        for (sq, piece) in board {
            out.push(MirroredKingAll::index(frame, perspective, piece, sq));
        }
    }

    fn needs_refresh(&self, mv: &MoveContext<'_>) -> bool {
        mv.change.king_moved(mv.perspective)
            && self.frame(mv.before, mv.perspective) != self.frame(mv.after, mv.perspective)
    }

    fn changed(&self, mv: &MoveContext<'_>, delta: &mut FeatureDelta) {
        let perspective = mv.perspective;
        let frame = self.frame(mv.after, perspective);
        for d in mv.change.pieces() {
            if let Some(from) = d.from {
                delta
                    .removed
                    .push(MirroredKingAll::index(frame, perspective, d.piece, from));
            }
            if let Some(to) = d.to {
                delta
                    .added
                    .push(MirroredKingAll::index(frame, perspective, d.piece, to));
            }
        }
    }
}
