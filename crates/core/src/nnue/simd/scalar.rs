//! Reference kernels: the definition every SIMD kernel is tested against.

/// See [`super::Kernel::update`].
pub fn update(dst: &mut [i16], src: &[i16], removed: &[&[i16]], added: &[&[i16]]) {
    dst.copy_from_slice(src);
    for row in removed {
        for (d, &w) in dst.iter_mut().zip(row.iter()) {
            *d = d.wrapping_sub(w);
        }
    }
    for row in added {
        for (d, &w) in dst.iter_mut().zip(row.iter()) {
            *d = d.wrapping_add(w);
        }
    }
}

/// See [`super::Kernel::clamp_to_u8`].
pub fn clamp_to_u8(acc: &[i16], out: &mut [u8]) {
    for (o, &a) in out.iter_mut().zip(acc) {
        *o = a.clamp(0, 127) as u8;
    }
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
