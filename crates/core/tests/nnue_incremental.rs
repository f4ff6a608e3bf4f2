//! Incremental accumulator updates equal full refreshes, for every feature set, along
//! random games rich in captures, castling, en passant, promotions and king moves;
//! every SIMD kernel equals the scalar one.

use nnue_test_support::position;
use std::sync::Arc;

use nnue_core::features::{BoardChange, FeatureDelta, FeatureSet, MoveContext};
use nnue_core::nnue::random::splitmix64_finalize;
use nnue_core::nnue::{random_network, AccumulatorStack, Activation, Architecture, Kernel};
use shakmaty::{Chess, Color, Move, Position};

/// Small deterministic generator (SplitMix64) so the test needs no RNG crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        splitmix64_finalize(self.0)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Start positions that reach every special move quickly.
const STARTS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "4k3/1P4P1/8/3pP3/8/8/1p4p1/4K3 w - d6 0 1",
    "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4",
];

#[derive(Default, Debug)]
struct Seen {
    moves: usize,
    captures: usize,
    castles: usize,
    en_passant: usize,
    promotions: usize,
    king_moves: usize,
}

/// Picks a move, preferring special moves half of the time.
fn pick(pos: &Chess, rng: &mut Rng) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let special: Vec<&Move> = moves
        .iter()
        .filter(|m| m.is_capture() || m.is_castle() || m.is_promotion())
        .collect();
    if !special.is_empty() && rng.below(2) == 0 {
        return Some(*special[rng.below(special.len())]);
    }
    Some(moves[rng.below(moves.len())])
}

/// Walks random lines with pushes, pops (to exercise the lazy walk back over
/// uncomputed entries) and null moves, checking at each step.
fn walk(seed: u64, plies: usize, mut check: impl FnMut(&[Chess], &Move, &mut Seen)) -> Seen {
    let mut rng = Rng(seed);
    let mut seen = Seen::default();
    let mut line = vec![position(STARTS[rng.below(STARTS.len())])];
    while seen.moves < plies {
        let pos = line.last().unwrap().clone();
        match pick(&pos, &mut rng) {
            Some(mv) if line.len() < 120 && rng.below(30) != 0 => {
                seen.moves += 1;
                seen.captures += usize::from(mv.is_capture());
                seen.castles += usize::from(mv.is_castle());
                seen.en_passant += usize::from(mv.is_en_passant());
                seen.promotions += usize::from(mv.is_promotion());
                seen.king_moves += usize::from(mv.role() == shakmaty::Role::King);
                let mut next = pos.clone();
                next.play_unchecked(mv);
                line.push(next);
                check(&line, &mv, &mut seen);
                // Now and then go back a few plies and try another branch.
                if rng.below(8) == 0 {
                    let back = 1 + rng.below(3.min(line.len() - 1));
                    line.truncate(line.len() - back);
                }
            }
            _ => line = vec![position(STARTS[rng.below(STARTS.len())])],
        }
    }
    seen
}

/// The feature-level contract: `after = before - removed + added`, exactly.
#[test]
fn changes_turn_active_lists_into_each_other() {
    let specs = [
        "HalfKP",
        "All",
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
        "All+H+V",
        "K*(H+V)+MC",
        "All+MB",
        "All+MC",
        "All+T",
        "KAm8+T",
    ];
    for spec in specs {
        let set = FeatureSet::parse(spec).unwrap();
        let mut rng = Rng(7);
        let mut checked = 0;
        let mut refreshes = 0;
        let mut pos = position(STARTS[1]);
        while checked < 1500 {
            let Some(mv) = pick(&pos, &mut rng) else {
                pos = position(STARTS[rng.below(STARTS.len())]);
                continue;
            };
            let change = BoardChange::of_move(pos.board(), pos.turn(), &mv);
            let mut after = pos.clone();
            after.play_unchecked(mv);
            let mut applied = pos.board().clone();
            change.apply(&mut applied);
            assert_eq!(&applied, after.board(), "{spec}: BoardChange of {mv:?}");
            for perspective in [Color::White, Color::Black] {
                let mv = MoveContext::new(pos.board(), after.board(), &change, perspective);
                if set.needs_refresh(&mv) {
                    refreshes += 1;
                    continue;
                }
                let mut delta = FeatureDelta::default();
                set.changed(&mv, &mut delta);
                let FeatureDelta { removed, added } = delta;
                let mut list = set.active_sorted(pos.board(), perspective);
                for r in &removed {
                    let at = list
                        .binary_search(r)
                        .unwrap_or_else(|_| panic!("{spec}: removed {r} was not active ({mv:?})"));
                    list.remove(at);
                }
                for a in &added {
                    assert!(
                        list.binary_search(a).is_err(),
                        "{spec}: added {a} already active"
                    );
                    list.push(*a);
                    list.sort_unstable();
                }
                assert_eq!(
                    list,
                    set.active_sorted(after.board(), perspective),
                    "{spec}: {mv:?}"
                );
            }
            checked += 1;
            pos = if after.is_game_over() || rng.below(80) == 0 {
                position(STARTS[rng.below(STARTS.len())])
            } else {
                after
            };
        }
        assert!(
            refreshes > 0 || !spec.contains('K'),
            "{spec}: no refresh seen"
        );
    }
}

