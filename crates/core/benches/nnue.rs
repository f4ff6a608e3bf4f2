//! Evaluation speed: full refresh + forward, and incremental update + forward, for
//! HalfKP 256x2-32-32, All 768->512x2-32-1 and the default net's shape All
//! 768->512x2->1 (no hidden layer; a random net of that shape and, when the
//! repository has it, `nets/default.nnue` itself), and that shape with SCReLU,
//! with 8 material output buckets and with both, per SIMD kernel.
//!
//! Run: `cargo bench -p nnue-core --bench nnue` (plain release flags: the kernel is
//! chosen at run time). Results go to docs/BENCHMARKS-nnue.md.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use nnue_core::nnue::random::splitmix64_finalize;
use nnue_core::nnue::{
    random_network, AccumulatorStack, Activation, Architecture, Kernel, Network,
};
use shakmaty::{Chess, Move, Position};

/// The embedded default net, relative to this crate.
const DEFAULT_NET: &str = "../../nets/default.nnue";

/// How long `NNUE_BENCH_PROFILE` repeats the warm children.
const PROFILE_SECONDS: u64 = 5;

/// Random games from the start position: `(root, moves)` each.
fn games(count: usize, plies: usize) -> Vec<(Chess, Vec<Move>)> {
    let mut state = 0x1234_5678u64;
    let mut next = move |n: usize| {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        (splitmix64_finalize(state) % n as u64) as usize
    };
    let mut out = Vec::new();
    while out.len() < count {
        let root = Chess::default();
        let mut pos = root.clone();
        let mut moves = Vec::new();
        while moves.len() < plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[next(legal.len())];
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        if moves.len() == plies {
            out.push((root, moves));
        }
    }
    out
}

/// Nanoseconds per call for a `round` of `n` calls: the best round of at least ten
/// and at least half a second, so other processes on a shared machine and
/// frequency ramp-up do not count.
fn time(n: usize, mut round: impl FnMut() -> i64) -> f64 {
    let mut best = f64::INFINITY;
    let begin = Instant::now();
    let mut rounds = 0;
    while rounds < 10 || begin.elapsed().as_millis() < 500 {
        let start = Instant::now();
        black_box(round());
        best = best.min(start.elapsed().as_nanos() as f64 / n as f64);
        rounds += 1;
    }
    best
}

