"""From the classical evaluation to a trained net in one unattended command, within a
measured compute budget.

    python -m nnue_scripts.recipe --budget-core-hours H [--threads T] [--data-dir DIR]
                                  [--out-dir RUN] [--small] [--generations K] [--positions N]
                                  [--fine-tune] [--no-build] [--report-only]
                                  [--slurm-shards N [--slurm-args TEXT]]

The run starts from the classical evaluation alone: no committed net is read and the
engine's embedded net is never used (every program gets `Use NNUE=false`, `--use-nnue
false` or the `EvalFile` of a net this run trained). It then spends its budget in
generations. Generation k:

1. self-play, played and labelled by the best net so far (the classical evaluation
   until a net is promoted), with the options of ft3's data (docs/RESULTS.md, generation
   9, recipe B: depth 8, verified random openings of 8-9 plies, win and draw
   adjudication), into DIR/gen<k>.binpack;
2. a candidate net trained from random weights on all the data kept so far, with the
   noisy-position filter (--fine-tune: from the best net's weights, ft3's recipe, which
   lost 87 Elo to training from scratch at the published run's generation 3);
3. a screen: the candidate against the best at fixed nodes with a pentanomial SPRT
   (nnue_scripts.match --sprt); it is promoted only when the SPRT accepts that it is
   stronger.

Once the budget is spent (or --generations reached), the best net gets the final
strength report (nnue_scripts.gauntlet --preset strength; with --small a few games
against a stand-in), which is paid outside the budget and counted apart.

The budget (nnue_scripts.budget) is the run's total in core-hours: the measured CPU
time of every child (generation, training, matches), shown as it is spent; no step
starts once it is spent, and a running one is stopped. A generation is sized to what is
left, from the CPU time the previous generation's steps measured. Raising
--budget-core-hours on a finished run continues it.

Resuming: every finished step writes a marker (nnue_scripts.steps), the data's in
DIR/gen<k>.done, the nets' and screens' in RUN, and is never run again. Ctrl-C or
SIGTERM is passed on to the running program, which saves what it has (whole games, a
training checkpoint); the same command continues: a generation appends new games to its
file (`--append`), a training resumes from its checkpoint (`--resume`), a screen
restarts. After a reboot a generation file cut in the middle of a write is set aside and
the generation played again.

Output: progress lines, RUN/log.jsonl (every command, with its CPU time), RUN/recipe.md,
RUN/recipe.json and RUN/recipe.png (nnue_scripts.recipe_report). docs/RECIPE.md gives
the choices and their evidence.
"""

import argparse
import fcntl
import math
import os
import re
import signal
import sys
import time

from . import budget, common, recipe_report, slurm_generation, steps

PROGRAM = "recipe.py"
# Where the data goes when --data-dir is not given: outside the repository, so that it
# outlives a checkout and a second night continues the first.
DEFAULT_DATA_DIR = os.path.join(os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share"),
                                "nnue-toolkit", "recipe-data")
DEFAULT_OUT_DIR = os.path.join(steps.ROOT, "runs", "recipe")
# --small keeps everything, its data too, in one folder under target/.
SMALL_OUT_DIR = os.path.join(steps.ROOT, "target", "recipe-small")
# The files that tie a run folder and a data folder together.
STATE_FILE = "state.json"
# Held (flock) by the recipe working on a run folder, so that a second one started on the
# same folder by mistake is refused instead of playing and training into the same files.
LOCK_FILE = "recipe.lock"
DATA_OWNER_FILE = "recipe-data.json"
# What `nnue-learn train --checkpoint-dir D` writes; its presence means --resume.
CHECKPOINT_FILE = "checkpoint.bin"
# The name the screens and reports give the classical evaluation.
CLASSICAL = "classical"
CLASSICAL_OPTION = "Use NNUE=false"
# A generation smaller than this share of --positions is not worth its training and
# screen: the run ends instead.
MIN_GENERATION_SHARE = 0.25