/// Accumulator stack vs. fresh refresh for every set, every kernel.
#[test]
fn incremental_equals_refresh_for_every_set_and_kernel() {
    let cases: [(&str, usize, &[usize]); 22] = [
        ("HalfKP", 64, &[32, 32]),
        ("All", 64, &[]),
        ("HalfKP", 32, &[]),
        ("All", 48, &[8]),
        ("King-All", 32, &[8]),
        ("H", 40, &[8]),
        ("V", 16, &[8, 8]),
        ("D1", 64, &[8]),
        ("D2", 64, &[8]),
        ("PH", 32, &[8]),
        ("PV", 32, &[8]),
        ("MB", 72, &[16]),
        ("MC", 64, &[8]),
        ("MBp", 24, &[8]),
        ("MCp", 24, &[8]),
        ("T", 24, &[8]),
        ("KAm4", 32, &[8]),
        ("KAm8", 32, &[8]),
        ("All+H+V", 80, &[15, 7]),
        ("All+MB", 16, &[8]),
        ("All+MC", 16, &[8]),
        ("All+T", 16, &[8]),
    ];
    // SCReLU and output buckets, without and with a hidden layer.
    let extra: [(&str, usize, &[usize], Activation, usize); 4] = [
        ("All", 64, &[], Activation::SquaredClippedRelu, 1),
        ("All", 64, &[], Activation::ClippedRelu, 8),
        ("HalfKP", 32, &[], Activation::SquaredClippedRelu, 8),
        ("All", 48, &[8], Activation::SquaredClippedRelu, 8),
    ];
    let arches = cases
        .iter()
        .map(|&(spec, half, hidden)| (spec, half, hidden, Activation::ClippedRelu, 1))
        .chain(extra);
    let kernels = Kernel::available();
    for (k, (spec, half, hidden, activation, buckets)) in arches.enumerate() {
        let arch = Architecture::new(spec, half, hidden)
            .unwrap()
            .with_activation(activation)
            .with_output_buckets(buckets);
        let net = Arc::new(random_network(&arch, 100 + k as u64).unwrap());
        let mut stacks: Vec<AccumulatorStack> = kernels
            .iter()
            .map(|&kernel| AccumulatorStack::with_kernel(Arc::clone(&net), kernel))
            .collect();
        let mut root: Option<Chess> = None;
        let seen = walk(1000 + k as u64, 3000, |line, mv, seen| {
            let before = &line[line.len() - 2];
            let pos = line.last().unwrap();
            // Follow `line`: a new game resets, a shortened line pops back (the
            // walker truncates it to try another branch), then the move is pushed.
            let want = line.len() - 1;
            let restart = root.as_ref() != Some(&line[0]) || want == 1;
            for stack in stacks.iter_mut() {
                if restart {
                    stack.reset(&line[0]);
                } else {
                    while stack.depth() >= want {
                        stack.pop();
                    }
                }
                assert_eq!(stack.depth(), want - 1, "{spec}: stack out of step");
                stack.push(before, mv);
            }
            root = Some(line[0].clone());
            // Evaluate only every third position, so the stack often has to walk
            // back over several entries it has not computed yet.
            if seen.moves % 3 != 0 {
                return;
            }
            let expected = net.evaluate_board(Kernel::Scalar, pos.board(), pos.turn());
            for (stack, kernel) in stacks.iter_mut().zip(&kernels) {
                assert_eq!(
                    stack.evaluate(pos),
                    expected,
                    "{spec} {kernel:?} after {mv:?}"
                );
                for perspective in [Color::White, Color::Black] {
                    let mut fresh = vec![0i16; net.half_dims()];
                    let mut features = Vec::new();
                    net.refresh(
                        Kernel::Scalar,
                        pos.board(),
                        perspective,
                        &mut features,
                        &mut fresh,
                    );
                    assert_eq!(
                        stack.accumulator(perspective),
                        &fresh[..],
                        "{spec} {kernel:?}"
                    );
                }
                // A null move keeps the accumulators; evaluating it flips the view.
                if mv.is_capture() {
                    stack.push_null();
                    let mut null = pos.clone().swap_turn().unwrap_or_else(|_| pos.clone());
                    if null.turn() == pos.turn() {
                        null = pos.clone();
                    }
                    assert_eq!(
                        stack.evaluate(&null),
                        net.evaluate_board(Kernel::Scalar, null.board(), null.turn()),
                        "{spec} {kernel:?} null move"
                    );
                    stack.pop();
                }
            }
        });
        assert!(
            seen.captures > 100
                && seen.castles > 0
                && seen.en_passant > 0
                && seen.promotions > 3
                && seen.king_moves > 20,
            "{spec}: too few special moves {seen:?}"
        );
    }
}

