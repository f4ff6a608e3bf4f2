"""Training one entry's net with `nnue-learn train` (the options every net shares, the
PQR entries' changes to them), and reading the figures of a training back: the
validation curve and the training rate."""

import csv
import math
import os
import re
import shlex
import subprocess
import time

from .. import common
from .entries import ANCHOR, PQR_ENTRIES, PQR_FINE_TUNED, feature_set_of, net_name
from .programs import binary
from .rundir import StudyError, write_json

# The thesis' PQR fine-tuning gained most at lr 1e-4 (lower rates did better).
PQR_FINE_TUNE_LR = 1e-4


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