# ft3's data (docs/RESULTS.md, generation 9, recipe B): verified random openings instead
# of random moves, win and draw adjudication. The depth is a setting (8 for ft3).
GENERATION_OPTIONS = [
    "--random-opening-plies", "8-9", "--random-move-count", "0",
    "--adjudicate-win", "1000:8", "--adjudicate-draw", "10:10:40",
]
# Generation 0's material part (Recipe.material): Stockfish tools' random moves, 5 of
# them anywhere in plies 1-24, and no adjudication but the generator's eval limit, so that
# the games keep the imbalances the random moves make.
MATERIAL = "material"
MATERIAL_DONE = f"{MATERIAL}.done"
MATERIAL_OPTIONS = ["--random-move-count", "5", "--random-move-minply", "1", "--random-move-maxply", "24"]
# The net: All 768->512x2->1, quantization-aware (gen4-all512, C3 and ft3).
NET_OPTIONS = ["--feature-set", "All", "--hidden=", "--quantization-aware"]
# The weight of the search score against the game's result (the trainer's --lambda). ft3's
# runs used 0.5 (0.2 and 0.5 alike at generation 4, 0.9 far worse). On the published run's
# own data (docs/RECIPE.md, "Lambda and the net's width"), 0.3 lost -45 [-86, -6] to 0.5;
# 0.75 and 1.0 came out level with it within the noise of 200-game matches and of one
# training seed (0.75: +47, then 0 and -5), so 0.5 stays.
DEFAULT_LAMBDA = 0.5
# Every candidate skips positions whose best move is a capture or promotion, or that are
# in check. Fine-tuning: ft3 against ft1, +100 instead of -35 against the net they started
# from. From random weights on balanced data it is what teaches material: without it the
# positions where one side is a piece up are mostly the middle of an exchange, scored
# level, and the first published run's candidate 0 (2 M positions) valued a missing queen
# at +0.6 pawns and lost 1-18 to the classical evaluation; with it, on the same data, a
# missing queen is +7.8 and the net scores -58 [-141, +18] (docs/RECIPE.md).
NOISY_POSITION_FILTER = "--smart-fen-skipping"
# The screen's score adjudication (ft3's screens): a win at 1000 cp for 3 moves each,
# a draw within 10 cp for 8 moves each after move 40.
SCREEN_ADJUDICATION = ["--resign-score", "1000", "--draw-moves", "8"]

FULL = dict(
    positions=2_000_000, material_positions=300_000, depth=8, opening_check_depth=8, generations=0,
    ft_size=512, batch_size=16384, validation_count=20000,
    scratch_epochs=120, scratch_epoch_size=1_000_000, scratch_lr=1e-3, scratch_lr_decay=0.98,
    fine_tune_epochs=40, fine_tune_epoch_size=1_000_000, fine_tune_lr=3e-4, fine_tune_lr_decay=0.97,
    screen_nodes=20000, screen_games=400, screen_sprt="0,15,0.05,0.1",
)
# --small: every step of the full run on a few thousand positions in seconds. It proves
# the machinery, not strength: its SPRT (alpha = beta = 0.45) decides after a game pair
# or two, whichever way the tiny nets go (the unit tests check both outcomes with fake
# programs).
SMALL = dict(
    positions=3000, material_positions=500, depth=2, opening_check_depth=2, generations=2,
    ft_size=32, batch_size=256, validation_count=0,
    scratch_epochs=2, scratch_epoch_size=3000, scratch_lr=5e-3, scratch_lr_decay=1.0,
    fine_tune_epochs=2, fine_tune_epoch_size=3000, fine_tune_lr=2e-3, fine_tune_lr_decay=1.0,
    screen_nodes=300, screen_games=4, screen_sprt="0,50,0.45,0.45",
)
# The budget of --small when none is given (core-hours): enough for its two generations.
SMALL_BUDGET = 0.05


