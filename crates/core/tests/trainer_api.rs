//! The trainer-facing core: allocation-free extraction bounded by `max_active`,
//! both perspectives in input order, the integer forward pass layer by layer and
//! quantization that counts clamps.

use nnue_core::features::{halfkp::HalfKp, FeatureSet};
use nnue_core::nnue::random::splitmix64_finalize;
use nnue_core::nnue::{
    random_network, Architecture, ArchitectureError, FloatAffine, Kernel, Network,
};
use shakmaty::{Chess, Color, Position};

/// Positions of random games (SplitMix64 choices), captures and promotions included.
fn random_positions(seed: u64, games: usize, plies: usize) -> Vec<Chess> {
    let mut out = Vec::new();
    let mut state = seed;
    for _ in 0..games {
        let mut pos = Chess::default();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let pick = (splitmix64_finalize(state) % moves.len() as u64) as usize;
            pos.play_unchecked(moves[pick]);
            out.push(pos.clone());
        }
    }
    out
}

const SPECS: [&str; 10] = [
    "HalfKP",
    "All",
    "King-All",
    "All+H+V+D1+D2",
    "All+PH+PV",
    "All+MB+MC",
    "K*(H+V)",
    "(K+H)*(V+K)",
    "All+T+MBp+MCp",
    "KAm4+KAm8",
];

#[test]
fn max_active_bounds_every_position_and_buffers_never_grow() {
    let positions = random_positions(11, 12, 120);
    for spec in SPECS {
        let set = FeatureSet::parse(spec).unwrap();
        let cap = set.buffer_capacity();
        let mut stm = Vec::with_capacity(cap);
        let mut nstm = Vec::with_capacity(cap);
        let (p1, p2) = (stm.as_ptr(), nstm.as_ptr());
        for pos in &positions {
            set.active_both(pos.board(), pos.turn(), &mut stm, &mut nstm);
            assert!(stm.len() <= set.max_active(), "{spec}: {}", stm.len());
            assert!(nstm.len() <= set.max_active(), "{spec}");
            // Side to move first, each list exactly the perspective's features.
            assert_eq!(
                sorted(&stm),
                set.active_sorted(pos.board(), pos.turn()),
                "{spec}"
            );
            assert_eq!(sorted(&nstm), set.active_sorted(pos.board(), !pos.turn()));
        }
        assert_eq!(
            (stm.as_ptr(), nstm.as_ptr()),
            (p1, p2),
            "{spec} reallocated"
        );
    }
}

fn sorted(v: &[u32]) -> Vec<u32> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v
}

#[test]
fn max_active_values() {
    for (spec, max) in [
        ("HalfKP", 30),
        ("All", 32),
        ("King-All", 32),
        ("All+H+V", 96),
        ("K*(H+V)", 64),
        ("MB", 768),
        ("MC", 12),
        ("T", 256),
        ("KAm8", 32),
    ] {
        assert_eq!(FeatureSet::parse(spec).unwrap().max_active(), max, "{spec}");
    }
    // HalfKP's bound is reached at the start: 30 non-king pieces.
    let start = Chess::default();
    let set = FeatureSet::parse("HalfKP").unwrap();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    set.active_both(start.board(), Color::Black, &mut a, &mut b);
    assert_eq!((a.len(), b.len()), (30, 30));
    // formats.md 5.1: startpos index sums, White 82950 and Black 63722; the side
    // to move's list comes first.
    assert_eq!(a.iter().map(|&i| u64::from(i)).sum::<u64>(), 63722);
    assert_eq!(b.iter().map(|&i| u64::from(i)).sum::<u64>(), 82950);
    let _ = HalfKp;
}

