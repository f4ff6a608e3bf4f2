//! The feature-set name grammar.
//!
//! ```text
//! spec   := term ( '+' term )*          sum: indices of later terms offset
//! term   := factor ( '*' factor )*      product, left-associative
//! factor := BLOCK | '(' spec ')'
//! BLOCK  := HalfKP | All | K | King-All | H | V | D1 | D2 | PH | PV | MB | MC
//!         | MBp | MCp | T | KAm4 | KAm8 | HalfKAv2_hm
//! ```
//! Block names are case-sensitive, whitespace is ignored, and `King-All` is the same
//! features as `K*All` under its thesis name. Examples: `HalfKP`, `All+H+V`,
//! `K*All`, `King-All+MC`, `K*(H+V)`.

use super::algebra::{Named, Product, Sum};
use super::all::All;
use super::block::FeatureBlock;
use super::buckets::{KingBuckets, MirroredKingAll};
use super::halfka_v2_hm::HalfKaV2Hm;
use super::halfkp::HalfKp;
use super::king::King;
use super::lines::{LineKind, Lines};
use super::mobility::{MobilityBoard, MobilityBoardPseudo, MobilityCount, MobilityCountPseudo};
use super::pairs::{PairKind, Pairs};
use super::threats::Threats;

/// A feature-set name that does not follow the grammar.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("feature set '{spec}': {problem} at character {position}")]
pub struct FeatureSetError {
    /// The name as given.
    pub spec: String,
    /// Character index of the problem in `spec`.
    pub position: usize,
    /// What is wrong there.
    pub problem: String,
}

/// The names [`parse`] accepts for single blocks.
pub const BLOCK_NAMES: [&str; 18] = [
    "HalfKP",
    "All",
    "K",
    "King-All",
    "H",
    "V",
    "D1",
    "D2",
    "PH",
    "PV",
    "MB",
    "MC",
    "MBp",
    "MCp",
    "T",
    "KAm4",
    "KAm8",
    "HalfKAv2_hm",
];

/// Builds the block called `name`, if there is one.
pub fn block(name: &str) -> Option<Box<dyn FeatureBlock>> {
    Some(match name {
        "HalfKP" => Box::new(HalfKp),
        "All" => Box::new(All),
        "K" => Box::new(King),
        "King-All" => Box::new(Named::new(
            "King-All",
            Box::new(Product::new(Box::new(King), Box::new(All))),
        )),
        "H" => Box::new(Lines(LineKind::Rank)),
        "V" => Box::new(Lines(LineKind::File)),
        "D1" => Box::new(Lines(LineKind::Diagonal)),
        "D2" => Box::new(Lines(LineKind::AntiDiagonal)),
        "PH" => Box::new(Pairs(PairKind::Horizontal)),
        "PV" => Box::new(Pairs(PairKind::Vertical)),
        "MB" => Box::new(MobilityBoard),
        "MC" => Box::new(MobilityCount),
        "MBp" => Box::new(MobilityBoardPseudo),
        "MCp" => Box::new(MobilityCountPseudo),
        "T" => Box::new(Threats),
        "KAm4" => Box::new(MirroredKingAll(KingBuckets::Four)),
        "KAm8" => Box::new(MirroredKingAll(KingBuckets::Eight)),
        "HalfKAv2_hm" => Box::new(HalfKaV2Hm),
        _ => return None,
    })
}

struct Parser<'a> {
    spec: &'a str,
    chars: Vec<(usize, char)>,
    pos: usize,
}

