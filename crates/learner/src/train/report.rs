//! nodchip-style progress reports.

use std::fmt::Write as _;

use crate::loss::Figures;

/// Everything one report prints.
pub struct Report {
    pub positions: u64,
    pub steps: u64,
    pub epoch: u64,
    pub lr: f64,
    pub test: Figures,
    /// Recent training batches (None before the first batch).
    pub learn: Option<Figures>,
    pub move_accuracy: f64,
    pub startpos_eval: f64,
    pub weight_norm: f64,
}

fn figures_line(out: &mut String, prefix: &str, f: &Figures) {
    let _ = writeln!(
        out,
        "  - {prefix}_cross_entropy_eval = {:.6} , {prefix}_cross_entropy_win = {:.6} , {prefix}_cross_entropy = {:.6}",
        f.cross_entropy_eval, f.cross_entropy_win, f.cross_entropy
    );
    let _ = writeln!(
        out,
        "  - {prefix}_entropy_eval = {:.6} , {prefix}_entropy_win = {:.6} , {prefix}_entropy = {:.6} , {prefix}_loss = {:.6}",
        f.entropy_eval, f.entropy_win, f.entropy, f.loss
    );
}

impl Report {
    /// The report as text.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "PROGRESS: {} sfens, iteration {}, epoch {}, lr = {:.6e}",
            self.positions, self.steps, self.epoch, self.lr
        );
        figures_line(&mut out, "test", &self.test);
        if let Some(learn) = &self.learn {
            figures_line(&mut out, "learn", learn);
        }
        let _ = writeln!(
            out,
            "  - move accuracy = {:.2}% , startpos eval = {:.0} , norm = {:.4}",
            100.0 * self.move_accuracy,
            self.startpos_eval,
            self.weight_norm
        );
        out
    }
}