class UsageError(Exception):
    """A bad option or a folder that does not fit the run: one line, exit status 2."""


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog=f"python -m nnue_scripts.{PROGRAM[:-3]}",
                                     description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--budget-core-hours", type=float, help="the run's total CPU budget (--small: 0.05)")
    parser.add_argument("--threads", type=int, default=2, help="threads of the generator and trainer, games at once (default 2)")
    parser.add_argument("--data-dir", default=None, help=f"the run's .binpack data (default {DEFAULT_DATA_DIR}; --small: RUN/data)")
    parser.add_argument("--out-dir", default=None, help="nets, markers, log and report (default runs/recipe; --small: target/recipe-small)")
    parser.add_argument("--small", action="store_true", help="every step on a few thousand positions: what CI runs")
    parser.add_argument("--generations", type=int, help="stop after K generations (default: until the budget is spent; --small: 2)")
    parser.add_argument("--positions", type=int, help="positions a generation (default 2,000,000; --small: 3000)")
    parser.add_argument("--material-positions", type=int,
                        help="positions of generation 0's material part, games with random moves (default 300,000; "
                             "--small: 500; 0: none)")
    parser.add_argument("--depth", type=int, help="the generator's search depth (default 8, ft3's; --small: 2)")
    parser.add_argument("--seed", default="recipe", help="the generator's and trainer's seed text (default recipe)")
    parser.add_argument("--fine-tune", action="store_true",
                        help="fine-tune each candidate from the best net instead of training it from random weights "
                             "(a third of the training CPU; 87 Elo weaker at the published run's generation 3)")
    parser.add_argument("--lambda", dest="score_weight", type=float, default=DEFAULT_LAMBDA, metavar="L",
                        help=f"the trainer's weight of the search score against the game's result, 0 to 1 "
                             f"(default {DEFAULT_LAMBDA:g})")
    parser.add_argument("--no-build", action="store_true", help="use the programs in target/release as they are")
    parser.add_argument("--no-final-report", action="store_true", help="skip the final strength report")
    parser.add_argument("--report-only", action="store_true", help="run nothing: write the report from the saved steps")
    parser.add_argument("--slurm-shards", type=int, default=0, metavar="N",
                        help="play each generation as a Slurm array of N tasks (scripts/gensfen-slurm.sh; "
                             "DIR on a file system the nodes share; docs/RECIPE.md)")
    parser.add_argument("--slurm-args", default="", metavar="TEXT",
                        help='more sbatch options for the arrays, e.g. "--partition=x --cpus-per-task=8"')
    args = parser.parse_args(argv)
    for key, value in (SMALL if args.small else FULL).items():
        if getattr(args, key, None) is None:
            setattr(args, key, value)
    if args.budget_core_hours is None:
        if not args.small:
            parser.error("--budget-core-hours is required (the run's total CPU time, in core-hours)")
        args.budget_core_hours = SMALL_BUDGET
    if args.budget_core_hours <= 0:
        parser.error(f"--budget-core-hours {args.budget_core_hours:g}: must be above 0")
    for name in ("threads", "positions", "depth"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} {getattr(args, name)}: must be at least 1")
    if not 0 <= args.score_weight <= 1:
        parser.error(f"--lambda {args.score_weight:g}: must be between 0 and 1")
    if args.material_positions < 0:
        parser.error(f"--material-positions {args.material_positions}: must be at least 0 (0: none)")
    if args.slurm_shards < 0:
        parser.error(f"--slurm-shards {args.slurm_shards}: must be at least 1 (0: generate here)")
    try:
        slurm_generation.check_slurm_args(args.slurm_args)
    except ValueError as exc:
        parser.error(str(exc))
    if args.generations < 0:
        parser.error(f"--generations {args.generations}: must be at least 0 (0: until the budget is spent)")
    if args.out_dir is None:
        args.out_dir = SMALL_OUT_DIR if args.small else DEFAULT_OUT_DIR
    args.out_dir = os.path.abspath(args.out_dir)
    if args.data_dir is None:
        args.data_dir = os.path.join(args.out_dir, "data") if args.small else DEFAULT_DATA_DIR
    args.data_dir = os.path.abspath(args.data_dir)
    return args


# --- the run's folders ------------------------------------------------------------------


def lock_run(out_dir):
    """Takes the run folder's lock (created with the folder) and returns its open file,
    which holds the lock until the process ends; UsageError when another recipe holds it.
    The kernel drops the lock with its holder, so a crash or a reboot leaves none behind."""
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise UsageError(f"{out_dir}: not a folder")
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, LOCK_FILE)
    handle = open(path, "a")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise UsageError(f"--out-dir {out_dir}: another recipe is working on this run ({path} is locked); "
                         "let it finish or stop it first") from None
    return handle


def open_folders(args):
    """Creates or reopens RUN and DIR; UsageError when either belongs to another run (a
    run's data and its nets go together: the data's labels came from the run's nets).
    Returns (run, state): `state` counts the invocations, so the report can say how
    often the run was resumed."""
    for path in (args.out_dir, args.data_dir):
        if os.path.exists(path) and not os.path.isdir(path):
            raise UsageError(f"{path}: not a folder")
    run = steps.Run(args.out_dir, PROGRAM)
    state = steps.read_json(run.path(STATE_FILE)) or {"data_dir": args.data_dir, "invocations": 0, "small": args.small}
    if state["data_dir"] != args.data_dir:
        raise UsageError(f"--data-dir {args.data_dir}: the run in {args.out_dir} keeps its data in {state['data_dir']}")
    if state.get("small", False) != args.small:
        raise UsageError(f"--out-dir {args.out_dir}: a {'--small' if state.get('small') else 'full'} run; "
                         f"give {'--small' if state.get('small') else 'no --small'} or another --out-dir")
    os.makedirs(args.data_dir, exist_ok=True)
    owner_path = os.path.join(args.data_dir, DATA_OWNER_FILE)
    owner = steps.read_json(owner_path)
    if owner is not None and owner.get("run") != args.out_dir:
        raise UsageError(f"--data-dir {args.data_dir}: holds the data of the run in {owner.get('run')}; "
                         f"give that --out-dir to continue it, or another --data-dir")
    if owner is None:
        steps.write_json(owner_path, {"run": args.out_dir})
    if not args.report_only:
        state["invocations"] += 1
    steps.write_json(run.path(STATE_FILE), state)
    return run, state