/// The integer forward pass recomputed from the net's own parameters with
/// formats.md 4.4 arithmetic, compared layer by layer with the scratch.
#[test]
fn forward_pass_is_exposed_layer_by_layer() {
    let arch = Architecture::new("All+H+V", 32, &[16, 8]).unwrap();
    let net = random_network(&arch, 5).unwrap();
    let kernel = Kernel::detect();
    let m = arch.half_dims;
    let mut scratch = net.scratch();
    let mut features = Vec::new();
    for pos in random_positions(3, 2, 40) {
        let (mut us, mut them) = (vec![0i16; m], vec![0i16; m]);
        net.refresh(kernel, pos.board(), pos.turn(), &mut features, &mut us);
        net.refresh(kernel, pos.board(), !pos.turn(), &mut features, &mut them);
        let raw = net.forward(kernel, &us, &them, 0, &mut scratch);
        let input: Vec<u8> = us
            .iter()
            .chain(&them)
            .map(|&v| v.clamp(0, 127) as u8)
            .collect();
        assert_eq!(scratch.transformed(m), &input[..]);
        let mut x = input;
        for (k, layer) in net.layers().iter().enumerate() {
            let sums: Vec<i32> = (0..layer.outputs)
                .map(|o| {
                    let row = &layer.weights[o * layer.row_len()..];
                    layer.biases[o]
                        + x.iter()
                            .zip(row)
                            .map(|(&a, &w)| i32::from(a) * i32::from(w))
                            .sum::<i32>()
                })
                .collect();
            assert_eq!(scratch.affine_output(k), &sums[..], "layer {k}");
            x = sums.iter().map(|&v| (v >> 6).clamp(0, 127) as u8).collect();
            if k + 1 < net.layers().len() {
                assert_eq!(scratch.activation(k), &x[..], "layer {k}");
            } else {
                assert!(scratch.activation(k).is_empty());
                assert_eq!(raw, sums[0]);
            }
        }
    }
}

#[test]
fn quantization_counts_clamped_parameters() {
    let arch = Architecture::new("All", 4, &[2]).unwrap();
    let mut ft_w = vec![0.01f32; 768 * 4];
    ft_w[7] = 300.0; // 38100 > i16::MAX
    ft_w[9] = -258.0; // -32766: fits
    let hidden = FloatAffine {
        biases: vec![0.0, 1.0],
        weights: (0..16)
            .map(|i| match i {
                0 => 1.98,
                1 => 1.99,
                11 => -2.5,
                _ => 0.0,
            })
            .collect(),
    };
    let output = FloatAffine {
        biases: vec![f32::NAN],
        weights: vec![1.6, 1.7],
    };
    let (net, report) =
        Network::from_float_report(arch, &[0.0; 4], &ft_w, &[hidden, output]).unwrap();
    assert_eq!(report.transformer, 1);
    // 1.99·64 = 127.4 → 127 fits; −2.5·64 = −160 clamps; NaN bias; 1.7·75.59 = 128.5.
    assert_eq!(report.layers, 3);
    assert_eq!(report.clamped(), 4);
    assert_eq!(net.ft_weights()[7], i16::MAX);
    assert_eq!(net.ft_weights()[9], -32766);
    assert_eq!(net.layers()[0].weights[1], 127);
    assert_eq!(net.layers()[0].weights[32 + 3], -128);
}

#[test]
fn architecture_errors_are_typed() {
    let mut arch = Architecture::new("All", 8, &[4]).unwrap();
    arch.inputs = 700;
    assert_eq!(
        arch.validate(),
        Err(ArchitectureError::FeatureCount {
            name: "All".to_string(),
            actual: 768,
            stated: 700
        })
    );
    let bad = Architecture::from_description("Features=All[768->8x2],Network=x").unwrap_err();
    assert!(matches!(bad, ArchitectureError::Malformed(_)), "{bad}");
    let err = random_network(&Architecture::new("All", 0, &[]).unwrap(), 1).unwrap_err();
    assert!(
        err.to_string()
            .contains("transformer width 0 is out of range (1 to 65536)"),
        "{err}"
    );
}
