"""The whole NNUE loop with the toolkit's three programs, resumable step by step.

    python -m nnue_scripts.pipeline [--small] [--run-dir DIR] [--generations K] [--positions N]
                                    [--depth D] [--features HalfKP,All] [--epochs E] [--match-games G]

First the classical evaluation is distilled into each net (pretraining: a few million
positions from games of mostly random moves, labelled by a 1-ply classical search).
Generation 0 then labels balanced self-play positions with the classical evaluation
(`nnue-gen-sfen generate --use-nnue false`); every later generation k labels them with
net k-1 (`--eval-file`). After each generation, one net per feature set is trained on
all the data so far (`nnue-learn train --quantization-aware`), starting from its pretrained net, and with
`--fine-tune` also from net k-1 (`-ft` steps, to compare the two; 40 epochs at a lower
rate, skipping positions whose best move is a capture or promotion or that are in check:
`--smart-fen-skipping`). A run that carries on from a committed net (`--init-net`) labels its generation 0
with that net, fine-tunes from it, and can add earlier runs' data (`--data`). Each net's
evaluations are checked against the training scores (`nnue-learn check`: Pearson
correlation and mean absolute difference, on the held-out tail of the data; with --small, over the
whole small set), and it plays a match against the classical evaluation
(`nnue_scripts.match`, `EvalFile` vs `Use NNUE=false`, equal time).
With `--external-games N`, each generation also plays N games against the installed
Debian engines (`nnue_scripts.external_games`) whose positions, labelled by the same net
and depth as the self-play, join the training data (`ext<k>.bin`).

Every step writes `DIR/<step>.done` (JSON: command, parameters, seconds, results) when
it finishes, and is skipped when that file exists, so an interrupted run continues
where it stopped: generation resumes by appending the missing records with a fresh
seed part, training with `--resume` from its checkpoint directory. `DIR/log.jsonl`
records every command run. `--small` (a few thousand positions, minutes) is what the
end-to-end check runs; exit status 0 means every step finished and every check held.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import time

from . import steps

ROOT = steps.ROOT
RELEASE = steps.RELEASE
RECORD_BYTES = 40
# Positions whose evaluations are compared with their training scores.
CORRELATION_SAMPLE = 400
# Scores this large are decided positions; the correlation looks at the rest.
CORRELATION_SCORE_LIMIT = 2000
# The trainer holds out the last 5 % of each file for validation (its default
# --validation-fraction); the correlation sample comes from there.
HELD_OUT_FRACTION = 0.05
# What `nnue-learn train --checkpoint-dir D` writes; its presence means --resume.
CHECKPOINT_FILE = "checkpoint.bin"
binary = steps.binary
Run = steps.Run


def build(run, args):
    if args.no_build:
        return
    run.execute("build", ["cargo", "build", "--release", "--bin", "nnue", "--bin", "nnue-gen-sfen", "--bin", "nnue-learn"])


def generate(run, args, step, positions, depth, options):
    """Writes `positions` self-play records to `<step>.bin` with `options` (labels,
    openings), resuming an interrupted run by appending."""
    out = run.path(f"{step}.bin")
    if run.done(step):
        return out
    started = time.time()
    have = os.path.getsize(out) // RECORD_BYTES if os.path.exists(out) else 0
    while have < positions:
        # A resumed generation continues with a new seed part, so it does not replay the
        # games already written.
        command = [
            binary("nnue-gen-sfen"), "generate", "--quiet",
            "--loop", str(positions - have),
            "--depth", str(depth),
            "--threads", str(args.gen_threads or args.threads),
            "--seed", f"{args.seed}-{step}-part{have}",
            "--output-file-name", out,
        ]
        command += ["--append"] if have else []
        command += options
        run.execute(step, command)
        have = os.path.getsize(out) // RECORD_BYTES
    run.finish(step, started, positions=have, depth=depth, options=options)
    return out


def self_play(run, args, k, label_net):
    """Generation k: balanced self-play labelled by net k-1 (for k = 0: the classical
    evaluation, or the --init-net a run carries on from)."""
    labels = ["--eval-file", label_net] if label_net else ["--use-nnue", "false"]
    return generate(run, args, f"gen{k}", args.positions, args.depth, labels + shlex.split(args.gen_args))


def external(run, args, k, label_net):
    """Generation k's games against other engines (--external-games N, off by default):
    our engine with the generation's labelling net (or the classical evaluation) plays
    the installed Debian engines, and every position is labelled as its self-play is
    (same net, same depth) by nnue_scripts.external_games, which resumes from its PGN."""
    step = f"ext{k}"
    out = run.path(f"{step}.bin")
    if run.done(step):
        return out
    started = time.time()
    command = [
        sys.executable, "-m", "nnue_scripts.external_games",
        "--output", out,
        "--games", str(args.external_games),
        "--engine", binary("nnue"),
        "--gen-sfen", binary("nnue-gen-sfen"),
        "--depth", str(args.depth),
        "--seed", str(args.seed_number + k),
        "--concurrency", str(args.threads),
        "--threads", str(args.threads),
    ]
    if label_net:
        command += ["--engine-option", f"EvalFile={label_net}", "--eval-file", label_net]
    else:
        command += ["--engine-option", "Use NNUE=false"]
    command += shlex.split(args.external_args)
    run.execute(step, command)
    run.finish(step, started, games=args.external_games, positions=os.path.getsize(out) // RECORD_BYTES)
    return out


def train(run, args, name, feature_set, data, init_net=None, settings=None):
    """Trains `net<name>.nnue` of `feature_set` on `data`, from random weights or
    from `init_net`; `settings` overrides the run's training options (the
    pretraining has its own)."""
    step = f"train{name}"
    net = run.path(f"net{name}.nnue")
    if run.done(step):
        return net
    started = time.time()
    checkpoints = run.path(f"ckpt{name}")
    options = dict(
        epochs=args.epochs, epoch_size=args.epoch_size, batch_size=args.batch_size,
        lr=args.lr, lr_decay=args.lr_decay, train_lambda=args.train_lambda,
        extra=shlex.split(args.train_args),
    )
    options.update(settings or {})
    command = [
        binary("nnue-learn"), "train", "--train", *data,
        "--feature-set", feature_set,
        "--epochs", str(options["epochs"]),
        "--epoch-size", str(options["epoch_size"]),
        "--batch-size", str(options["batch_size"]),
        "--lr", str(options["lr"]),
        "--lr-decay", str(options["lr_decay"]),
        "--lambda", str(options["train_lambda"]),
        "--threads", str(args.threads),
        "--seed", str(args.seed_number),
        "--output-net", net,
        "--checkpoint-dir", checkpoints,
        "--no-progress",
        # Train through the export's rounding (the output layer's int8 weights move an
        # All 768->256x2->1 net's evaluation by ~30 internal units otherwise).
        "--quantization-aware",
    ]
    command += ["--hidden", args.hidden_all, "--ft-size", str(args.ft_size_all)] if feature_set == "All" else []
    if os.path.exists(os.path.join(checkpoints, CHECKPOINT_FILE)):
        command += ["--resume"]
    elif init_net:
        command += ["--init-net", init_net]
    command += options["extra"]
    run.execute(step, command)
    run.finish(step, started, net=net, data=data, feature_set=feature_set, init_net=init_net, **options)
    return net


# The pretraining data: games of mostly random moves (40 in the first 200 plies, every
# position written) labelled by a 1-ply classical search. Cheap (tens of thousands of
# positions a second) and spread far wider than self-play, so every feature's weights
# learn the classical evaluation, including those of the odd positions a search visits
# but self-play never records (a king on the sixth rank in the middlegame).
PRETRAIN_DEPTH = 1
PRETRAIN_OPTIONS = [
    "--use-nnue", "false", "--random-move-count", "40", "--random-move-minply", "1",
    "--random-move-maxply", "200", "--write-minply", "1", "--eval-limit", "32000",
]


def pretrain(run, args, feature_set):
    """Distils the classical evaluation into a `feature_set` net (scores only, quiet
    positions only); self-play training then starts from it rather than from random
    weights. Without it a net trained on a few million self-play positions evaluates
    what self-play never showed it at random and plays far worse (docs/RESULTS.md)."""
    if not args.pretrain_positions:
        return None
    data = generate(run, args, "pretrain-gen", args.pretrain_positions, PRETRAIN_DEPTH, PRETRAIN_OPTIONS)
    settings = dict(epochs=args.pretrain_epochs, train_lambda=1.0, extra=["--smart-fen-skipping"])
    return train(run, args, f"-pretrain-{feature_set}", feature_set, [data], None, settings)


def net_name(net):
    """`net0-All-ft.nnue` -> `0-All-ft`: the suffix of the training step that wrote it."""
    return os.path.splitext(os.path.basename(net))[0][len("net"):]


def check(run, args, net, data):
    step = f"check{net_name(net)}"
    if run.done(step):
        return
    started = time.time()
    held_out = ["--held-out", str(HELD_OUT_FRACTION)] if args.check_held_out else []
    out = subprocess.run([binary("nnue-learn"), "check", "--net", net, "--data", data, "--count", str(CORRELATION_SAMPLE),
                          "--score-limit", str(CORRELATION_SCORE_LIMIT), *held_out, "--json"], text=True, capture_output=True)
    if out.returncode != 0:
        sys.exit(f"pipeline.py: error: nnue-learn check failed: {out.stderr.strip()}")
    figures = json.loads(out.stdout)
    r, positions = figures["correlation"], figures["positions"]
    print(f"[{step}] correlation of {net}'s evaluations with the training scores: {r:.3f} over {positions} positions"
          f" (mean absolute difference {figures['mean_absolute_difference']:.1f})")
    if r < args.min_correlation:
        sys.exit(f"pipeline.py: error: correlation {r:.3f} is below {args.min_correlation}")
    run.finish(step, started, correlation=round(r, 4), positions=positions)


def match(run, args, net):
    step = f"match{net_name(net)}"
    if run.done(step) or args.match_games == 0:
        return
    started = time.time()
    pgn = run.path(f"{step}.pgn")
    if os.path.exists(pgn):
        os.remove(pgn)  # a match restarts whole: its games are not resumable one by one
    command = [
        sys.executable, "-m", "nnue_scripts.match",
        "--engine", binary("nnue"),
        "--name-a", f"net{net_name(net)}", "--name-b", "classical",
        "--option-a", f"EvalFile={net}", "--option-b", "Use NNUE=false",
        "--games", str(args.match_games),
        "--concurrency", str(args.threads),
        "--pgn", pgn,
        "--event", f"pipeline {step}",
    ]
    command += ["--nodes", str(args.match_nodes)] if args.match_nodes else ["--tc", args.tc]
    output = run.execute(step, command, capture=True)
    final = [line for line in output.splitlines() if line.startswith("final:")]
    print(output.splitlines()[-2] if len(output.splitlines()) > 1 else "", "\n" + (final[0] if final else ""))
    run.finish(step, started, result=final[0] if final else output[-500:], pgn=pgn)


# Random moves only among the four best within half a pawn (instead of Stockfish
# tools' uniformly random ones, which blunder material): games stay balanced, so
# the positions teach judgement rather than material counting (docs/RESULTS.md).
BALANCED_OPENINGS = "--random-multi-pv 4 --random-multi-pv-diff 100 --random-move-count 8 --random-move-maxply 30"

# --small generates with one thread: its data, and so its net and the correlation
# check, are then the same on every run (several threads interleave whole games in
# the order they finish).
# Its held-out tail is only a game or two, so its check samples the whole (training) set.
SMALL = dict(pretrain_positions=20_000, pretrain_epochs=8, generations=2, fine_tune="both", train_lambda=1.0, gen_args="", check_held_out=False, gen_threads=1, features="All", positions=4000, depth=3, epochs=8, epoch_size=4000, batch_size=512, lr=5e-3, lr_decay=1.0, match_games=2, match_nodes=2000, min_correlation=0.5, fine_tune_epochs=8, fine_tune_lr=5e-3, fine_tune_lr_decay=1.0)
FULL = dict(pretrain_positions=6_000_000, pretrain_epochs=20, generations=1, fine_tune=None, train_lambda=0.5, gen_args=BALANCED_OPENINGS, check_held_out=True, gen_threads=0, features="All,HalfKP", positions=2_000_000, depth=6, epochs=120, epoch_size=1_000_000, batch_size=16384, lr=1e-3, lr_decay=0.98, match_games=400, match_nodes=0, min_correlation=0.8, fine_tune_epochs=40, fine_tune_lr=3e-4, fine_tune_lr_decay=0.97)


def starting_points(args, k, feature_set, fine_tuned):
    """How net k of `feature_set` is trained: None = from scratch, a path = fine-tuned
    from that net. With --fine-tune, generation k>0 continues the fine-tuned chain
    (net k-1 of it, or the from-scratch net k-1 where the chain has not started), and
    generation 0 starts from --init-net (a committed net a new run carries on
    from); `both` also trains from scratch, so the two can be compared."""
    previous = None
    if args.fine_tune:
        previous = fine_tuned.get(feature_set)
        if previous is None and k > 0:
            previous = os.path.join(args.run_dir, f"net{k - 1}-{feature_set}.nnue")
        if previous is None and k == 0 and feature_set == args.features.split(",")[0]:
            previous = args.init_net
    if previous is None:
        return [None]
    return [previous] if args.fine_tune == "only" else [None, previous]


# Fine-tuning skips positions whose best move is a capture or promotion, or that are
# in check: their search scores already count the recapture, so they teach a net that
# the material on the board matters little (generation 9: the same run without the
# filter lost about 35 Elo to the net it started from, with it won about 100; see
# docs/RESULTS.md).
FINE_TUNE_FILTER = "--smart-fen-skipping"


def fine_tune_settings(args):
    """A fine-tuning run's length, rate and filter: shorter and gentler than from
    scratch, as the net starts trained (the C3 net: 40 epochs at 3e-4 x0.97 from
    gen4-all512 on all the data beat 120 epochs from random weights), and without the
    noisy positions (FINE_TUNE_FILTER; docs/RESULTS.md)."""
    extra = shlex.split(args.train_args)
    if FINE_TUNE_FILTER not in extra:
        extra.append(FINE_TUNE_FILTER)
    return dict(epochs=args.fine_tune_epochs, lr=args.fine_tune_lr, lr_decay=args.fine_tune_lr_decay, extra=extra)


def parse_args():
    parser = argparse.ArgumentParser(prog="python -m nnue_scripts.pipeline", description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="thousands of positions, minutes (the end-to-end check)")
    parser.add_argument("--run-dir", default=None, help="default: runs/small or runs/main")
    parser.add_argument("--generations", type=int, help="default 1 (--small: 2, the second fine-tuned as well)")
    parser.add_argument("--features", help="comma-separated feature sets to train (All,HalfKP; --small: All)")
    parser.add_argument("--pretrain-positions", type=int, help="positions of the classical pretraining (0: none; default 6 M, --small 20,000)")
    parser.add_argument("--pretrain-epochs", type=int)
    parser.add_argument("--positions", type=int)
    parser.add_argument("--depth", type=int)
    parser.add_argument("--epochs", type=int)
    parser.add_argument("--epoch-size", type=int)
    parser.add_argument("--batch-size", type=int)
    parser.add_argument("--lr", type=float)
    parser.add_argument("--lr-decay", type=float, help="learning-rate factor after every epoch (default 0.98; --small: 1)")
    parser.add_argument("--train-lambda", type=float, help="weight of the search score against the game result (default 0.5; --small: 1)")
    parser.add_argument("--ft-size-all", type=int, default=512, help="All's transformer width (generation 4 in docs/RESULTS.md: 512 beat 256)")
    parser.add_argument("--hidden-all", default="", help="All's hidden layers ('' = none: 768->Nx2->1)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--gen-threads", type=int, help="generation threads (default: --threads; --small: 1)")
    parser.add_argument("--seed", default="pipeline")
    parser.add_argument("--seed-number", type=int, default=1)
    parser.add_argument("--match-games", type=int)
    parser.add_argument("--match-nodes", type=int)
    parser.add_argument("--tc", default="10+0.1")
    parser.add_argument("--min-correlation", type=float)
    parser.add_argument("--check-held-out", type=int, choices=[0, 1], help="correlation on the held-out tail (1) or the whole set (0)")
    parser.add_argument("--gen-args", help=f"extra nnue-gen-sfen generate options (default: '{BALANCED_OPENINGS}'; --small: none)")
    parser.add_argument("--external-games", type=int, default=0,
                        help="also play N games a generation against the installed Debian engines, "
                             "labelled like the self-play (nnue_scripts.external_games; 0: off)")
    parser.add_argument("--external-args", default="", help="extra nnue_scripts.external_games options, e.g. '--nodes 20000'")
    parser.add_argument("--train-args", default="", help="extra nnue-learn train options, e.g. '--eval-limit 800'")
    parser.add_argument(
        "--fine-tune", choices=["both", "only"],
        help="also train each generation k>0 fine-tuned from net k-1 (both: and from scratch, to compare; only: fine-tuned only)",
    )
    parser.add_argument("--fine-tune-epochs", type=int, help="epochs of a fine-tuning run (default 40; --small: 8)")
    parser.add_argument("--fine-tune-lr", type=float, help="its learning rate (default 3e-4: the net is already trained; --small: 5e-3)")
    parser.add_argument("--fine-tune-lr-decay", type=float, help="its learning-rate factor per epoch (default 0.97; --small: 1)")
    parser.add_argument("--init-net", help="a committed net to carry on from (e.g. nets/gen4-all512.nnue): it labels generation 0, which is fine-tuned from it")
    parser.add_argument("--data", nargs="*", default=[], help="earlier generations' .bin files that every training also uses")
    parser.add_argument("--no-build", action="store_true", help="use the binaries already in target/release")
    args = parser.parse_args()
    for key, value in (SMALL if args.small else FULL).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    args.run_dir = args.run_dir or os.path.join(ROOT, "runs", "small" if args.small else "main")
    if args.init_net:
        args.fine_tune = args.fine_tune or "only"
        if not os.path.isfile(args.init_net):
            parser.error(f"--init-net {args.init_net}: no such file")
    if args.external_games < 0:
        parser.error(f"--external-games {args.external_games}: must be at least 0")
    for path in args.data:
        if not os.path.isfile(path):
            parser.error(f"--data {path}: no such file")
    return args


def main():
    args = parse_args()
    run = Run(args.run_dir)
    run.log({"start": vars(args)})
    build(run, args)
    # Generation 0 is labelled by the classical evaluation, or by the committed net a
    # run carries on from (gen4-all512 labelled generations 5 and 6).
    data, label_net = list(args.data), args.init_net
    features = args.features.split(",")
    # Each feature set's pretrained net, made when a training first needs it.
    pretrained = {}
    # Each feature set's latest fine-tuned net (the chain --fine-tune continues).
    fine_tuned = {}
    for k in range(args.generations):
        own = self_play(run, args, k, label_net)
        data.append(own)
        if args.external_games:
            data.append(external(run, args, k, label_net))
        nets = {}
        for feature_set in features:
            for init_net in starting_points(args, k, feature_set, fine_tuned):
                name = f"{k}-{feature_set}" + ("-ft" if init_net else "")
                if not init_net and feature_set not in pretrained:
                    pretrained[feature_set] = pretrain(run, args, feature_set)
                settings = fine_tune_settings(args) if init_net else None
                net = train(run, args, name, feature_set, data, init_net or pretrained[feature_set], settings)
                check(run, args, net, own)
                match(run, args, net)
                if init_net:
                    fine_tuned[feature_set] = net
                nets.setdefault(feature_set, net)
        label_net = nets[features[0]]
    print(f"pipeline: all steps done in {args.run_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