class Recipe:
    """One run: its folders, its ledger, and the steps of each generation."""

    # sbatch, squeue and scancel for --slurm-shards (None: slurm_generation.SlurmCommands;
    # the unit tests put a stand-in here).
    slurm = None

    def __init__(self, args, run, ledger):
        self.args, self.run, self.ledger = args, run, ledger

    def data_path(self, name):
        return os.path.join(self.args.data_dir, name)

    def data_done(self, k):
        return steps.read_json(self.data_path(f"gen{k}.done"))

    def show(self, text):
        print(f"recipe: {text}", flush=True)

    # --- generation ---------------------------------------------------------------------

    def count_positions(self, step, path):
        """Records in a data file (`nnue-gen-sfen stats`, booked to `step`); None when the
        file is damaged (cut in the middle of a write by a crash or a power cut)."""
        lines = []
        status, _, _ = self.ledger.run_child(step, "generation", [steps.binary("nnue-gen-sfen"), "stats", path],
                                             on_line=lines.append, stoppable=False)
        for line in lines:
            if line.startswith("records:"):
                return int(line.split()[1]) if status == 0 else None
        return None

    def generate(self, k, positions, label):
        """Plays generation k's self-play into DIR/gen<k>.binpack, labelled by `label` (a
        net path, or None for the classical evaluation), continuing the file a stopped
        run left: here, or as a Slurm array (--slurm-shards; a generation keeps the way
        it was started). Returns the finished marker, or None when the budget stopped it."""
        out = self.data_path(f"gen{k}.binpack")
        plan = os.path.join(self.data_path(f"gen{k}-shards"), slurm_generation.PLAN_FILE)
        if os.path.exists(plan) or (self.args.slurm_shards and not os.path.exists(out)):
            return self.generate_on_slurm(k, positions, label)
        options = GENERATION_OPTIONS + ["--opening-check-depth", str(self.args.opening_check_depth)]
        have = self.play(f"gen{k}", positions, label, options, f"generation {k}")
        return None if have is None else self.finish_generation(k, have, label)

    def play(self, name, positions, label, options, what):
        """Plays `positions` positions into DIR/<name>.binpack with the generator's
        `options`, continuing what a stopped run left (a file cut in a write is set aside
        and played again). Returns the positions in the file, or None when the budget
        stopped the generator first (DIR/<name>.progress then says how far it got)."""
        out = self.data_path(f"{name}.binpack")
        have = 0
        if os.path.exists(out):
            have = self.count_positions(name, out)
            if have is None:
                damaged = f"{out}.damaged-{int(time.time())}"
                os.replace(out, damaged)
                self.show(f"{what}: {out} was cut in a write; set aside as {damaged}, playing it again")
                have = 0
        labels = ["--eval-file", label] if label else ["--use-nnue", "false"]
        if have < positions:
            command = [
                steps.binary("nnue-gen-sfen"), "generate", "--loop", str(positions - have),
                "--depth", str(self.args.depth), "--threads", str(self.args.threads),
                "--seed", f"{self.args.seed}-{name}", *options, *labels, "--output-file-name", out,
            ]
            # A continued file gets new games: the generator mixes the file's length into the seed.
            command += ["--append"] if os.path.exists(out) else []
            status, _, by_budget = self.ledger.run_child(name, "generation", command)
            if status not in (0, budget.EXIT_SIGINT):
                raise StepFailed(name, status, command)
            have = self.count_positions(name, out) or 0
            if have < positions:
                # What the report says of a generation the budget cut short (kept, and
                # continued by a later run with a larger budget).
                steps.write_json(self.data_path(f"{name}.progress"), {"positions": have, "planned": positions})
                return None
        return have

    def material(self):
        """Generation 0's material part, DIR/material.binpack: games with random moves
        early on (Stockfish tools' defaults), labelled by the classical evaluation, in
        every candidate's data. Balanced, adjudicated games rarely keep a real material
        imbalance, and a net trained on them alone does not learn what a piece is worth
        (docs/RECIPE.md: +10 instead of -49 against the classical evaluation with 300,000
        of them beside 2 M balanced positions). Returns its marker, or None when the
        budget stopped it."""
        done = steps.read_json(self.data_path(MATERIAL_DONE))
        if done:
            return done
        have = self.play(MATERIAL, self.args.material_positions, None, MATERIAL_OPTIONS, "generation 0's material part")
        if have is None:
            return None
        return self.finish_data(MATERIAL, have, None, MATERIAL_OPTIONS)

    def finish_generation(self, k, have, label, **details):
        """Writes generation k's marker (its `have` positions are in DIR/gen<k>.binpack)."""
        return self.finish_data(f"gen{k}", have, label, GENERATION_OPTIONS, **details)

    def finish_data(self, name, have, label, options, **details):
        """Writes DIR/<name>.done, the marker of a finished data file (its `have`
        positions are in DIR/<name>.binpack, played with `options`), and logs it."""
        marker = {"positions": have, "label": label or CLASSICAL, "depth": self.args.depth,
                  "options": options, "file": self.data_path(f"{name}.binpack"),
                  "cpu_seconds": round(self.ledger.step_seconds(name), 1), **details}
        steps.write_json(self.data_path(f"{name}.done"), marker)
        self.run.log({"finished": name, **marker})
        return marker

    def generate_on_slurm(self, k, positions, label):
        """Generation k as a Slurm array (nnue_scripts.slurm_generation): its shards
        played, joined into DIR/gen<k>.binpack and checked; the marker, or None when the
        budget stopped the array."""
        generation = slurm_generation.SlurmGeneration(self, k, self.slurm)
        options = GENERATION_OPTIONS + ["--opening-check-depth", str(self.args.opening_check_depth)]
        details = generation.generate(positions, label, options)
        if details is None:
            return None
        have = self.count_positions(f"gen{k}", self.data_path(f"gen{k}.binpack"))
        if have != details["planned"]:
            raise slurm_generation.SlurmError(f"generation {k}: the joined gen{k}.binpack holds {have} positions, "
                                              f"not the shards' {details['planned']}")
        marker = self.finish_generation(k, have, label, slurm=details)
        generation.clean()
        return marker

    def planned_positions(self, k):
        """Positions for generation k: --positions, or fewer when the budget left would
        not pay for them and for the training and screen after them (costs measured on
        the previous generation); None when even MIN_GENERATION_SHARE of them would not."""
        want = self.args.positions
        previous = self.data_done(k - 1) if k else None
        if not previous or not previous["positions"]:
            return want
        per_position = self.ledger.step_seconds(f"gen{k - 1}") / previous["positions"]
        spare = (self.ledger.left() - self.ledger.step_seconds(f"train{k - 1}")
                 - self.ledger.step_seconds(f"screen{k - 1}"))
        affordable = int(spare / per_position) if per_position > 0 else want
        if affordable < want * MIN_GENERATION_SHARE:
            return None
        return min(want, affordable)

    # --- training -----------------------------------------------------------------------

    def train_command(self, k, data, init_net):
        """The trainer's command for candidate k, with the noisy-position filter: from
        random weights (init_net None) or fine-tuned from `init_net`."""
        a = self.args
        tune = init_net is not None
        epochs, epoch_size, lr, decay = ((a.fine_tune_epochs, a.fine_tune_epoch_size, a.fine_tune_lr, a.fine_tune_lr_decay)
                                         if tune else (a.scratch_epochs, a.scratch_epoch_size, a.scratch_lr, a.scratch_lr_decay))
        checkpoints = self.run.path(f"ckpt{k}")
        command = [
            steps.binary("nnue-learn"), "train", "--train", *data, *NET_OPTIONS, "--lambda", f"{a.score_weight:g}",
            "--ft-size", str(a.ft_size), "--epochs", str(epochs), "--epoch-size", str(epoch_size),
            "--batch-size", str(a.batch_size), "--lr", str(lr), "--lr-decay", str(decay),
            "--threads", str(a.threads), "--seed", "1", "--output-net", self.run.path(f"cand{k}.nnue"),
            "--checkpoint-dir", checkpoints, "--quiet", NOISY_POSITION_FILTER,
        ]
        command += ["--validation-count", str(a.validation_count)] if a.validation_count else []
        if os.path.exists(os.path.join(checkpoints, CHECKPOINT_FILE)):
            command += ["--resume"]
        elif tune:
            command += ["--init-net", init_net]
        return command

    def train(self, k, data, init_net):
        """Trains candidate k; returns its marker, or None when the budget stopped it."""
        step = f"train{k}"
        done = self.run.done(step)
        if done:
            return done
        started = time.time()
        command = self.train_command(k, data, init_net)
        status, seconds, _ = self.ledger.run_child(step, "training", command)
        if status == budget.EXIT_SIGINT:
            return None
        if status != 0:
            raise StepFailed(step, status, command)
        return self.run.finish(step, started, net=self.run.path(f"cand{k}.nnue"), init_net=init_net, data=data,
                               cpu_seconds=round(seconds, 1))

    # --- screening ----------------------------------------------------------------------

    def screen(self, k, best):
        """Plays candidate k against `best` (a net path, or None for the classical
        evaluation) at fixed nodes under the SPRT; returns its marker ({"elo", "low",
        "high", "games", "decision", "promoted"}), or None when the budget stopped it."""
        step = f"screen{k}"
        done = self.run.done(step)
        if done:
            return done
        started = time.time()
        pgn = self.run.path(f"{step}.pgn")
        if os.path.exists(pgn):
            os.remove(pgn)  # a screen restarts whole: an SPRT stopped half way is no result
        a = self.args
        command = [
            sys.executable, "-m", "nnue_scripts.match", "--engine", steps.binary("nnue"),
            "--name-a", f"cand{k}", "--name-b", os.path.basename(best)[:-5] if best else CLASSICAL,
            "--option-a", f"EvalFile={self.run.path(f'cand{k}.nnue')}",
            "--option-b", f"EvalFile={best}" if best else CLASSICAL_OPTION,
            "--nodes", str(a.screen_nodes), "--games", str(a.screen_games), "--sprt", a.screen_sprt,
            "--concurrency", str(a.threads), *SCREEN_ADJUDICATION, "--pgn", pgn, "--event", f"recipe {step}",
        ]
        lines = []

        def on_line(line):
            lines.append(line)
            if line.startswith(("final:", "game")):
                print(f"[{step}] {line}", flush=True)

        status, seconds, by_budget = self.ledger.run_child(step, "screen", command, on_line=on_line)
        if by_budget:
            return None
        final = next((line for line in reversed(lines) if line.startswith("final:")), None)
        if status not in (0, 1) or final is None:
            raise StepFailed(step, status, command, "\n".join(lines[-5:]))
        result = parse_final(final)
        if result["failures"]:
            raise StepFailed(step, status, command, final)
        result["promoted"] = promote(result)
        result["elo_finite"] = round(finite_elo(result), 1)
        return self.run.finish(step, started, **result, final=final, pgn=pgn, cpu_seconds=round(seconds, 1),
                               core_hours=round(self.ledger.spent / budget.CORE_HOUR, 4))

    # --- the loop -----------------------------------------------------------------------

    def generations(self):
        """Runs (or replays from their markers) the generations until the budget or
        --generations ends them. Returns {"generations": records, "best": path or None,
        "best_elo": the best net's Elo over the classical evaluation, summed over the
        screens that promoted it and its predecessors}."""
        a, records = self.args, []
        outcome = {"generations": records, "best": None, "best_elo": 0.0}
        k = 0
        while not a.generations or k < a.generations:
            best = outcome["best"]
            if k == 0 and a.material_positions and not self.data_ready(MATERIAL, MATERIAL_DONE, 0, best, records,
                                                                          outcome):
                break
            if not self.data_ready(f"gen{k}", f"gen{k}.done", k, best, records, outcome):
                break
            material = steps.read_json(self.data_path(MATERIAL_DONE))
            parts = ([material] if material else []) + [self.data_done(i) for i in range(k + 1)]
            data = [part["file"] for part in parts]
            record = {"generation": k, "positions": sum(part["positions"] for part in parts),
                      "label": self.data_done(k)["label"], "net": None, "screen": None,
                      "promoted": False, "core_hours": None}
            records.append(record)
            for name, doing, action in (("train", "training", lambda: self.train(k, data, best if a.fine_tune else None)),
                                        ("screen", "screening", lambda: self.screen(k, best))):
                if not self.run.done(f"{name}{k}"):
                    if self.ledger.exhausted() or a.report_only:
                        return outcome
                    self.progress(k, best, records, f"{doing} candidate {k}")
                if action() is None:
                    return outcome
            screen = self.run.done(f"screen{k}")
            record.update(net=self.run.path(f"cand{k}.nnue"), screen=screen, promoted=screen["promoted"],
                          core_hours=screen["core_hours"])
            if screen["promoted"]:
                outcome["best"], outcome["best_elo"] = record["net"], outcome["best_elo"] + screen["elo_finite"]
            record["best"], record["elo_vs_classical"] = outcome["best"], outcome["best_elo"]
            self.show(f"generation {k}: candidate {'promoted' if screen['promoted'] else 'rejected'} "
                      f"({screen['decision']}, Elo {screen['elo_finite']:+.1f} over {screen['games']} games); "
                      f"best {os.path.basename(outcome['best']) if outcome['best'] else CLASSICAL}; "
                      f"{self.ledger.describe()}")
            k += 1
        return outcome

    def data_ready(self, name, marker, k, best, records, outcome):
        """Plays generation k's part `name` (gen<k>, or generation 0's material part)
        unless its `marker` says it is done; False when the run must end here (budget
        spent, --report-only, or too little budget left for a generation), with
        outcome["unfinished"] saying how far an unfinished part got."""
        if steps.read_json(self.data_path(marker)) is not None:
            return True
        sized = name != MATERIAL and not self.ledger.exhausted()
        positions = self.planned_positions(k) if sized else None
        if sized and positions is None:
            # The budget is as good as spent: the run has ended, not merely stopped.
            if not self.args.report_only:
                self.show(f"the budget left cannot pay for generation {k}: the run ends")
            outcome["budget_ended"] = True
            return False
        if self.ledger.exhausted() or self.args.report_only:
            progress = steps.read_json(self.data_path(f"{name}.progress"))
            if progress:
                outcome["unfinished"] = {"generation": k, **progress}
            return False
        if name == MATERIAL:
            self.progress(k, best, records, f"generating {self.args.material_positions:,} material positions")
            done = self.material()
        else:
            self.progress(k, best, records, f"generating {positions:,} positions")
            done = self.generate(k, positions, best)
        if done is None:
            outcome["unfinished"] = {"generation": k, **steps.read_json(self.data_path(f"{name}.progress"))}
        return done is not None

    def progress(self, k, best, records, doing):
        positions = records[-1]["positions"] if records else 0
        last = next((r["screen"] for r in reversed(records) if r.get("screen")), None)
        last_text = f"{last['decision']} Elo {last['elo_finite']:+.1f}" if last else "none"
        self.show(f"generation {k}: {doing}; {positions:,} positions kept; {self.ledger.describe()}; "
                  f"best {os.path.basename(best) if best else CLASSICAL}; last screen {last_text}")

    def final_report(self, best):
        """The best net's strength report, paid outside the budget (its CPU time is counted
        apart): the gauntlet's --preset strength, or with --small two games each against
        the classical evaluation as a stand-in opponent. Returns its JSON, or None."""
        if self.args.no_final_report or self.args.report_only:
            return steps.read_json(os.path.join(self.run.path("strength"), "gauntlet.json"))
        if best is None and not self.args.small:
            self.show("no net was promoted: no strength report (it would rate the classical evaluation alone)")
            return None
        players = [f"{CLASSICAL}:{CLASSICAL_OPTION}"] + ([f"final:EvalFile={best}"] if best else [])
        command = [sys.executable, "-m", "nnue_scripts.gauntlet", "--engine", steps.binary("nnue"),
                   "--out-dir", self.run.path("strength"), "--concurrency", str(self.args.threads)]
        if self.args.small:
            command += ["--opponent", f"stand-in:{steps.binary('nnue')}:uci:{CLASSICAL_OPTION}",
                        "--anchor", "stand-in=0", "--games", "2", "--nodes", str(self.args.screen_nodes)]
        else:
            command += ["--preset", "strength"]
        for player in players:
            command += ["--player", player]
        status, _, _ = self.ledger.run_child("strength", "report", command, charged=False)
        if status != 0:
            self.show(f"the strength report ended with exit status {status} (see RUN/log.jsonl); rerun to resume it")
        return steps.read_json(os.path.join(self.run.path("strength"), "gauntlet.json"))


