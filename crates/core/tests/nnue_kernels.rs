//! Every SIMD kernel equals the scalar one on random data of awkward sizes
//! (remainders after full SIMD tiles, extreme and wrapping values).

use std::sync::Arc;

use nnue_core::nnue::aligned::Aligned;
use nnue_core::nnue::random::splitmix64_finalize;
use nnue_core::nnue::{random_network, AccumulatorStack, Architecture, Kernel};
use shakmaty::{Chess, Position};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        splitmix64_finalize(self.0)
    }
}

#[test]
fn kernels_agree_with_scalar() {
    let mut rng = Rng(42);
    let kernels = Kernel::available();
    assert!(kernels.contains(&Kernel::Scalar));
    for &len in &[
        1usize, 7, 15, 16, 31, 32, 33, 63, 64, 65, 127, 128, 200, 256, 300, 512, 1024,
    ] {
        let src: Vec<i16> = (0..len).map(|_| rng.next() as i16).collect();
        // A table of 6 rows; remove two, add three (one of them twice).
        let table: Vec<i16> = (0..6 * len).map(|_| rng.next() as i16).collect();
        let (removed, added) = ([1u32, 4], [0u32, 5, 5]);
        let mut expected = vec![0i16; len];
        Kernel::Scalar.update(&mut expected, &src, &table, &removed, &added);
        // The scalar kernel is the definition; check it against plain arithmetic.
        for i in 0..len {
            let v = src[i]
                .wrapping_sub(table[len + i])
                .wrapping_sub(table[4 * len + i])
                .wrapping_add(table[i])
                .wrapping_add(table[5 * len + i])
                .wrapping_add(table[5 * len + i]);
            assert_eq!(expected[i], v);
        }
        let mut expected_clamp = vec![0u8; len];
        Kernel::Scalar.clamp_to_u8(&src, &mut expected_clamp);
        for &kernel in &kernels {
            // Both aligned and deliberately misaligned buffers.
            for offset in [0usize, 1] {
                let mut dst = vec![0i16; len + offset];
                kernel.update(&mut dst[offset..], &src, &table, &removed, &added);
                assert_eq!(dst[offset..], expected[..], "update {kernel:?} len {len}");
                let mut out = vec![0u8; len + offset];
                kernel.clamp_to_u8(&src, &mut out[offset..]);
                assert_eq!(
                    out[offset..],
                    expected_clamp[..],
                    "clamp {kernel:?} len {len}"
                );
            }
            // An out-of-range row or a short source is not a panic: such rows
            // count as zero (the scalar definition).
            let mut dst = vec![0i16; len];
            kernel.update(&mut dst, &src, &table, &[99], &[]);
            assert_eq!(dst, src, "{kernel:?} out-of-range row");
            kernel.update(&mut dst, &src[..len / 2], &table, &[], &[]);
            assert_eq!(dst[..len / 2], src[..len / 2]);
            assert!(dst[len / 2..].iter().all(|&v| v == 0));
        }
    }
    for &len in &[1usize, 31, 32, 33, 64, 100] {
        let input: Vec<i32> = (0..len)
            .map(|k| match k % 5 {
                0 => i32::MIN,
                1 => i32::MAX,
                2 => 127 << 6,
                _ => rng.next() as i32 >> (rng.next() % 24),
            })
            .collect();
        let mut expected = vec![0u8; len];
        Kernel::Scalar.clipped_relu(&input, &mut expected);
        for (e, &v) in expected.iter().zip(&input) {
            assert_eq!(i32::from(*e), (v >> 6).clamp(0, 127));
        }
        for &kernel in &kernels {
            let mut out = vec![0u8; len];
            kernel.clipped_relu(&input, &mut out);
            assert_eq!(out, expected, "clipped relu {kernel:?} len {len}");
        }
    }
    for &(rows, width) in &[
        (1usize, 32usize),
        (3, 32),
        (4, 64),
        (5, 96),
        (32, 512),
        (37, 1024),
        (8, 160),
    ] {
        let mut input = Aligned::<u8>::new(width);
        for x in input.iter_mut() {
            // Transformed inputs are 0..=127; bias towards the extremes.
            *x = match rng.next() % 4 {
                0 => 0,
                1 => 127,
                _ => (rng.next() % 128) as u8,
            };
        }
        let mut weights = Aligned::<i8>::new(rows * width);
        for w in weights.iter_mut() {
            *w = match rng.next() % 4 {
                0 => -128,
                1 => 127,
                _ => rng.next() as i8,
            };
        }
        let bias: Vec<i32> = (0..rows)
            .map(|_| (rng.next() % 100_000) as i32 - 50_000)
            .collect();
        let mut expected = vec![0i32; rows];
        Kernel::Scalar.affine(&input, &weights, &bias, &mut expected);
        for &kernel in &kernels {
            let mut out = vec![0i32; rows];
            kernel.affine(&input, &weights, &bias, &mut out);
            assert_eq!(out, expected, "affine {kernel:?} {rows}x{width}");
        }
    }
}

