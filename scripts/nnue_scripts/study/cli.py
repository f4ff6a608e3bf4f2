"""The study's command line: the options and their two presets (the full thesis-sized
run and --small, the CI check), and the run itself, step by step: train, measure,
play, rate, report. The package's docstring is the user's guide."""

import argparse
import os
import sys
import time

from .. import adjudication, common
from . import __doc__ as GUIDE
from .charts import elo_chart, loss_chart, validation_curves
from .conditions import conditions_of
from .entries import ANCHOR, DEFAULT_SETS, PQR_FINE_TUNED, parse_seeds, parse_sets, training_order
from .measures import bench_net, measure_features
from .programs import PROGRAM
from .report import report
from .rundir import Study, StudyError
from .settings import settings_of
from .table import table_rows
from .tournament import play_tournament, progress_notes, relative_ratings
from .training import check_sets, train_net

ROOT = common.ROOT
# The presets: --small is the CI check (seconds per step); the full run is the thesis'
# budget per net and 200 games per pairing and condition.
SMALL = dict(sets="All,All+H+V,PQR,PQR-ft", seeds="1", epochs=2, epoch_size=2700, batch_size=256, validation_fraction=0.1,
             games=4, nodes=300, movetime=0.05, max_plies=60, feature_count=300, bench_depth=4, eval_bench_depth=2)
FULL = dict(sets=DEFAULT_SETS, seeds="1", epochs=20, epoch_size=1_000_000, batch_size=16384, validation_fraction=0.05,
            games=200, nodes=20000, movetime=0.1, max_plies=400, feature_count=20000, bench_depth=10,
            eval_bench_depth=4)
SMALL_DATA = os.path.join(ROOT, "tests", "data", "sf_tools_sample.bin")


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog="python -m nnue_scripts.study", description=GUIDE.splitlines()[0])
    parser.add_argument("--small", action="store_true",
                        help="All, All+H+V, PQR and PQR-ft on tests/data/sf_tools_sample.bin, 2 epochs, 4 games per pairing and condition (the CI check)")
    parser.add_argument("--data", nargs="+", default=None, help="training data (.bin, .binpack, .plain)")
    parser.add_argument("--validation", nargs="+", default=[], help="validation data (default: a held-out fraction)")
    parser.add_argument("--validation-fraction", type=float, help="held out of each file without --validation (default 0.05)")
    parser.add_argument("--sets", help="comma-separated feature-set specs, All among them (default: the thesis' list)")
    parser.add_argument("--seeds", help="comma-separated training seeds (default 1)")
    parser.add_argument("--ft-size", type=int, default=512)
    parser.add_argument("--hidden", default="32")
    parser.add_argument("--loss", default="thesis")
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--lr-decay", type=float, default=0.99)
    parser.add_argument("--epochs", type=int, help="default 20 (--small: 2)")
    parser.add_argument("--epoch-size", type=int, help="positions per epoch (default 1,000,000; --small: 2700)")
    parser.add_argument("--batch-size", type=int, help="default 16384 (--small: 256)")
    parser.add_argument("--train-args", default="", help="further nnue-learn train options, the same for every net")
    parser.add_argument("--nodes", type=int, help="nodes per move of the fixed-node games (0: none; default 20000)")
    parser.add_argument("--movetime", type=float, help="seconds per move of the equal-time games (0: none; default 0.1)")
    parser.add_argument("--movetime-margin", type=float, default=0.5, help="latency allowed over --movetime")
    parser.add_argument("--games", type=int, help="games per pairing and condition (default 200; --small: 4)")
    parser.add_argument("--max-plies", type=int, help="a game is a draw after this many plies (default 400; --small: 60)")
    parser.add_argument("--book", default=common.DEFAULT_BOOK)
    adjudication.add_arguments(parser, adjudication.ON)
    parser.add_argument("--feature-data", help="games for the feature counts (default: the first --validation or --data file)")
    parser.add_argument("--feature-count", type=int, help="positions for the feature counts (default 20000)")
    parser.add_argument("--bench-depth", type=int, help="depth of `nnue bench` (default 10; --small: 4)")
    parser.add_argument("--eval-bench-depth", type=int, help="depth of `nnue evalbench` (default 4; --small: 2)")
    parser.add_argument("--threads", type=int, default=2, help="training threads")
    parser.add_argument("--concurrency", type=int, default=2, help="games at a time")
    parser.add_argument("--out-dir", default=None, help="default target/study (--small: target/study-small)")
    parser.add_argument("--no-build", action="store_true", help="use the binaries already in target/release")
    parser.add_argument("--replay-failed", action="store_true",
                        help="play again the saved games that failed (a crash, an illegal move, a loss on time), "
                             "once their cause is mended")
    parser.add_argument("--report-only", action="store_true",
                        help="write the report from what --out-dir holds, training and playing nothing "
                             "(for a look at a run in progress)")
    args = parser.parse_args(argv)
    defaults = SMALL if args.small else FULL
    for key, value in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if args.data is None:
        if not args.small:
            parser.error("--data is required (or --small)")
        args.data = [SMALL_DATA]
    try:
        args.sets = parse_sets(args.sets)
        args.seeds = parse_seeds(args.seeds)
    except ValueError as exc:
        parser.error(str(exc))
    for path in args.data + args.validation:
        if not os.path.isfile(path):
            parser.error(f"{path}: no such file")
    if args.games < 1 or args.epochs < 1 or args.epoch_size < 1 or args.feature_count < 1:
        parser.error("--games, --epochs, --epoch-size and --feature-count must be at least 1")
    if not args.nodes and not args.movetime:
        parser.error("--nodes 0 and --movetime 0 leave no game condition")
    adjudication.check_arguments(parser, args)
    args.feature_data = args.feature_data or (args.validation or args.data)[0]
    args.out_dir = os.path.abspath(args.out_dir or os.path.join(ROOT, "target", "study-small" if args.small else "study"))
    return args