# --- the screen's result ------------------------------------------------------------------

FINAL_PATTERN = re.compile(
    r"final: (?P<games>\d+) games: \+(?P<wins>\d+) =(?P<draws>\d+) -(?P<losses>\d+) \(A's view\), "
    r"Elo (?P<elo>[-+]?(?:inf|[\d.]+)) \[(?P<low>[-+]?(?:inf|[\d.]+)), (?P<high>[-+]?(?:inf|[\d.]+))\]"
    r".*?(?:SPRT .* (?P<decision>H1|H0|undecided))?, failures (?P<failures>\d+)")


def parse_final(line):
    """The figures of nnue_scripts.match's `final:` line: games, wins, draws, losses,
    elo, low, high, decision (H1, H0 or undecided) and failures. ValueError for a line
    of another shape."""
    found = FINAL_PATTERN.match(line)
    if not found:
        raise ValueError(f"not a match's final line: {line!r}")
    result = {key: int(found[key]) for key in ("games", "wins", "draws", "losses", "failures")}
    result.update({key: float(found[key]) for key in ("elo", "low", "high")})
    result["decision"] = found["decision"] or "undecided"
    return result


def promote(screen):
    """A candidate is promoted when the SPRT accepted H1 (stronger than the best by the
    test's elo1, at its error rates), or when the screen reached its game cap undecided
    with the whole 95 % interval above 0 (a short screen whose pairs were lopsided can end
    there before its likelihood ratio reaches a bound). Otherwise the best stays: the
    next generation's data is labelled by the best, so a new net must prove itself."""
    if screen["failures"]:
        return False
    if screen["decision"] == "H1":
        return True
    return screen["decision"] == "undecided" and screen["low"] > 0