#[test]
fn deep_lines_grow_the_stack_without_limit() {
    let arch = Architecture::new("All", 16, &[4]).unwrap();
    let net = Arc::new(random_network(&arch, 3).unwrap());
    let mut stack = AccumulatorStack::new(Arc::clone(&net));
    let mut pos = Chess::default();
    stack.reset(&pos);
    stack.pop(); // popping the root is ignored
    assert_eq!(stack.depth(), 0);
    let mut rng = Rng(9);
    // 600 plies of shuffling pieces and null moves, far beyond a 250-ply search.
    for ply in 0..600 {
        if ply % 5 == 4 && !pos.is_check() {
            stack.push_null();
            pos = pos.swap_turn().expect("a null move outside check is legal");
        } else {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[(rng.next() % moves.len() as u64) as usize];
            stack.push(&pos, &mv);
            pos.play_unchecked(mv);
        }
        if ply % 50 == 0 {
            assert_eq!(stack.evaluate(&pos), nnue_core::nnue::evaluate(&net, &pos));
        }
    }
    assert!(stack.depth() > 250);
    assert_eq!(stack.evaluate(&pos), nnue_core::nnue::evaluate(&net, &pos));
}

#[test]
fn network_is_shareable_and_scratch_is_checked() {
    fn shareable<T: Send + Sync>() {}
    shareable::<nnue_core::nnue::Network>();
    shareable::<AccumulatorStack>();
    let a = random_network(&Architecture::new("All", 32, &[8]).unwrap(), 1).unwrap();
    let b = random_network(&Architecture::new("H+V", 64, &[16, 4]).unwrap(), 2).unwrap();
    let pos = Chess::default();
    let mut us = vec![0i16; 64];
    let mut them = vec![0i16; 64];
    let mut features = Vec::new();
    b.refresh(
        Kernel::detect(),
        pos.board(),
        shakmaty::Color::White,
        &mut features,
        &mut us,
    );
    b.refresh(
        Kernel::detect(),
        pos.board(),
        shakmaty::Color::Black,
        &mut features,
        &mut them,
    );
    // A scratch of network `a` used with `b` is rebuilt, not a panic.
    let mut scratch = a.scratch();
    let raw = b.forward(Kernel::detect(), &us, &them, 0, &mut scratch);
    assert_eq!(raw / 16, nnue_core::nnue::evaluate(&b, &pos));
}