impl Parser<'_> {
    fn error(&self, problem: impl Into<String>) -> FeatureSetError {
        FeatureSetError {
            spec: self.spec.to_string(),
            position: self.chars.get(self.pos).map_or(self.spec.len(), |c| c.0),
            problem: problem.into(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).map(|c| c.1)
    }

    fn spec(&mut self) -> Result<Box<dyn FeatureBlock>, FeatureSetError> {
        let mut parts = vec![self.term()?];
        while self.peek() == Some('+') {
            self.pos += 1;
            parts.push(self.term()?);
        }
        Ok(if parts.len() == 1 {
            parts.remove(0)
        } else {
            Box::new(Sum::new(parts))
        })
    }

    fn term(&mut self) -> Result<Box<dyn FeatureBlock>, FeatureSetError> {
        let mut left = self.factor()?;
        while self.peek() == Some('*') {
            self.pos += 1;
            let right = self.factor()?;
            left = Box::new(Product::new(left, right));
        }
        Ok(left)
    }

    fn factor(&mut self) -> Result<Box<dyn FeatureBlock>, FeatureSetError> {
        match self.peek() {
            Some('(') => {
                self.pos += 1;
                let inner = self.spec()?;
                if self.peek() != Some(')') {
                    return Err(self.error("expected ')'"));
                }
                self.pos += 1;
                Ok(inner)
            }
            Some(c) if c.is_ascii_alphanumeric() => {
                let start = self.pos;
                while self
                    .peek()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                {
                    self.pos += 1;
                }
                let name: String = self.chars[start..self.pos].iter().map(|c| c.1).collect();
                block(&name).ok_or_else(|| {
                    self.pos = start;
                    self.error(format!(
                        "unknown block '{name}' (known: {})",
                        BLOCK_NAMES.join(", ")
                    ))
                })
            }
            Some(c) => Err(self.error(format!("unexpected '{c}'"))),
            None => Err(self.error("expected a block name")),
        }
    }
}

/// Parses a feature-set name into its block tree.
pub fn parse(spec: &str) -> Result<Box<dyn FeatureBlock>, FeatureSetError> {
    let mut parser = Parser {
        spec,
        chars: spec
            .char_indices()
            .filter(|(_, c)| !c.is_whitespace())
            .collect(),
        pos: 0,
    };
    let block = parser.spec()?;
    if parser.pos != parser.chars.len() {
        return Err(parser.error("unexpected trailing text"));
    }
    if block.size() > u32::MAX as usize / 2 {
        return Err(parser.error("too many features"));
    }
    Ok(block)
}

/// Blocks whose name meant something else in files written before they took it:
/// `MB` and `MC` were the per-piece pseudo-legal blocks now called `MBp` and `MCp`.
const RENAMED: [(&str, &str); 2] = [("MB", "MBp"), ("MC", "MCp")];

/// How block names are spelled in the text a network file's feature hash is taken
/// from: `MBp` and `MCp` keep the hash of the names they had (`MB`, `MC`), and the
/// thesis blocks that took those names hash as `MB#thesis` and `MC#thesis`, so a
/// file tells by its hash which of the two it was written for.
const HASHED_AS: [(&str, &str); 4] = [
    ("MB", "MB#thesis"),
    ("MC", "MC#thesis"),
    ("MBp", "MB"),
    ("MCp", "MC"),
];

/// Replaces every block name of `spec` found in `map` (one pass, whole names only);
/// the flag says whether any was replaced.
fn rename_blocks(spec: &str, map: &[(&str, &str)]) -> (String, bool) {
    let mut out = String::with_capacity(spec.len() + 16);
    let mut word = String::new();
    let mut renamed = false;
    let mut flush = |word: &mut String, out: &mut String| {
        match map.iter().find(|(old, _)| old == word) {
            Some((_, new)) => {
                out.push_str(new);
                renamed = true;
            }
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in spec.chars() {
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    (out, renamed)
}

/// A feature-set name as a file written before the rename meant it: every `MB`
/// block becomes `MBp` and every `MC` block `MCp` (the rest of the text is
/// unchanged); `None` if the name has neither.
///
/// ```
/// use nnue_core::features::spec::legacy_name;
/// assert_eq!(legacy_name("All+MB+MC").as_deref(), Some("All+MBp+MCp"));
/// assert_eq!(legacy_name("K*(MC+H)").as_deref(), Some("K*(MCp+H)"));
/// assert_eq!(legacy_name("All+MBp"), None);
/// ```
pub fn legacy_name(spec: &str) -> Option<String> {
    let (name, renamed) = rename_blocks(spec, &RENAMED);
    renamed.then_some(name)
}

/// The text a network file's feature hash is computed from, for the canonical
/// name `spec`: the name itself, except for the blocks in the table above.
///
/// ```
/// use nnue_core::features::spec::hash_name;
/// assert_eq!(hash_name("All+H+V"), "All+H+V");
/// assert_eq!(hash_name("All+MBp+MC"), "All+MB+MC#thesis");
/// ```
pub fn hash_name(spec: &str) -> String {
    rename_blocks(spec, &HASHED_AS).0
}