def finite_elo(screen):
    """The screen's Elo, finite: a score of 0 or 100 % counts as half a game less or
    more (the usual correction), so that a sweep adds a large but finite step to the
    best net's rating over the classical evaluation."""
    if math.isfinite(screen["elo"]):
        return screen["elo"]
    games = screen["games"]
    points = min(max(screen["wins"] + 0.5 * screen["draws"], 0.5), games - 0.5)
    return common.elo_from_score(points / games)


class StepFailed(Exception):
    """A program the recipe ran failed (not stopped by a signal or the budget)."""

    def __init__(self, step, status, command, detail=""):
        text = f"step {step} failed (exit status {status}): {' '.join(command)}"
        super().__init__(text + (f"\n{detail}" if detail else ""))


def stop_on_signal(signum, frame):
    """Ctrl-C or SIGTERM while no program runs: stop as a program's stop would."""
    raise budget.Stopped(budget.EXIT_SIGINT if signum == signal.SIGINT else budget.EXIT_SIGTERM)


def build(args, run):
    if args.no_build or args.report_only:
        return
    command = ["cargo", "build", "--release", "--bin", "nnue", "--bin", "nnue-gen-sfen", "--bin", "nnue-learn"]
    run.execute("build", command)


def main(argv=None):
    args = parse_args(argv)
    try:
        _lock = lock_run(args.out_dir)  # held until main returns
        run, state = open_folders(args)
    except OSError as exc:
        print(f"{PROGRAM}: error: {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    except UsageError as exc:
        print(f"{PROGRAM}: error: {exc}", file=sys.stderr)
        return 2
    run.log({"start": vars(args), "invocation": state["invocations"]})
    build(args, run)
    # --report-only runs no program, so it also rewrites the report of a run folder from
    # a checkout that has not built them.
    for name in () if args.report_only else ("nnue", "nnue-gen-sfen", "nnue-learn"):
        if not os.path.isfile(steps.binary(name)):
            print(f"{PROGRAM}: error: {steps.binary(name)} not found (cargo build --release)", file=sys.stderr)
            return 2
    ledger = budget.Ledger(run, args.budget_core_hours, show=lambda text: print(f"recipe: {text}", flush=True))
    recipe = Recipe(args, run, ledger)
    status = 0
    # Between two programs (while none runs to pass them on to), Ctrl-C and SIGTERM stop
    # the recipe the same way: every file it writes is whole, so it can stop anywhere.
    signal.signal(signal.SIGTERM, stop_on_signal)
    signal.signal(signal.SIGINT, stop_on_signal)
    try:
        outcome = recipe.generations()
        strength = recipe.final_report(outcome["best"])
    except budget.Stopped as stop:
        print(f"recipe: stopped; the same command continues the run ({ledger.describe()})", file=sys.stderr)
        outcome, strength, status = None, None, stop.status
    except (StepFailed, slurm_generation.SlurmError) as exc:
        print(f"{PROGRAM}: error: {exc}", file=sys.stderr)
        return 1
    if outcome is None:
        args.report_only = True
        outcome = recipe.generations()
        strength = steps.read_json(os.path.join(run.path("strength"), "gauntlet.json"))
    report = recipe_report.write(run, args, state, ledger, outcome, strength)
    print(f"recipe: {ledger.describe()}; best {outcome['best'] or CLASSICAL}; report {report}")
    return status


if __name__ == "__main__":
    sys.exit(main())
