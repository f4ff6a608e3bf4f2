//! The PNG of the loss curves (training and validation loss per epoch).
//!
//! Text needs a TrueType font; DejaVu Sans is looked up in the usual system
//! places. Without one the curves are still drawn, only the labels are left out.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::prelude::*;

use crate::error::LearnError;
use crate::history::EpochRow;

/// Where the label font is looked for.
const FONT_PATHS: [&str; 3] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
];

/// Plot size in pixels.
const SIZE: (u32, u32) = (800, 500);

/// Registers the font once; whether labels can be drawn.
fn font_available() -> bool {
    static FONT: OnceLock<bool> = OnceLock::new();
    *FONT.get_or_init(|| {
        let Some(bytes) = FONT_PATHS.iter().find_map(|p| std::fs::read(p).ok()) else {
            return false;
        };
        let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok()
    })
}

/// Where the plot is drawn before it is renamed to `path`: beside it, hidden,
/// and still ending in `.png`, the extension the bitmap encoder chooses the
/// format by (so [`nnue_core::output::AtomicOutput`]'s temporary name, which
/// ends in the process id, cannot be used).
fn temporary(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "plot".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.tmp-{}.png", std::process::id()))
}

/// Draws the training and validation loss of `rows` into `path`, atomically:
/// readers see the previous plot or the new one, never half of one.
pub fn plot_losses(path: &Path, rows: &[EpochRow], title: &str) -> Result<(), LearnError> {
    if rows.is_empty() {
        return Ok(());
    }
    let temp = temporary(path);
    let drawn = draw(&temp, rows, title, font_available())
        .map_err(|e| std::io::Error::other(e.to_string()))
        .and_then(|()| std::fs::rename(&temp, path));
    drawn.map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        LearnError::io(path, "cannot write the loss plot", e)
    })
}

fn draw(
    path: &Path,
    rows: &[EpochRow],
    title: &str,
    labels: bool,
) -> Result<(), Box<dyn std::error::Error>> {
    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let finite = |v: f64| v.is_finite();
    let values = rows
        .iter()
        .flat_map(|r| [r.train_loss, r.val_loss])
        .filter(|&v| finite(v));
    let (lo, hi) = values.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
    let pad = ((hi - lo) * 0.05).max(1e-9);
    let last = rows.last().map_or(1, |r| r.epoch).max(1);
    let mut builder = ChartBuilder::on(&root);
    builder.margin(15);
    if labels {
        builder
            .caption(title, ("sans-serif", 22))
            .x_label_area_size(40)
            .y_label_area_size(70);
    }
    let mut chart = builder.build_cartesian_2d(0u64..last, (lo - pad)..(hi + pad))?;
    if labels {
        chart
            .configure_mesh()
            .x_desc("epoch")
            .y_desc("loss")
            .draw()?;
    }
    let series = [
        (
            "train loss",
            BLUE,
            rows.iter()
                .map(|r| (r.epoch, r.train_loss))
                .collect::<Vec<_>>(),
        ),
        (
            "validation loss",
            RED,
            rows.iter().map(|r| (r.epoch, r.val_loss)).collect(),
        ),
    ];
    for (name, color, points) in series {
        let drawn = chart.draw_series(LineSeries::new(points, color.stroke_width(2)))?;
        if labels {
            drawn
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        }
    }
    if labels {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
    }
    root.present()?;
    Ok(())
}
