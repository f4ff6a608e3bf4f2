//! The fields both checkpoint kinds hold (the All-family trainer's and the
//! HalfKAv2_hm trainer's): the file's magic and version, the run's settings and
//! the learning-rate schedule, written and read the same way by both.

use super::codec::{CodecError, Reader, Writer};
use super::Settings;
use crate::optim::ScheduleState;

/// Fewest bytes of a saved setting: the lengths of its name and value.
const SETTING_MIN_LEN: usize = 16;

/// The file's start: `magic`, its `u32` version, then the run's `settings` as
/// `(name, value)` pairs after their count.
pub fn write_start<N: AsRef<str>>(
    w: &mut Writer,
    magic: &[u8],
    version: u32,
    settings: &[(N, String)],
) {
    w.bytes.extend_from_slice(magic);
    w.u32(version);
    w.u64(settings.len() as u64);
    for (name, value) in settings {
        w.str(name.as_ref());
        w.str(value);
    }
}

/// The settings [`write_start`] wrote, their count checked against the bytes left.
pub fn read_settings(r: &mut Reader<'_>) -> Result<Settings, CodecError> {
    let n = r.count(SETTING_MIN_LEN, "settings")?;
    (0..n)
        .map(|_| Ok((r.str("setting name")?, r.str("setting value")?)))
        .collect()
}

/// The schedule's epoch, learning rate, best loss (NaN for none) and newbob's
/// rejections.
pub fn write_schedule(w: &mut Writer, s: &ScheduleState) {
    w.u64(s.epoch);
    w.f64(s.lr);
    w.f64(s.best_loss.unwrap_or(f64::NAN));
    w.u32(s.rejections);
}

/// The schedule [`write_schedule`] wrote; `epoch_what` names its epoch in errors.
pub fn read_schedule(r: &mut Reader<'_>, epoch_what: &str) -> Result<ScheduleState, CodecError> {
    Ok(ScheduleState {
        epoch: r.counter(epoch_what)?,
        lr: r.f64("learning rate")?,
        best_loss: Some(r.f64("best loss")?).filter(|v| !v.is_nan()),
        rejections: r.u32("rejections")?,
    })
}
