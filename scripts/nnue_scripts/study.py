"""The feature-set study in one command: trains a net per feature set on the same data
with the same budget, measures what each set costs, plays the nets against each other
and rates them jointly relative to All.

    python -m nnue_scripts.study --data D.bin [D2.binpack ...] [--validation V.bin | --validation-fraction 0.05]
                                 [--sets "All,All+H+V,..."] [--seeds 1[,2,...]]
                                 [--ft-size 512] [--hidden 32] [--loss thesis] [--lr 5e-4] [--lr-decay 0.99]
                                 [--epochs 20] [--epoch-size 1000000] [--batch-size 16384] [--train-args "..."]
                                 [--nodes 20000] [--movetime 0.1] [--games 200] [--book data/openings.epd]
                                 [--resign-score 1000] [--resign-moves 3]
                                 [--draw-moves 8] [--draw-score 10] [--draw-after 40]
                                 [--feature-count 20000] [--bench-depth 10]
                                 [--threads 2] [--concurrency 2] [--out-dir target/study] [--no-build]
                                 [--report-only]
    python -m nnue_scripts.study --small      # two sets and PQR, the shipped sample data, a few games

For every (set, seed) it runs `nnue-learn train` with the same options (the thesis'
family by default: N->512x2-32-1, loss |sigmoid(v/361) - sigmoid(score/410)|^2.6, Adam at
lr 5e-4 x0.99 per epoch, the thesis' filter: no |score| > 5000, no capture or check;
`--quantization-aware`, as the pipeline trains); the run's CSV gives the minimum
validation loss, its last line the training positions/s. Per set it measures the inputs,
the active features per position and the features added and removed per move on the
data's games (`nnue-learn features --json`), and per net the search speed (`nnue bench`
in UCI mode after `setoption name EvalFile`).

Two entries of --sets are not feature sets: PQR trains the All net with the thesis' PQR
loss (`--loss pqr`, section 5.3) from random weights, PQR-ft fine-tunes the All net of its
seed with it at lr 1e-4; they play the All net only.

The tournament: every net plays the All net of its seed, and with at most 4 sets every
pair of sets plays (a round robin), --games games per pairing (the book's openings in
order, each with both colours) at a fixed node count (--nodes) and at a fixed time per
move (--movetime; 0 turns a condition off), through nnue_scripts.match, with score
adjudication on (nnue_scripts.adjudication): a game is won once both engines' scores put
one side at least --resign-score centipawns ahead (default 1000) for --resign-moves moves
of each side (3), and drawn once both stayed within --draw-score (10) for --draw-moves
moves of each (8) after move --draw-after (40); --resign-score 0 and --draw-moves 0 turn
the rules off. Per condition all nets are rated jointly by maximum likelihood
(nnue_scripts.rating_fit) with every seed's All net anchored at 0: a set's Elo pools its
seeds' games, and with several seeds each seed's own rating gives the spread.

Output in --out-dir: study.md (the table: set, thesis name where it differs, inputs,
active features, updates per move, minimum validation loss, training positions/s, search
nodes/s, Elo at each condition with its 95 % interval, the thesis' Elo where it has one),
study.json (every figure), study-elo.png and study-loss.png (the Elo chart and every net's
validation loss per epoch, when matplotlib is installed), log.jsonl (every
command run, one JSON object a line), and what each step made: nets/, features/, bench/,
games/<condition>/. A rerun does only what is missing (an interrupted training resumes
from its checkpoint; games are saved as they end); it refuses an --out-dir made with other
settings (data, shape, loss, budget, game conditions, adjudication, measurements), naming
each difference. Sets, seeds and --games may change between runs: new ones are added. A
directory made before score adjudication existed resumes with both rules off
(--resign-score 0 --draw-moves 0). --report-only writes the report from what the
directory holds so far, training, measuring and playing nothing, with a note per condition
on how many of its games are played: a look at a run in progress from another shell.
Exit status: 0 on success, 1 when a step fails or a game failed (crash, illegal move,
time forfeit), 2 on a usage error.
"""

import argparse
import csv
import functools
import json
import math
import os
import re
import shlex
import subprocess
import sys
import time

from . import adjudication, common, rating_fit

PROGRAM = "study.py"
ROOT = common.ROOT
RELEASE = common.RELEASE
ANCHOR = "All"
# The thesis' sets, and ours that it only sketched (T, KAm8) or defined without results.
DEFAULT_SETS = ("H+V,D1+D2,H+V+D1+D2,All,All+H+V,All+D1+D2,All+H+V+D1+D2,All+PH,All+PV,All+PH+PV,"
                "All+MB,All+MC,All+T,KAm8,HalfKP,King-All,PQR,PQR-ft")
ROUND_ROBIN_MAX = 4
# Entries that are not feature sets: the thesis' PQR training (section 5.3, `nnue-learn
# train --loss pqr`) of the All net, from random weights (PQR) and fine-tuned from the All
# net of the same seed (PQR-ft). Their validation loss is a PQR loss, not comparable with
# the score-trained sets'.
PQR = "PQR"
PQR_FINE_TUNED = "PQR-ft"
PQR_ENTRIES = (PQR, PQR_FINE_TUNED)
# The thesis' PQR fine-tuning gained most at lr 1e-4 (lower rates did better).
PQR_FINE_TUNE_LR = 1e-4
NAME_PATTERN = re.compile(r"[^A-Za-z0-9._+-]")
# The engine in every game: one thread, 16 MiB of hash.
ENGINE_OPTIONS = {"Threads": "1", "Hash": "16"}

