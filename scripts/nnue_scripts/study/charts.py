"""The study's images: Elo per set and condition with intervals, and every net's
validation loss per epoch. matplotlib is optional; without it the charts are skipped
with a note."""

import csv
import os

from .. import rating_fit
from .conditions import condition_label
from .entries import PQR_ENTRIES, net_name
from .training import validation_points


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
    thesis' Elo as a marker, a one-sided bound as a hatched bar with an arrow; returns a
    note when matplotlib is missing."""
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
        ax.barh(ys, xs, height=height, xerr=errors, capsize=2, color=f"C{k}", label=condition_label(condition))
        draw_bounds(ax, [(i + k * height, row["elo"].get(condition)) for i, row in enumerate(rows)], height, f"C{k}")
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


def draw_bounds(ax, placed, height, color):
    """The one-sided ratings of a condition (a set that won or lost every game): a hatched
    bar out to the bound, and an arrow pointing the way the rating lies beyond it."""
    for y, rating in placed:
        if rating is None or rating.estimate is not None:
            continue
        bound, marker = rating.bound(), rating_fit.BOUND_MARK.get(rating.status)
        if bound is None:
            continue
        ax.barh([y], [bound], height=height, color=color, alpha=0.5, hatch="//")
        ax.plot([bound], [y], marker, color="k")


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
