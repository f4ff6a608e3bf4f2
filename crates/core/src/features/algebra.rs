//! Composition of blocks (thesis notation `A ⊕ B` and `A × B`).
//!
//! * [`Sum`]: the features of every part side by side; part `k`'s indices are
//!   offset by the sizes of the parts before it.
//! * [`Product`]: one feature per pair `(a, b)`, index `a * |B| + b`, active when
//!   both are. King-All is `K * All`.

use shakmaty::{Board, Color};

use super::block::FeatureBlock;
use super::context::MoveContext;
use super::delta::FeatureDelta;

/// Offsets the entries of `list` from `start` on by `offset`.
fn shift(list: &mut [u32], start: usize, offset: u32) {
    if let Some(tail) = list.get_mut(start..) {
        for index in tail {
            *index += offset;
        }
    }
}

/// `A + B + …`.
#[derive(Debug)]
pub struct Sum {
    parts: Vec<Box<dyn FeatureBlock>>,
}

impl Sum {
    /// The parts side by side, in this order (the order fixes the offsets).
    pub fn new(parts: Vec<Box<dyn FeatureBlock>>) -> Sum {
        Sum { parts }
    }

    /// `(part, offset of its first feature)`.
    fn with_offsets(&self) -> impl Iterator<Item = (&dyn FeatureBlock, u32)> {
        self.parts.iter().scan(0u32, |offset, part| {
            let start = *offset;
            *offset += part.size() as u32;
            Some((part.as_ref(), start))
        })
    }
}

impl FeatureBlock for Sum {
    fn name(&self) -> String {
        let names: Vec<String> = self.parts.iter().map(|p| p.name()).collect();
        names.join("+")
    }

    fn size(&self) -> usize {
        self.parts
            .iter()
            .fold(0usize, |n, p| n.saturating_add(p.size()))
    }

    fn max_active(&self) -> usize {
        self.parts
            .iter()
            .fold(0usize, |n, p| n.saturating_add(p.max_active()))
    }

    fn peak_active(&self) -> usize {
        let mut before = 0usize;
        let mut peak = 0usize;
        for part in &self.parts {
            peak = peak.max(before.saturating_add(part.peak_active()));
            before = before.saturating_add(part.max_active());
        }
        peak
    }

    fn active(&self, board: &Board, perspective: Color, out: &mut Vec<u32>) {
        for (part, offset) in self.with_offsets() {
            let start = out.len();
            part.active(board, perspective, out);
            shift(out, start, offset);
        }
    }

    fn needs_refresh(&self, mv: &MoveContext<'_>) -> bool {
        self.parts.iter().any(|p| p.needs_refresh(mv))
    }

    fn changed(&self, mv: &MoveContext<'_>, delta: &mut FeatureDelta) {
        for (part, offset) in self.with_offsets() {
            let (r, a) = (delta.removed.len(), delta.added.len());
            part.changed(mv, delta);
            shift(&mut delta.removed, r, offset);
            shift(&mut delta.added, a, offset);
        }
    }
}

/// `A * B`.
#[derive(Debug)]
pub struct Product {
    left: Box<dyn FeatureBlock>,
    right: Box<dyn FeatureBlock>,
}

impl Product {
    /// `left * right`: `left`'s features choose the row, `right`'s the column.
    pub fn new(left: Box<dyn FeatureBlock>, right: Box<dyn FeatureBlock>) -> Product {
        Product { left, right }
    }
}

/// The spec text of a factor: sums need parentheses inside a product.
fn factor_name(block: &dyn FeatureBlock) -> String {
    let name = block.name();
    if name.contains('+') {
        format!("({name})")
    } else {
        name
    }
}

impl FeatureBlock for Product {
    fn name(&self) -> String {
        format!(
            "{}*{}",
            factor_name(self.left.as_ref()),
            factor_name(self.right.as_ref())
        )
    }

    fn size(&self) -> usize {
        self.left.size().saturating_mul(self.right.size())
    }

    fn max_active(&self) -> usize {
        self.left
            .max_active()
            .saturating_mul(self.right.max_active())
    }

    fn peak_active(&self) -> usize {
        let (l, r) = (self.left.max_active(), self.right.max_active());
        let staged = l.saturating_add(r);
        self.left
            .peak_active()
            .max(l.saturating_add(self.right.peak_active()))
            .max(staged.saturating_add(self.max_active()))
    }

    /// Both factors' features are appended to `out` itself and replaced by their
    /// products, so nothing is allocated once `out` has room for
    /// `max_active() + left + right` entries.
    fn active(&self, board: &Board, perspective: Color, out: &mut Vec<u32>) {
        let base = out.len();
        self.left.active(board, perspective, out);
        let split = out.len();
        self.right.active(board, perspective, out);
        let end = out.len();
        let width = self.right.size() as u32;
        for i in base..split {
            for j in split..end {
                out.push(out[i] * width + out[j]);
            }
        }
        out.drain(base..end);
    }

    /// A change of the left factor changes the row of every right feature, so it is
    /// cheaper (and simpler) to rebuild; for King-All that is "the own king moved".
    fn needs_refresh(&self, mv: &MoveContext<'_>) -> bool {
        if self.left.needs_refresh(mv) || self.right.needs_refresh(mv) {
            return true;
        }
        let mut left = FeatureDelta::default();
        self.left.changed(mv, &mut left);
        !left.is_empty()
    }

    fn changed(&self, mv: &MoveContext<'_>, delta: &mut FeatureDelta) {
        let mut left = Vec::with_capacity(8);
        self.left.active(mv.after, mv.perspective, &mut left);
        let mut right = FeatureDelta::with_capacity(8);
        self.right.changed(mv, &mut right);
        let width = self.right.size() as u32;
        for &a in &left {
            delta
                .removed
                .extend(right.removed.iter().map(|&b| a * width + b));
            delta
                .added
                .extend(right.added.iter().map(|&b| a * width + b));
        }
    }
}

/// A block known by a name of its own (King-All = `K*All`), so the name written
/// into a network file stays the one the user chose.
#[derive(Debug)]
pub struct Named {
    name: &'static str,
    inner: Box<dyn FeatureBlock>,
}

impl Named {
    /// `inner` under the name `name`.
    pub fn new(name: &'static str, inner: Box<dyn FeatureBlock>) -> Named {
        Named { name, inner }
    }
}

impl FeatureBlock for Named {
    fn name(&self) -> String {
        self.name.to_string()
    }

    fn size(&self) -> usize {
        self.inner.size()
    }

    fn max_active(&self) -> usize {
        self.inner.max_active()
    }

    fn peak_active(&self) -> usize {
        self.inner.peak_active()
    }

    fn active(&self, board: &Board, perspective: Color, out: &mut Vec<u32>) {
        self.inner.active(board, perspective, out);
    }

    fn needs_refresh(&self, mv: &MoveContext<'_>) -> bool {
        self.inner.needs_refresh(mv)
    }

    fn changed(&self, mv: &MoveContext<'_>, delta: &mut FeatureDelta) {
        self.inner.changed(mv, delta);
    }
}