# The thesis' result table ("Feature set analysis for chess NNUE networks", M. E.
# Lombardo, 2024): inputs, minimum validation loss (its loss, its data), Elo against All
# with its interval, keyed by our spec of the same set (docs/FEATURES.md: our H is its V,
# our D1 its D2; PH and PV as its text names them).
THESIS = {
    "All": (768, 0.003134, 0.0, 0.0),
    "All+H+V": (960, 0.003082, -27.1, 4.1),
    "All+D1+D2": (1128, 0.003087, -26.1, 3.8),
    "All+H+V+D1+D2": (1320, 0.003067, -58.7, 3.7),
    "H+V+D1+D2": (552, 0.003907, -183.5, 4.1),
    "H+V": (192, 0.005810, -384.3, 5.1),
    "D1+D2": (360, 0.006707, -444.1, 5.1),
    "All+PH": (1920, 0.003033, -38.2, 4.8),
    "All+PV": (1920, 0.002946, -8.4, 5.0),
    "All+PH+PV": (3072, 0.002868, -37.6, 4.9),
    "All+MB": (1536, 0.002824, -260.9, 5.4),
    "All+MC": (974, 0.003032, -280.9, 5.6),
}
# Our block -> the thesis' name of the same block, and the name its code uses.
THESIS_BLOCKS = {"H": "V", "V": "H", "D1": "D2", "D2": "D1"}
THESIS_CODE = {"PH": "pv", "PV": "ph"}

SMALL = dict(sets="All,All+H+V,PQR,PQR-ft", seeds="1", epochs=2, epoch_size=2700, batch_size=256, validation_fraction=0.1,
             games=4, nodes=300, movetime=0.05, max_plies=60, feature_count=300, bench_depth=4, eval_bench_depth=2)
FULL = dict(sets=DEFAULT_SETS, seeds="1", epochs=20, epoch_size=1_000_000, batch_size=16384, validation_fraction=0.05,
            games=200, nodes=20000, movetime=0.1, max_plies=400, feature_count=20000, bench_depth=10,
            eval_bench_depth=4)
SMALL_DATA = os.path.join(ROOT, "tests", "data", "sf_tools_sample.bin")


class StudyError(Exception):
    """A failed step or unusable saved results: one line, exit status 1."""


# --- pure parts (unit-tested) ----------------------------------------------------------


def parse_sets(text):
    """The comma-separated specs, in order; ValueError for an empty list, a set named
    twice, or a list without All (the anchor every net is rated against)."""
    sets = [s.strip() for s in text.split(",") if s.strip()]
    if not sets:
        raise ValueError("--sets names no feature set")
    seen = set()
    for spec in sets:
        if spec in seen:
            raise ValueError(f"--sets names {spec} twice")
        seen.add(spec)
    if ANCHOR not in seen:
        raise ValueError(f"--sets must contain {ANCHOR}: every net is rated against it")
    return sets