/// A copy of `net` with some transformer weights beyond int8, so the stack must use
/// the int16 rows (random and trained nets fit in int8 and take the int8 copy).
fn widened(net: &nnue_core::nnue::Network) -> nnue_core::nnue::Network {
    let mut weights = net.ft_weights().to_vec();
    for (k, w) in weights.iter_mut().enumerate().step_by(7) {
        *w = if k % 2 == 0 { 300 } else { -1000 };
    }
    let layers = net
        .layers()
        .iter()
        .map(|l| {
            let rows = l.weights.chunks(l.row_len());
            let unpadded = rows.flat_map(|r| r[..l.inputs].to_vec()).collect();
            (l.biases.clone(), unpadded)
        })
        .collect();
    nnue_core::nnue::Network::from_parameters(
        net.architecture().clone(),
        net.ft_biases().to_vec(),
        weights,
        layers,
    )
    .unwrap()
}

/// Evaluating after every push (so the parent is always computed: the fused
/// child update of nets without hidden layers) and the int16-row path (weights
/// beyond int8) give the reference evaluation too, with every kernel.
#[test]
fn every_child_and_wide_weights_agree() {
    let kernels = Kernel::available();
    let cases = [
        ("All", 64, &[][..], false),
        ("All", 128, &[][..], false),
        ("All", 64, &[][..], true),
        ("HalfKP", 32, &[8][..], true),
    ];
    for (k, (spec, half, hidden, wide)) in cases.into_iter().enumerate() {
        let arch = Architecture::new(spec, half, hidden).unwrap();
        let net = random_network(&arch, 500 + k as u64).unwrap();
        let net = Arc::new(if wide { widened(&net) } else { net });
        let mut stacks: Vec<AccumulatorStack> = kernels
            .iter()
            .map(|&kernel| AccumulatorStack::with_kernel(Arc::clone(&net), kernel))
            .collect();
        let mut root: Option<Chess> = None;
        walk(2000 + k as u64, 600, |line, mv, _| {
            let before = &line[line.len() - 2];
            let pos = line.last().unwrap();
            let want = line.len() - 1;
            let restart = root.as_ref() != Some(&line[0]) || want == 1;
            let expected = net.evaluate_board(Kernel::Scalar, pos.board(), pos.turn());
            for (stack, kernel) in stacks.iter_mut().zip(&kernels) {
                if restart {
                    stack.reset(&line[0]);
                } else {
                    while stack.depth() >= want {
                        stack.pop();
                    }
                }
                stack.push(before, mv);
                assert_eq!(
                    stack.evaluate(pos),
                    expected,
                    "{spec} {kernel:?} after {mv:?}"
                );
            }
            root = Some(line[0].clone());
        });
    }
}
