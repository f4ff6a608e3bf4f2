"""What must be the same for a run directory's saved results to be reused: the data,
the training budget and shape, the game conditions and the measurements."""

import os

from .. import adjudication
from .conditions import conditions_of


def file_identity(path):
    """A data file's path and size: enough to notice other data without hashing gigabytes."""
    return {"path": os.path.abspath(path), "bytes": os.path.getsize(path)}


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