def parse_seeds(text):
    """'1,2,3' as [1, 2, 3]; ValueError for a repeat or a non-integer."""
    try:
        seeds = [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise ValueError(f"--seeds '{text}' is not a comma-separated list of integers") from None
    if not seeds or len(set(seeds)) != len(seeds) or min(seeds) < 0:
        raise ValueError(f"--seeds '{text}' must list distinct non-negative integers")
    return seeds


def feature_set_of(spec):
    """The feature set an entry trains: its own, or All for the PQR entries."""
    return ANCHOR if spec in PQR_ENTRIES else spec


def entry_options(options, spec, init_net=None):
    """The shared training options adapted to an entry: PQR's loss instead of the study's,
    and for PQR-ft the starting net (`--init-net`) and the fine-tuning lr."""
    if spec not in PQR_ENTRIES:
        return list(options)
    changed = {"--loss": "pqr"}
    if spec == PQR_FINE_TUNED:
        changed["--lr"] = repr(PQR_FINE_TUNE_LR)
    out = list(options)
    for i, option in enumerate(out[:-1]):
        if option in changed:
            out[i + 1] = changed[option]
    if spec == PQR_FINE_TUNED:
        if init_net is None:
            raise ValueError(f"{PQR_FINE_TUNED} needs the {ANCHOR} net to start from")
        out += ["--init-net", init_net]
    return out


def training_order(sets, seeds):
    """(set, seed) in training order: PQR-ft after the All net it starts from."""
    return [(spec, seed) for seed in seeds for spec in sorted(sets, key=lambda s: s == PQR_FINE_TUNED)]


def slug(spec):
    """A file-name-safe form of a spec ('K*(H+V)' -> 'K_H+V_')."""
    return NAME_PATTERN.sub("_", spec)


def net_name(spec, seed):
    return f"{slug(spec)}-s{seed}"


def thesis_name(spec):
    """The thesis' name of our set where it differs ('' where it is the same): its H and
    V, D1 and D2 are swapped relative to ours; its code calls PH `pv` and PV `ph`."""
    if any(c in spec for c in "*()"):
        return ""
    blocks = spec.split("+")
    name = "+".join(THESIS_BLOCKS.get(b, b) for b in blocks)
    code = [f"{b}: code {THESIS_CODE[b]}" for b in blocks if b in THESIS_CODE]
    text = name if name != spec else ""
    if code:
        text = f"{text or spec} ({', '.join(code)})"
    return text


def settings_differences(saved, current):
    """'key: saved X, now Y' for every key whose value differs (a missing key is
    '(none)'), sorted; empty when the two agree."""
    lines = []
    for key in sorted(set(saved) | set(current)):
        old, new = saved.get(key, "(none)"), current.get(key, "(none)")
        if old != new:
            lines.append(f"{key}: saved {json.dumps(old)}, now {json.dumps(new)}")
    return lines


def tournament_pairings(sets, seeds, round_robin_max=ROUND_ROBIN_MAX):
    """[(net A, net B)] for one condition: every set against All of the same seed, and
    with at most `round_robin_max` feature sets every pair of them (of the same seed). The
    PQR entries, trainings of All rather than feature sets, play All only."""
    pairs = []
    feature_sets = [s for s in sets if s not in PQR_ENTRIES]
    for seed in seeds:
        others = [s for s in feature_sets if s != ANCHOR]
        if len(feature_sets) <= round_robin_max:
            ordered = [ANCHOR] + others
            for i, a in enumerate(ordered):
                for b in ordered[i + 1:]:
                    pairs.append((net_name(b, seed), net_name(a, seed)))
        else:
            pairs += [(net_name(s, seed), net_name(ANCHOR, seed)) for s in others]
        pairs += [(net_name(s, seed), net_name(ANCHOR, seed)) for s in sets if s in PQR_ENTRIES]
    return pairs


def validation_points(rows):
    """[(epoch, val_loss)] of the CSV rows (dicts of strings) of epochs >= 1 with a
    finite validation loss."""
    points = [(int(r["epoch"]), float(r["val_loss"])) for r in rows
              if int(r["epoch"]) >= 1 and r.get("val_loss") not in (None, "")]
    return [(e, v) for e, v in points if math.isfinite(v)]


def min_validation_loss(rows):
    """The least val_loss of the CSV rows of epochs >= 1, or None."""
    values = [v for _, v in validation_points(rows)]
    return min(values) if values else None


TRAIN_RATE = re.compile(r"\((\d+) in ([0-9.]+) s, (\d+) positions/s\)")


def training_rate(text):
    """Positions/s from the last line of nnue-learn train ('... (5400 in 0.8 s, 6583
    positions/s) ...') that trained any position (a resumed run that had nothing left
    to do reports 0 in its own line), or None."""
    found = [int(rate) for positions, _, rate in TRAIN_RATE.findall(text) if int(positions) > 0]
    return found[-1] if found else None


BENCH_NPS = re.compile(r"^Nodes/second\s*:\s*(\d+)", re.M)
BENCH_NODES = re.compile(r"^Nodes searched\s*:\s*(\d+)", re.M)
EVAL_BENCH_RATE = re.compile(r"^Evaluations/second\s*:\s*(\d+)", re.M)


def bench_figures(text, net):
    """(nodes, nodes/s, evaluations/s) from the output of `nnue` bench and evalbench,
    after checking that the engine said it uses `net`; StudyError otherwise."""
    if "info string error" in text or f"NNUE evaluation using {net}" not in text:
        lines = [line for line in text.splitlines() if line.startswith("info string")]
        raise StudyError(f"the engine did not load {net}: {' | '.join(lines) or 'no info string'}")
    nps, nodes, evals = BENCH_NPS.search(text), BENCH_NODES.search(text), EVAL_BENCH_RATE.search(text)
    if not nps or not nodes or not evals:
        raise StudyError(f"no bench figures in the engine's output for {net}")
    return int(nodes.group(1)), int(nps.group(1)), int(evals.group(1))


def split_name(name, sets, seeds):
    """net name -> (spec, seed)."""
    for spec in sets:
        for seed in seeds:
            if net_name(spec, seed) == name:
                return spec, seed
    raise KeyError(name)


def relative_ratings(results, sets, seeds):
    """Ratings relative to All from one condition's results, a list of (net A, net B,
    wins, draws, losses) in A's view. Returns {"pooled": {spec: Rating}, "per_seed":
    {(spec, seed): Rating}}: pooled fits a set's seeds' games as one player with All
    anchored at 0; per seed, every seed's All net is anchored at 0."""
    per_seed_anchor = {net_name(ANCHOR, seed): 0.0 for seed in seeds}
    per_seed = {}
    if results:
        fitted = rating_fit.fit(results, per_seed_anchor).ratings
        for name, rating in fitted.items():
            per_seed[split_name(name, sets, seeds)] = rating
    pooled_results = [(split_name(a, sets, seeds)[0], split_name(b, sets, seeds)[0], w, d, l)
                      for a, b, w, d, l in results]
    pooled = rating_fit.fit(pooled_results, {ANCHOR: 0.0}).ratings if results else {}
    for seed in seeds:
        per_seed[(ANCHOR, seed)] = rating_fit.Rating("anchor", 0.0, 0.0, 0.0)
    pooled[ANCHOR] = rating_fit.Rating("anchor", 0.0, 0.0, 0.0)
    return {"pooled": pooled, "per_seed": per_seed}


def spread(values):
    """(min, max, sample standard deviation) of the numbers given (None left out), or None
    with fewer than two."""
    values = [v for v in values if v is not None]
    if len(values) < 2:
        return None
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    return min(values), max(values), sd


def format_rating(rating):
    """'-27 [-41, -13]', '0 (anchor)', '> +250', '< -300' or '—'."""
    if rating is None:
        return "—"
    if rating.status == "anchor":
        return "0 (anchor)"
    if rating.status == rating_fit.FITTED:
        return f"{signed(rating.estimate)} [{signed(rating.low)}, {signed(rating.high)}]"
    if rating.status == rating_fit.ABOVE and rating.low is not None:
        return f"> {signed(rating.low)}"
    if rating.status == rating_fit.BELOW and rating.high is not None:
        return f"< {signed(rating.high)}"
    return rating.status


def signed(value):
    """A rounded Elo with its sign ('+0' rather than '-0')."""
    text = f"{value:+.0f}"
    return "+0" if text == "-0" else text


def format_number(value, digits=0):
    if value is None:
        return "—"
    if digits == 0:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"


def mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def table_rows(sets, seeds, trainings, features, benches, ratings, conditions):
    """One dict per set with every figure of the table. `trainings` and `benches` map
    (spec, seed) to dicts ({"min_val_loss", "positions_per_second"},
    {"nodes_per_second", "evaluations_per_second"}),
    `features` spec to the `nnue-learn features --json` dict, `ratings` condition to
    relative_ratings' result; seeds are averaged, their spread kept."""
    rows = []
    for spec in sets:
        train = [trainings.get((spec, seed)) or {} for seed in seeds]
        bench = [benches.get((spec, seed)) or {} for seed in seeds]
        feats = features.get(spec) or {}
        losses = [t.get("min_val_loss") for t in train]
        row = {
            "set": spec,
            "thesis_name": thesis_name(spec),
            "inputs": feats.get("inputs"),
            "active_per_position": feats.get("active_per_position"),
            "added_per_move": feats.get("added_per_move"),
            "removed_per_move": feats.get("removed_per_move"),
            "refresh_rate": feats.get("refresh_rate"),
            "min_val_loss": mean(losses),
            "min_val_loss_spread": spread(losses),
            "train_positions_per_second": mean([t.get("positions_per_second") for t in train]),
            "nodes_per_second": mean([b.get("nodes_per_second") for b in bench]),
            "evaluations_per_second": mean([b.get("evaluations_per_second") for b in bench]),
            "elo": {},
            "elo_spread": {},
            "thesis": None,
        }
        for condition in conditions:
            result = ratings.get(condition) or {"pooled": {}, "per_seed": {}}
            row["elo"][condition] = result["pooled"].get(spec)
            per_seed = [result["per_seed"].get((spec, seed)) for seed in seeds]
            row["elo_spread"][condition] = spread([r.estimate for r in per_seed
                                                   if r is not None and r.status == rating_fit.FITTED])
        if spec in THESIS:
            inputs, loss, elo, pm = THESIS[spec]
            row["thesis"] = {"inputs": inputs, "min_val_loss": loss, "elo": elo, "interval": pm}
        rows.append(row)
    return rows


def markdown_table(rows, conditions):
    """The study's table as Markdown lines."""
    head = ["set", "thesis name", "inputs", "active / position", "added / removed per move",
            "min. val. loss", "train pos/s", "evals/s", "nodes/s"]
    head += [f"Elo, {condition_label(c)}" for c in conditions] + ["thesis: Elo (100 ms)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        updates = "—"
        if row["added_per_move"] is not None and row["removed_per_move"] is not None:
            updates = f"{row['added_per_move']:.2f} / {row['removed_per_move']:.2f}"
        loss = format_number(row["min_val_loss"], 6)
        if row["min_val_loss_spread"]:
            low, high, _ = row["min_val_loss_spread"]
            loss += f" ({low:.6f}–{high:.6f})"
        cells = [f"`{row['set']}`", row["thesis_name"] or "", format_number(row["inputs"]),
                 format_number(row["active_per_position"], 1), updates, loss,
                 format_number(row["train_positions_per_second"]), format_number(row["evaluations_per_second"]),
                 format_number(row["nodes_per_second"])]
        for condition in conditions:
            cell = format_rating(row["elo"].get(condition))
            seeds = row["elo_spread"].get(condition)
            if seeds:
                cell += f" (seeds {signed(seeds[0])}..{signed(seeds[1])})"
            cells.append(cell)
        thesis = row["thesis"]
        cells.append("—" if thesis is None else
                     ("0" if thesis["elo"] == 0 else f"{thesis['elo']:+.1f} ± {thesis['interval']}"))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def progress_notes(sets, seeds, games, results):
    """For a report of a run in progress (--report-only): per condition whose games are
    not all played, how many of them are."""
    planned = len(tournament_pairings(sets, seeds)) * games
    notes = []
    for condition, rows in results.items():
        played = sum(w + d + l for _, _, w, d, l in rows)
        if played < planned:
            notes.append(f"a run in progress: {condition_label(condition)}, {played:,} of {planned:,} games "
                         "played; its ratings are on those games")
    return notes


def condition_label(condition):
    """'nodes20000' -> '20000 nodes', 'movetime0.1' -> '100 ms'."""
    if condition.startswith("nodes"):
        return f"{condition[len('nodes'):]} nodes"
    return f"{float(condition[len('movetime'):]) * 1000:g} ms"


def conditions_of(nodes, movetime):
    """The game conditions that are on, as directory names."""
    return ([f"nodes{nodes}"] if nodes else []) + ([f"movetime{movetime:g}"] if movetime else [])


def rating_dict(rating):
    if rating is None:
        return None
    return rating.as_dict()


# --- the run ---------------------------------------------------------------------------


class Study:
    """The output directory: settings, the command log, saved steps, progress."""

    def __init__(self, directory):
        self.dir = directory
        os.makedirs(directory, exist_ok=True)

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def log(self, entry):
        with open(self.path("log.jsonl"), "a") as f:
            f.write(json.dumps({"time": time.strftime("%Y-%m-%dT%H:%M:%S"), **entry}) + "\n")

    def check_settings(self, settings):
        """Saves the settings on the first run; refuses a directory made with others."""
        path = self.path("settings.json")
        if os.path.exists(path):
            with open(path) as f:
                saved = json.load(f)
            diffs = settings_differences(saved, settings)
            if diffs:
                hint = adjudication.resume_hint(saved, settings)
                raise StudyError(f"{self.dir} holds results made with other settings ({'; '.join(diffs)}){hint}; "
                                 "use another --out-dir or delete it")
            return
        write_json(path, settings)

    def load(self, *parts, config=None):
        """A saved step's record, or None; StudyError when its config differs."""
        path = self.path(*parts)
        if not os.path.exists(path):
            return None
        with open(path) as f:
            record = json.load(f)
        if config is not None and record.get("config") != config:
            diffs = settings_differences(record.get("config") or {}, config)
            raise StudyError(f"{path} was made with other settings ({'; '.join(diffs)}); delete it or use another --out-dir")
        return record

    def run(self, step, command, stdin=None, log_file=None, echo=None):
        """Runs a command (logged first); returns its output (stdout and stderr).
        With `log_file` the output also goes there as it comes, and lines starting with
        one of `echo` are shown."""
        self.log({"step": step, "command": command})
        print(f"[{step}] $ {shlex.join(command)}", flush=True)
        started = time.time()
        proc = subprocess.Popen(command, cwd=ROOT, text=True, stdin=subprocess.PIPE if stdin else None,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if stdin:
            proc.stdin.write(stdin)
            proc.stdin.close()
        out = []
        log = open(log_file, "a") if log_file else None
        try:
            for line in proc.stdout:
                out.append(line)
                if log:
                    log.write(line)
                    log.flush()
                if echo and line.startswith(echo):
                    print(f"[{step}] {line.rstrip()}", flush=True)
        finally:
            if log:
                log.close()
        code = proc.wait()
        text = "".join(out)
        self.log({"step": step, "exit": code, "seconds": round(time.time() - started, 1)})
        if code != 0:
            tail = "".join(out[-5:]).strip()
            raise StudyError(f"step {step} failed (exit {code}): {shlex.join(command)}\n{tail}")
        return text


def write_json(path, record):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(record, f, indent=1)
    os.replace(tmp, path)


def binary(name):
    return os.path.join(RELEASE, name)


@functools.lru_cache(maxsize=None)
def engine_sha256():
    """The SHA-256 of the engine build, read once per run (after the build step): every
    bench record names the build it measured."""
    return common.file_sha256(binary("nnue"))


def file_identity(path):
    return {"path": os.path.abspath(path), "bytes": os.path.getsize(path)}


def train_options(args):
    """The nnue-learn train options every net shares (all but the set, seed and outputs)."""
    options = ["--train", *args.data]
    if args.validation:
        options += ["--validation", *args.validation]
    else:
        options += ["--validation-fraction", str(args.validation_fraction)]
    options += [
        "--ft-size", str(args.ft_size), "--hidden", args.hidden, "--loss", args.loss,
        "--optimizer", "adam", "--lr", str(args.lr), "--lr-decay", str(args.lr_decay),
        "--epochs", str(args.epochs), "--epoch-size", str(args.epoch_size), "--batch-size", str(args.batch_size),
        # The thesis' filter: no |score| > 5000, no capture (ours: or promotion), no check.
        "--eval-limit", "5000", "--smart-fen-skipping",
        "--quantization-aware",
    ]
    return options + shlex.split(args.train_args)


def settings_of(args):
    """What must be the same for saved results to be reused."""
    settings = {
        "data": [file_identity(p) for p in args.data],
        "validation": [file_identity(p) for p in args.validation],
        "validation_fraction": None if args.validation else args.validation_fraction,
        **{key: getattr(args, key) for key in ("ft_size", "hidden", "loss", "lr", "lr_decay", "epochs",
                                               "epoch_size", "batch_size", "train_args")},
        "conditions": conditions_of(args.nodes, args.movetime),
        "book": os.path.abspath(args.book),
        "max_plies": args.max_plies,
        "feature_data": file_identity(args.feature_data),
        "feature_count": args.feature_count,
        "bench_depth": args.bench_depth,
    }
    # Only when on, so a directory made before adjudication existed resumes with it off.
    rules = adjudication.Rules.from_args(args).record()
    if rules:
        settings["adjudication"] = rules
    return settings


def check_sets(sets):
    """Refuses, before any training, a spec the core does not know (through `nnue-learn
    features --fen`, which builds the set's encoder)."""
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    for spec in sets:
        out = subprocess.run([binary("nnue-learn"), "features", "--feature-set", feature_set_of(spec), "--fen", fen],
                             text=True, capture_output=True)
        if out.returncode != 0:
            raise StudyError(f"--sets: {spec}: {out.stderr.strip() or 'refused by nnue-learn features'}")


def train_net(study, args, spec, seed, progress, init=None):
    """Trains (or resumes) one net (PQR-ft from `init`, the All net's record); returns its
    record."""
    name = net_name(spec, seed)
    config = {"set": spec, "seed": seed}
    if spec == PQR_FINE_TUNED:
        if init is None:  # --report-only, before the All net is trained
            return None
        config["init_sha256"] = init["sha256"]
    record = study.load("nets", f"{name}.json", config=config)
    if record or args.report_only:
        return record
    os.makedirs(study.path("nets"), exist_ok=True)
    net, checkpoints = study.path("nets", f"{name}.nnue"), study.path("nets", f"{name}-ckpt")
    options = entry_options(train_options(args), spec, init and init["net"])
    command = [binary("nnue-learn"), "train", *options, "--feature-set", feature_set_of(spec),
               "--threads", str(args.threads), "--seed", str(seed), "--output-net", net,
               "--checkpoint-dir", checkpoints, "--quiet"]
    if os.path.exists(os.path.join(checkpoints, "checkpoint.bin")):
        command.append("--resume")
        if os.path.exists(net):  # written, but the step's record was not: write it again
            os.remove(net)
    print(f"{progress} training {spec}, seed {seed}", flush=True)
    started = time.time()
    log_file = study.path("nets", f"{name}.log")
    study.run(f"train {name}", command, log_file=log_file, echo=("epoch", "wrote", "training"))
    with open(log_file) as f:  # every session of this net, an interrupted one's too
        text = f.read()
    with open(os.path.splitext(net)[0] + ".csv") as f:
        rows = list(csv.DictReader(f))
    record = {
        "config": config, "net": net, "sha256": common.file_sha256(net), "epochs": len(rows),
        "positions": int(rows[-1]["positions"]) if rows else 0,
        "min_val_loss": min_validation_loss(rows), "positions_per_second": training_rate(text),
        "seconds": round(time.time() - started, 1),
    }
    write_json(study.path("nets", f"{name}.json"), record)
    return record


def measure_features(study, args, spec):
    """`nnue-learn features --json` for one set, or None when the command is missing."""
    config = {"set": spec, "data": os.path.abspath(args.feature_data), "count": args.feature_count}
    record = study.load("features", f"{slug(spec)}.json", config=config)
    if record or args.report_only:
        return record and record["figures"]
    os.makedirs(study.path("features"), exist_ok=True)
    command = [binary("nnue-learn"), "features", "--feature-set", feature_set_of(spec), "--data", args.feature_data,
               "--count", str(args.feature_count), "--json"]
    try:
        text = study.run(f"features {slug(spec)}", command)
    except StudyError as exc:
        if "unrecognized subcommand" in str(exc) or "exit 2" in str(exc):
            print(f"{PROGRAM}: warning: nnue-learn has no working `features` command here; "
                  f"the feature counts of {spec} are left out", file=sys.stderr)
            return None
        raise
    figures = json.loads(text[text.index("{"):])
    write_json(study.path("features", f"{slug(spec)}.json"), {"config": config, "figures": figures})
    return figures


def bench_net(study, args, spec, seed, train_record):
    """Speed of one net: `nnue` in UCI mode, EvalFile, then `bench` (the search's
    nodes/s) and `evalbench` (evaluations/s, each after its incremental update). A
    record made by another engine build, or at other depths, is measured again: speed
    belongs to the build that plays the games."""
    name = net_name(spec, seed)
    config = {"net_sha256": train_record["sha256"], "engine_sha256": engine_sha256(),
              "depth": args.bench_depth, "eval_depth": args.eval_bench_depth}
    saved = study.load("bench", f"{name}.json")
    if saved and saved.get("config") == config:
        return saved
    if args.report_only:
        return None
    os.makedirs(study.path("bench"), exist_ok=True)
    net = train_record["net"]
    stdin = (f"setoption name EvalFile value {net}\nisready\nbench {args.bench_depth}\n"
             f"evalbench {args.eval_bench_depth}\nquit\n")
    text = study.run(f"bench {name}", [binary("nnue")], stdin=stdin)
    nodes, nps, evals = bench_figures(text, net)
    record = {"config": config, "nodes": nodes, "nodes_per_second": nps, "evaluations_per_second": evals}
    print(f"[bench {name}] {nodes} nodes, {nps} nodes/s, {evals} evaluations/s", flush=True)
    write_json(study.path("bench", f"{name}.json"), record)
    return record


def game_args(args, condition):
    """The match settings of one condition (what nnue_scripts.match's play_game reads)."""
    nodes = int(condition[len("nodes"):]) if condition.startswith("nodes") else 0
    movetime = float(condition[len("movetime"):]) if condition.startswith("movetime") else 0.0
    return argparse.Namespace(tc="1+0", movestogo=0, movetime=movetime, movetime_margin=args.movetime_margin,
                              time_margin=0.0, nodes=nodes, book=args.book, book_seed=0, max_plies=args.max_plies,
                              event=f"nnue study {condition}", concurrency=args.concurrency,
                              **{key: getattr(args, key) for key in adjudication.KEYS})


def load_pairing(path, config):
    """The saved games of a pairing ({index: game}); StudyError when they were played
    with other settings (nets, options, condition, book)."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        saved = json.load(f)
    if saved.get("config") != config:
        diffs = settings_differences(flatten(saved.get("config") or {}), flatten(config))
        hint = adjudication.resume_hint(saved.get("config") or {}, config)
        raise StudyError(f"{path} holds games played with other settings ({'; '.join(diffs)}){hint}; "
                         "delete it or use another --out-dir")
    return {game["index"]: game for game in saved.get("games", [])}


def flatten(record, prefix=""):
    """{'a': {'b': 1}} as {'a.b': 1}, so that a difference names the field."""
    flat = {}
    for key, value in record.items():
        if isinstance(value, dict):
            flat.update(flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def play_tournament(study, args, trainings, condition):
    """Plays the missing games of one condition; returns [(A, B, wins, draws, losses)],
    the number of failed games and the games each adjudication rule ended
    ({"resign": n, "draw": m})."""
    from . import gauntlet, match  # python-chess is needed from here on

    gargs = game_args(args, condition)
    book = common.load_book(args.book)
    directory = study.path("games", condition)
    os.makedirs(directory, exist_ok=True)
    entrants = {}
    for (spec, seed), record in trainings.items():
        name = net_name(spec, seed)
        entrants[name] = gauntlet.Entrant(name, [binary("nnue")], "uci", {**ENGINE_OPTIONS, "EvalFile": record["net"]})
    sha = {net_name(*key): record["sha256"] for key, record in trainings.items()}
    pairings = [p for p in tournament_pairings(args.sets, args.seeds) if p[0] in entrants and p[1] in entrants]
    saved, configs, paths, jobs = {}, {}, {}, []
    for a, b in pairings:
        config = gauntlet.pairing_config(gargs, entrants[a], entrants[b], args.book)
        config["nets"] = {a: sha[a], b: sha[b]}
        configs[(a, b)] = config
        paths[(a, b)] = gauntlet.pairing_path(directory, entrants[a], entrants[b], ".json")
        saved[(a, b)] = load_pairing(paths[(a, b)], config)
    for index in range(0 if args.report_only else args.games):
        for key in pairings:
            if index not in saved[key]:
                jobs.append((index, (entrants[key[0]].player(), entrants[key[1]].player()), book, key))
    total = sum(len(g) for g in saved.values())
    print(f"[games {condition}] {len(pairings)} pairings, {len(jobs)} games to play, {total} saved", flush=True)
    study.log({"step": f"games {condition}", "pairings": pairings, "to_play": len(jobs), "saved": total})
    progress = gauntlet.Progress(len(jobs))

    def on_game(game):
        key = game["tag"]
        saved[key][game["index"]] = gauntlet.saved_game(game)
        gauntlet.save_pairing(paths[key], configs[key], saved[key])
        print(f"{progress.line()} [{condition}] {key[0]} vs {key[1]} {match.game_line(game)}", flush=True)

    if jobs:
        match.run_games(gargs, None, jobs, on_game)
    results, failures, counted = [], 0, []
    for (a, b), games in saved.items():
        played = {i: g for i, g in games.items() if i < args.games}
        wins, draws, losses, failed = gauntlet.tally(played)
        failures += failed
        counted += played.values()
        results.append((a, b, wins, draws, losses))
    return results, failures, adjudication.counts(counted)


def pyplot():
    """matplotlib.pyplot drawing to files, or None when matplotlib is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def elo_chart(path, rows, conditions):
    """A horizontal bar chart of each set's Elo per condition with its interval, the
    thesis' Elo as a marker; returns a note when matplotlib is missing."""
    plt = pyplot()
    if plt is None:
        return "the Elo chart needs matplotlib (pip install matplotlib); skipped"
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(rows) + 1.5))
    height = 0.8 / max(len(conditions), 1)
    for k, condition in enumerate(conditions):
        ys, xs, errors = [], [], [[], []]
        for i, row in enumerate(rows):
            rating = row["elo"].get(condition)
            if rating is None or rating.estimate is None:
                continue
            ys.append(i + k * height)
            xs.append(rating.estimate)
            errors[0].append(rating.estimate - (rating.low if rating.low is not None else rating.estimate))
            errors[1].append((rating.high if rating.high is not None else rating.estimate) - rating.estimate)
        ax.barh(ys, xs, height=height, xerr=errors, capsize=2, label=condition_label(condition))
    thesis = [(i, row["thesis"]["elo"]) for i, row in enumerate(rows) if row["thesis"]]
    if thesis:
        ax.plot([e for _, e in thesis], [i + 0.4 - height / 2 for i, _ in thesis], "kD", label="thesis (100 ms)")
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(rows))])
    ax.set_yticklabels([row["set"] for row in rows])
    ax.invert_yaxis()
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("Elo relative to All (95 % interval)")
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return None


