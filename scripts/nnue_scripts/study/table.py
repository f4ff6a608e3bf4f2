"""The study's table: one row of figures per set (seeds averaged, their spread kept)
and its Markdown form."""

import math

from .. import rating_fit
from .conditions import condition_label
from .entries import ANCHOR_STATUS
from .thesis import THESIS, thesis_name


def spread(values):
    """(min, max, sample standard deviation) of the numbers given (None left out), or None
    with fewer than two."""
    values = [v for v in values if v is not None]
    if len(values) < 2:
        return None
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    return min(values), max(values), sd


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


def format_rating(rating):
    """'-27 [-41, -13]', '0 (anchor)', '> +250', '< -300' or '—'."""
    if rating is None:
        return "—"
    if rating.status == ANCHOR_STATUS:
        return "0 (anchor)"
    if rating.status == rating_fit.FITTED:
        return f"{signed(rating.estimate)} [{signed(rating.low)}, {signed(rating.high)}]"
    bound = rating.bound()
    if bound is not None:
        return f"{rating_fit.BOUND_MARK[rating.status]} {signed(bound)}"
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


def rating_dict(rating):
    if rating is None:
        return None
    return rating.as_dict()
