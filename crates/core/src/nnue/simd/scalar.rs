//! Reference kernels: the definition every SIMD kernel is tested against.

/// Row `feature` of a feature-major `table` of rows `width` long (int16 or int8
/// rows alike), if it exists.
#[inline]
pub fn row<T>(table: &[T], feature: u32, width: usize) -> Option<&[T]> {
    let start = (feature as usize).checked_mul(width)?;
    table.get(start..start.checked_add(width)?)
}

/// See [`super::Kernel::update`]. Rows outside `table` count as zero and a
/// short `src` leaves the rest of `dst` as zero, so no input can panic.
pub fn update(dst: &mut [i16], src: &[i16], table: &[i16], removed: &[u32], added: &[u32]) {
    apply_rows(dst, src, table, removed, added);
}

/// [`update`] and [`update_narrow`] in one body, generic over the row type (each
/// instance is compiled for its own type, so neither pays for the other): rows
/// are widened to int16 (`i16::from`, the identity for int16 rows) and applied
/// with wrapping arithmetic.
fn apply_rows<T: Copy>(dst: &mut [i16], src: &[i16], table: &[T], removed: &[u32], added: &[u32])
where
    i16: From<T>,
{
    let n = dst.len();
    dst.fill(0);
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = s;
    }
    for &f in removed {
        for (d, &w) in dst.iter_mut().zip(row(table, f, n).unwrap_or(&[])) {
            *d = d.wrapping_sub(i16::from(w));
        }
    }
    for &f in added {
        for (d, &w) in dst.iter_mut().zip(row(table, f, n).unwrap_or(&[])) {
            *d = d.wrapping_add(i16::from(w));
        }
    }
}

/// See [`super::Kernel::clamp_to_u8`].
pub fn clamp_to_u8(acc: &[i16], out: &mut [u8]) {
    for (o, &a) in out.iter_mut().zip(acc) {
        *o = a.clamp(0, 127) as u8;
    }
}

/// See [`super::Kernel::screlu_to_u8`].
pub fn screlu_to_u8(acc: &[i16], out: &mut [u8]) {
    use crate::nnue::activation::{Activation, QA};
    for (o, &a) in out.iter_mut().zip(acc) {
        let c = i32::from(a).clamp(0, QA);
        *o = Activation::SquaredClippedRelu.transformed(c) as u8;
    }
}

/// See [`super::Kernel::screlu_dot`].
pub fn screlu_dot(acc: &[i16], weights: &[i8]) -> i32 {
    acc.iter().zip(weights).fold(0i32, |sum, (&a, &w)| {
        let c = i32::from(a.clamp(0, 127));
        sum.wrapping_add(c * c * i32::from(w))
    })
}

/// See [`super::Kernel::affine`].
pub fn affine(input: &[u8], weights: &[i8], bias: &[i32], out: &mut [i32]) {
    let width = input.len();
    for (o, (value, &b)) in out.iter_mut().zip(bias).enumerate() {
        let row = weights.get(o * width..(o + 1) * width).unwrap_or(&[]);
        *value = row.iter().zip(input).fold(b, |sum, (&w, &x)| {
            sum.wrapping_add(i32::from(w) * i32::from(x))
        });
    }
}

/// See [`super::Kernel::clipped_relu`].
pub fn clipped_relu(input: &[i32], out: &mut [u8]) {
    for (o, &v) in out.iter_mut().zip(input) {
        *o = (v >> 6).clamp(0, 127) as u8;
    }
}

/// See [`super::Kernel::update_narrow`]: [`update`] with int8 rows, each widened
/// to int16 before it is added or subtracted (so the result is the one the int16
/// table holding the same values gives).
pub fn update_narrow(dst: &mut [i16], src: &[i16], table: &[i8], removed: &[u32], added: &[u32]) {
    apply_rows(dst, src, table, removed, added);
}

/// See [`super::Kernel::clamped_dot`].
pub fn clamped_dot(acc: &[i16], weights: &[i8]) -> i32 {
    acc.iter().zip(weights).fold(0i32, |sum, (&a, &w)| {
        sum.wrapping_add(i32::from(a.clamp(0, 127)) * i32::from(w))
    })
}

/// See [`super::Kernel::update_narrow_dot`].
pub fn update_narrow_dot(
    dst: &mut [i16],
    src: &[i16],
    table: &[i8],
    removed: &[u32],
    added: &[u32],
    weights: &[i8],
) -> i32 {
    update_narrow(dst, src, table, removed, added);
    clamped_dot(dst, weights)
}

/// See [`super::Kernel::update_narrow_screlu_dot`].
pub fn update_narrow_screlu_dot(
    dst: &mut [i16],
    src: &[i16],
    table: &[i8],
    removed: &[u32],
    added: &[u32],
    weights: &[i8],
) -> i32 {
    update_narrow(dst, src, table, removed, added);
    screlu_dot(dst, weights)
}

/// See [`super::Kernel::pairwise_mul`].
pub fn pairwise_mul(acc: &[i16], out: &mut [u8]) {
    let half = acc.len() / 2;
    let (first, second) = acc.split_at(half);
    for ((o, &a), &b) in out.iter_mut().zip(first).zip(second) {
        let a = i32::from(a).clamp(0, 127);
        let b = i32::from(b).clamp(0, 127);
        *o = (a * b / 128) as u8;
    }
}