def validation_curves(trainings):
    """{net name: [(epoch, validation loss)]} from each net's training CSV, the PQR
    entries left out (their loss is another quantity)."""
    curves = {}
    for (spec, seed), record in trainings.items():  # in training order: the sets as listed
        csv_path = os.path.splitext(record["net"])[0] + ".csv"
        if spec in PQR_ENTRIES or not os.path.exists(csv_path):
            continue
        with open(csv_path) as f:
            rows = list(csv.DictReader(f))
        curves[net_name(spec, seed)] = validation_points(rows)
    return curves


def loss_chart(path, curves):
    """Every net's validation loss per epoch in one chart (log scale); skipped without
    matplotlib (the Elo chart's note says so)."""
    plt = pyplot()
    if plt is None:
        return
    fig, ax = plt.subplots(figsize=(8, 5))
    for i, (name, points) in enumerate(curves.items()):
        style = "-" if i < 10 else "--"  # the default cycle has ten colours
        ax.plot([e for e, _ in points], [v for _, v in points], style, label=name, linewidth=1.2)
    ax.set_yscale("log")
    ax.set_xlabel("epoch")
    ax.set_ylabel("validation loss")
    ax.legend(fontsize="x-small", ncol=2)
    ax.grid(True, which="both", linewidth=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def adjudication_text(args, adjudicated):
    """The report's sentence on score adjudication: the rules and, per condition, the games
    each ended."""
    rules = adjudication.Rules.from_args(args)
    if not rules.enabled:
        return "No score adjudication."
    ended = "; ".join(f"{condition_label(c)}: {adjudication.counts_text(n)}" for c, n in adjudicated.items())
    return f"Score adjudication: {rules.describe()} ({ended})."


def report(study, args, rows, conditions, ratings, results, failures, notes, adjudicated):
    total_games = sum(w + d + l for cond in results.values() for _, _, w, d, l in cond)
    lines = [
        "# Feature-set study",
        "",
        f"Data: {', '.join(args.data)}; validation: {', '.join(args.validation) or f'the last {args.validation_fraction:g} of each file'}.",
        f"Shape N->{args.ft_size}x2-{args.hidden}-1, loss `{args.loss}`, Adam lr {args.lr:g} x{args.lr_decay:g} per epoch, "
        f"{args.epochs} epochs of {args.epoch_size:,} positions, batch {args.batch_size}; seeds {','.join(map(str, args.seeds))}.",
        f"Games: {args.games} per pairing and condition ({', '.join(condition_label(c) for c in conditions)}), "
        f"book {os.path.relpath(args.book, ROOT)}, {total_games} games, {failures} failed. "
        f"{adjudication_text(args, adjudicated)} "
        "Elo relative to All (anchored at 0) by a joint maximum-likelihood fit, 95 % intervals; "
        "added / removed per move and active features from `nnue-learn features` on the data's games; "
        f"evals/s from `nnue evalbench {args.eval_bench_depth}` (every line of the bench positions to that depth, "
        f"each evaluation after its incremental update), nodes/s from `nnue bench {args.bench_depth}` "
        "(one thread each, on a machine shared with the games' and other jobs' load).",
        "",
        *markdown_table(rows, conditions),
        "",
    ]
    lines += [f"Note: {n}" for n in notes]
    text = "\n".join(lines) + "\n"
    with open(study.path("study.md"), "w") as f:
        f.write(text)
    data = {
        "settings": settings_of(args),
        "sets": args.sets, "seeds": args.seeds, "games": args.games, "conditions": conditions,
        "rows": [{**row, "elo": {c: rating_dict(r) for c, r in row["elo"].items()}} for row in rows],
        "per_seed": {c: {f"{spec}@{seed}": rating_dict(r) for (spec, seed), r in ratings[c]["per_seed"].items()}
                     for c in conditions},
        "results": {c: [dict(zip(("a", "b", "wins", "draws", "losses"), r)) for r in results[c]] for c in conditions},
        "failures": failures,
        "adjudication": adjudication.Rules.from_args(args).record(),
        "adjudicated": adjudicated,
        "notes": notes,
    }
    write_json(study.path("study.json"), data)
    return text


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog="python -m nnue_scripts.study", description=__doc__.splitlines()[0])
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