/// Every position of `games`, after each move.
fn positions_of(games: &[(Chess, Vec<Move>)]) -> Vec<Chess> {
    games
        .iter()
        .flat_map(|(root, moves)| {
            let mut pos = root.clone();
            moves
                .iter()
                .map(move |&mv| {
                    pos.play_unchecked(mv);
                    pos.clone()
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A position and each legal move from it with the position it leads to.
type Family = (Chess, Vec<(Move, Chess)>);

/// Every tenth position with its children, for the search-like timings.
fn families(positions: &[Chess]) -> Vec<Family> {
    positions
        .iter()
        .step_by(10)
        .map(|pos| {
            let kids = pos
                .legal_moves()
                .into_iter()
                .map(|mv| {
                    let mut child = pos.clone();
                    child.play_unchecked(mv);
                    (mv, child)
                })
                .collect();
            (pos.clone(), kids)
        })
        .collect()
}

/// The kernels named on the command line (`cargo bench -p nnue-core --bench nnue
/// -- avx2` runs only the matching kernels), or all of them.
fn selected_kernels() -> Vec<Kernel> {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .map(|a| a.to_lowercase())
        .collect();
    Kernel::available()
        .into_iter()
        .filter(|kernel| {
            let label = format!("{kernel:?}").to_lowercase();
            filter.is_empty() || filter.iter().any(|f| label.contains(f))
        })
        .collect()
}

/// Refresh and forward pass per position.
fn time_refresh(stack: &mut AccumulatorStack, positions: &[Chess]) -> f64 {
    time(positions.len(), || {
        let mut sum = 0i64;
        for pos in positions {
            stack.reset(pos);
            sum += i64::from(stack.evaluate(pos));
        }
        sum
    })
}

/// Walks each game: every evaluation follows one push, like a search that
/// evaluates each node once (king moves refresh their own perspective). The
/// cost of playing the moves on the board, which an engine pays anyway, is
/// taken off.
fn time_update(stack: &mut AccumulatorStack, games: &[(Chess, Vec<Move>)], n: usize) -> f64 {
    let incremental = time(n, || {
        let mut sum = 0i64;
        for (root, moves) in games {
            let mut pos = root.clone();
            stack.reset(&pos);
            sum += i64::from(stack.evaluate(&pos));
            for &mv in moves {
                stack.push(&pos, &mv);
                pos.play_unchecked(mv);
                sum += i64::from(stack.evaluate(&pos));
            }
        }
        sum
    });
    let board_only = time(n, || {
        let mut sum = 0i64;
        for (root, moves) in games {
            let mut pos = root.clone();
            for &mv in moves {
                pos.play_unchecked(mv);
                sum += i64::from(pos.halfmoves());
            }
        }
        sum
    });
    incremental - board_only
}

/// Search-like: from each position, evaluate every child (push, evaluate, pop),
/// the pattern of leaf and quiescence nodes; siblings share the parent, whose
/// refresh (`refresh` ns) is taken off.
fn time_children(stack: &mut AccumulatorStack, families: &[Family], refresh: f64) -> f64 {
    let child_count: usize = families.iter().map(|(_, k)| k.len()).sum();
    let parents = families.len() as f64 / child_count as f64;
    time(child_count, || {
        let mut sum = 0i64;
        for (pos, kids) in families {
            stack.reset(pos);
            sum += i64::from(stack.evaluate(pos));
            for (mv, child) in kids {
                stack.push(pos, mv);
                sum += i64::from(stack.evaluate(child));
                stack.pop();
            }
        }
        sum
    }) - refresh * parents
}

/// The forward pass alone: accumulators already computed.
fn time_forward(stack: &mut AccumulatorStack, positions: &[Chess]) -> f64 {
    let n = positions.len();
    time(n, || {
        let mut sum = 0i64;
        for pos in positions.iter().take(64) {
            stack.reset(pos);
            stack.evaluate(pos);
            for _ in 0..n / 64 {
                sum += i64::from(stack.evaluate(pos));
            }
        }
        sum
    })
}

fn bench(name: &str, net: Arc<Network>, games: &[(Chess, Vec<Move>)]) {
    // NNUE_BENCH_NET=All (or HalfKP) restricts the run to one net, for profiling.
    if let Ok(only) = std::env::var("NNUE_BENCH_NET") {
        if !name.starts_with(&only) {
            return;
        }
    }
    let positions = positions_of(games);
    let families = families(&positions);
    for kernel in selected_kernels() {
        let mut stack = AccumulatorStack::with_kernel(Arc::clone(&net), kernel);
        // NNUE_BENCH_PROFILE=1: only the warm search-like children, repeated for a
        // few seconds, so `perf record` sees nothing else.
        if std::env::var_os("NNUE_BENCH_PROFILE").is_some() {
            let begin = Instant::now();
            while begin.elapsed().as_secs() < PROFILE_SECONDS {
                black_box(time_children(&mut stack, &families[..20], 0.0));
            }
            continue;
        }
        let refresh = time_refresh(&mut stack, &positions);
        let update = time_update(&mut stack, games, positions.len());
        // Cold: 2,000 different parents, so transformer rows mostly come from
        // memory. Warm: 20 parents whose rows stay in cache, as in a search tree.
        let siblings = time_children(&mut stack, &families, refresh);
        let warm = time_children(&mut stack, &families[..20], refresh);
        let forward = time_forward(&mut stack, &positions);
        println!(
            "{name:<28} {kernel:<10?} refresh+forward {refresh:7.1} ns ({:>8.0}/s)  push+update+forward {update:6.1} ns ({:>8.0}/s)  children {siblings:6.1} ns  warm children {warm:6.1} ns ({:>8.0}/s)  forward {forward:6.1} ns",
            1e9 / refresh,
            1e9 / update,
            1e9 / warm
        );
    }
}

fn main() {
    let games = games(200, 100);
    let halfkp = Arc::new(random_network(&Architecture::halfkp_256(), 20201002).expect("net"));
    bench("HalfKP 41024->256x2-32-32-1", halfkp, &games);
    let all = Architecture::new("All", 512, &[32]).expect("arch");
    let all = Arc::new(random_network(&all, 7).expect("net"));
    bench("All 768->512x2-32-1", all, &games);
    let all_linear = Architecture::new("All", 512, &[]).expect("arch");
    let all_linear = Arc::new(random_network(&all_linear, 7).expect("net"));
    bench("All 768->512x2->1", all_linear, &games);
    for (name, activation, buckets) in [
        (
            "All 768->512x2->1 screlu",
            Activation::SquaredClippedRelu,
            1,
        ),
        ("All 768->512x2->1 buckets=8", Activation::ClippedRelu, 8),
        (
            "All 768->512x2->1 screlu b=8",
            Activation::SquaredClippedRelu,
            8,
        ),
    ] {
        let arch = Architecture::new("All", 512, &[])
            .expect("arch")
            .with_activation(activation)
            .with_output_buckets(buckets);
        bench(
            name,
            Arc::new(random_network(&arch, 7).expect("net")),
            &games,
        );
    }
    // The trained default net: its weights (and so the accumulators' signs) are
    // those the engine really evaluates with.
    let default = Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_NET);
    if let Ok(net) = Network::load(&default) {
        bench("All 768->512x2->1 default", Arc::new(net), &games);
    }
}