def train_entries(study, args, notes):
    """Trains (or loads) every (set, seed) net in training order; {(spec, seed): record}.
    An entry not trained yet (--report-only) gets a note instead."""
    keys = training_order(args.sets, args.seeds)
    trainings = {}
    for i, (spec, seed) in enumerate(keys):
        init = trainings.get((ANCHOR, seed)) if spec == PQR_FINE_TUNED else None
        record = train_net(study, args, spec, seed, f"[{i + 1}/{len(keys)}]", init)
        if record:
            trainings[(spec, seed)] = record
        else:
            notes.append(f"{spec} (seed {seed}) is not trained yet")
    return trainings


def measure_sets(study, args, notes):
    """The feature counts of every set ({spec: figures or None}), with a note on any
    missing."""
    features = {spec: measure_features(study, args, spec) for spec in args.sets}
    missing = [spec for spec, v in features.items() if v is None]
    if missing and args.report_only:
        notes.append(f"not measured yet: the feature counts of {', '.join(missing)}")
    elif missing:
        notes.append("`nnue-learn features` was not available: inputs, active features and updates per move are missing")
    return features


def play_conditions(study, args, trainings, benches, conditions):
    """Every condition's tournament: (ratings, results, failed games, adjudicated counts),
    the first three keyed by condition."""
    ratings, results, failures, adjudicated = {}, {}, 0, {}
    for condition in conditions:
        results[condition], failed, adjudicated[condition] = play_tournament(study, args, trainings, benches, condition)
        failures += failed
        ratings[condition] = relative_ratings(results[condition], args.sets, args.seeds)
    return ratings, results, failures, adjudicated


def draw_charts(study, rows, trainings, conditions, notes):
    """study-elo.png and study-loss.png; without matplotlib a note, and an older run's
    Elo chart removed (it would show other results). True when drawn."""
    chart_note = elo_chart(study.path("study-elo.png"), rows, conditions)
    loss_chart(study.path("study-loss.png"), validation_curves(trainings))
    if chart_note:
        notes.append(chart_note)
        if os.path.exists(study.path("study-elo.png")):
            os.remove(study.path("study-elo.png"))
    return chart_note is None


def run(study, args):
    """The study's steps in order; returns (report text, failed games, charts drawn)."""
    study.check_settings(settings_of(args))
    study.log({"start": {k: v for k, v in vars(args).items()}})
    if not args.no_build and not args.report_only:
        study.run("build", ["cargo", "build", "--release", "--bin", "nnue", "--bin", "nnue-learn"])
    check_sets(args.sets)
    notes = []
    trainings = train_entries(study, args, notes)
    features = measure_sets(study, args, notes)
    benches = {key: bench_net(study, args, *key, trainings[key]) for key in trainings}
    conditions = conditions_of(args.nodes, args.movetime)
    ratings, results, failures, adjudicated = play_conditions(study, args, trainings, benches, conditions)
    if args.report_only:
        notes += progress_notes(args.sets, args.seeds, args.games, results)
    rows = table_rows(args.sets, args.seeds, trainings, features, benches, ratings, conditions)
    charts = draw_charts(study, rows, trainings, conditions, notes)
    text = report(study, args, rows, conditions, ratings, results, failures, notes, adjudicated)
    return text, failures, charts


def main(argv=None):
    args = parse_args(argv)
    study = Study(args.out_dir)
    started = time.time()
    try:
        text, failures, charts = run(study, args)
    except StudyError as exc:
        study.log({"error": str(exc)})
        print(f"{PROGRAM}: error: {exc}", file=sys.stderr)
        return 1
    print(text)
    print(f"study: done in {time.time() - started:.0f}s; {args.out_dir}/study.md, study.json"
          + (", study-elo.png, study-loss.png" if charts else ""))
    study.log({"finished": round(time.time() - started, 1), "failures": failures})
    return 1 if failures else 0