/// The int8-row update and the fused ClippedReLU dot product: every kernel equals
/// the scalar one, and the scalar ones equal their int16 / two-step definitions.
#[test]
fn narrow_update_and_clamped_dot_agree_with_scalar() {
    let mut rng = Rng(7);
    let kernels = Kernel::available();
    for &len in &[
        1usize, 7, 15, 16, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200, 256, 300, 512, 1024,
    ] {
        let src: Vec<i16> = (0..len).map(|_| rng.next() as i16).collect();
        let narrow: Vec<i8> = (0..6 * len)
            .map(|k| match k % 7 {
                0 => -128,
                1 => 127,
                _ => rng.next() as i8,
            })
            .collect();
        let wide: Vec<i16> = narrow.iter().map(|&w| i16::from(w)).collect();
        let (removed, added) = ([1u32, 4], [0u32, 5, 5]);
        let mut expected = vec![0i16; len];
        Kernel::Scalar.update(&mut expected, &src, &wide, &removed, &added);
        let mut scalar = vec![0i16; len];
        Kernel::Scalar.update_narrow(&mut scalar, &src, &narrow, &removed, &added);
        assert_eq!(scalar, expected, "scalar narrow update len {len}");

        // Accumulator-like values around the clamp bounds, and extremes.
        let acc: Vec<i16> = (0..len)
            .map(|k| match k % 6 {
                0 => i16::MIN,
                1 => i16::MAX,
                2 => 127,
                3 => 128,
                _ => (rng.next() % 400) as i16 - 200,
            })
            .collect();
        let mut clamped = vec![0u8; len];
        Kernel::Scalar.clamp_to_u8(&acc, &mut clamped);
        let definition = clamped
            .iter()
            .zip(&narrow)
            .fold(0i32, |s, (&x, &w)| s + i32::from(x) * i32::from(w));
        assert_eq!(Kernel::Scalar.clamped_dot(&acc, &narrow[..len]), definition);

        for &kernel in &kernels {
            for offset in [0usize, 1] {
                let mut dst = vec![0i16; len + offset];
                kernel.update_narrow(&mut dst[offset..], &src, &narrow, &removed, &added);
                assert_eq!(
                    dst[offset..],
                    expected[..],
                    "narrow update {kernel:?} len {len}"
                );
                let mut shifted = vec![0i16; len + offset];
                shifted[offset..].copy_from_slice(&acc);
                assert_eq!(
                    kernel.clamped_dot(&shifted[offset..], &narrow[..len]),
                    definition,
                    "clamped dot {kernel:?} len {len}"
                );
            }
            // The fused update and dot product equal the two calls it replaces,
            // for every row count the kernels special-case and a general one.
            let row_lists: [(&[u32], &[u32]); 6] = [
                (&[1], &[0]),
                (&[1, 4], &[0]),
                (&[1], &[0, 5]),
                (&[1, 4], &[0, 5]),
                (&removed, &added),
                (&[], &[]),
            ];
            for (rm, ad) in row_lists {
                let mut fused = vec![0i16; len];
                let weights = &narrow[len..2 * len];
                let dot = kernel.update_narrow_dot(&mut fused, &acc, &narrow, rm, ad, weights);
                let mut apart = vec![0i16; len];
                Kernel::Scalar.update_narrow(&mut apart, &acc, &narrow, rm, ad);
                assert_eq!(fused, apart, "fused update {kernel:?} len {len} {rm:?}");
                assert_eq!(
                    dot,
                    Kernel::Scalar.clamped_dot(&apart, weights),
                    "fused dot {kernel:?} len {len} {rm:?}"
                );
                let mut squared = vec![0i16; len];
                let dot =
                    kernel.update_narrow_screlu_dot(&mut squared, &acc, &narrow, rm, ad, weights);
                assert_eq!(squared, apart, "fused SCReLU update {kernel:?} len {len}");
                assert_eq!(
                    dot,
                    Kernel::Scalar.screlu_dot(&apart, weights),
                    "fused SCReLU dot {kernel:?} len {len} {rm:?}"
                );
            }
            // Unequal lengths use the shorter; bad rows count as zero.
            assert_eq!(
                kernel.clamped_dot(&acc, &narrow[..len / 2]),
                Kernel::Scalar.clamped_dot(&acc[..len / 2], &narrow[..len / 2])
            );
            let mut dst = vec![0i16; len];
            kernel.update_narrow(&mut dst, &src, &narrow, &[99], &[]);
            assert_eq!(dst, src, "{kernel:?} out-of-range narrow row");
        }
    }
}