def main(argv=None):
    args = parse_args(argv)
    study = Study(args.out_dir)
    started = time.time()
    try:
        study.check_settings(settings_of(args))
        study.log({"start": {k: v for k, v in vars(args).items()}})
        if not args.no_build and not args.report_only:
            study.run("build", ["cargo", "build", "--release", "--bin", "nnue", "--bin", "nnue-learn"])
        check_sets(args.sets)
        keys = training_order(args.sets, args.seeds)
        trainings, notes = {}, []
        for i, (spec, seed) in enumerate(keys):
            init = trainings.get((ANCHOR, seed)) if spec == PQR_FINE_TUNED else None
            record = train_net(study, args, spec, seed, f"[{i + 1}/{len(keys)}]", init)
            if record:
                trainings[(spec, seed)] = record
            else:
                notes.append(f"{spec} (seed {seed}) is not trained yet")
        features = {}
        for spec in args.sets:
            features[spec] = measure_features(study, args, spec)
        missing = [spec for spec, v in features.items() if v is None]
        if missing and args.report_only:
            notes.append(f"not measured yet: the feature counts of {', '.join(missing)}")
        elif missing:
            notes.append("`nnue-learn features` was not available: inputs, active features and updates per move are missing")
        benches = {key: bench_net(study, args, *key, trainings[key]) for key in trainings}
        conditions = conditions_of(args.nodes, args.movetime)
        ratings, results, failures, adjudicated = {}, {}, 0, {}
        for condition in conditions:
            results[condition], failed, adjudicated[condition] = play_tournament(study, args, trainings, condition)
            failures += failed
            ratings[condition] = relative_ratings(results[condition], args.sets, args.seeds)
        if args.report_only:
            notes += progress_notes(args.sets, args.seeds, args.games, results)
        rows = table_rows(args.sets, args.seeds, trainings, features, benches, ratings, conditions)
        chart_note = elo_chart(study.path("study-elo.png"), rows, conditions)
        loss_chart(study.path("study-loss.png"), validation_curves(trainings))
        if chart_note:
            notes.append(chart_note)
            if os.path.exists(study.path("study-elo.png")):  # an older run's chart
                os.remove(study.path("study-elo.png"))
        text = report(study, args, rows, conditions, ratings, results, failures, notes, adjudicated)
    except StudyError as exc:
        study.log({"error": str(exc)})
        print(f"{PROGRAM}: error: {exc}", file=sys.stderr)
        return 1
    print(text)
    print(f"study: done in {time.time() - started:.0f}s; {args.out_dir}/study.md, study.json"
          + ("" if chart_note else ", study-elo.png, study-loss.png"))
    study.log({"finished": round(time.time() - started, 1), "failures": failures})
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
