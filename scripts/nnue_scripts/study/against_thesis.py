"""Our ratings of the thesis' sets beside its own: where All ranks among them at each
condition, which sets are clearly above or below it, and how far the two orders agree.

The thesis' question is whether any set beats plain All; its answer (100 ms a move, its
table) is no: All first, every other set below it by more than its interval. The study
asks the same of its own games, per condition, so that "All ranks at or near the top"
is a figure of the report rather than a reading of the table. "Clearly" means the 95 %
interval of the set's rating against All excludes 0.
"""

from .. import rating_fit
from .conditions import condition_label
from .entries import ANCHOR, ANCHOR_STATUS
from .thesis import THESIS


def order_key(rating):
    """The number a rating sorts by: the estimate, the anchor's 0, or a one-sided bound
    (a set that lost every game sorts at its upper bound); None when it has none."""
    if rating is None:
        return None
    if rating.status == ANCHOR_STATUS:
        return 0.0
    if rating.status == rating_fit.FITTED:
        return rating.estimate
    return rating.bound()


def side_of_anchor(rating):
    """+1 where the rating's 95 % interval lies above 0, -1 below, 0 where it holds 0."""
    if rating.status == ANCHOR_STATUS:
        return 0
    low = rating.low if rating.status in (rating_fit.FITTED, rating_fit.ABOVE) else None
    high = rating.high if rating.status in (rating_fit.FITTED, rating_fit.BELOW) else None
    if low is not None and low > 0:
        return 1
    if high is not None and high < 0:
        return -1
    return 0


def average_ranks(values):
    """1-based ranks of the values, largest first, ties given their mean rank."""
    order = sorted(range(len(values)), key=lambda i: -values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for i in order[start:end + 1]:
            ranks[i] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def spearman(xs, ys):
    """Spearman's rank correlation (Pearson's on average ranks), or None where either side
    has fewer than three values or no spread."""
    if len(xs) != len(ys) or len(xs) < 3:
        return None
    rx, ry = average_ranks(xs), average_ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return None
    return sxy / (sxx * syy) ** 0.5


def condition_comparison(rows, condition):
    """{"condition", "sets", "all_rank", "above", "level", "below", "spearman"} over the
    thesis' sets rated at `condition` (best first), or None where All is not among them."""
    rated = []
    for row in rows:
        rating = row["elo"].get(condition)
        key = order_key(rating)
        if row["set"] in THESIS and key is not None:
            rated.append((row["set"], key, side_of_anchor(rating)))
    rated.sort(key=lambda item: -item[1])
    names = [name for name, _, _ in rated]
    if ANCHOR not in names:
        return None
    ranks = average_ranks([key for _, key, _ in rated])
    return {
        "condition": condition,
        "sets": names,
        "all_rank": ranks[names.index(ANCHOR)],
        "above": [name for name, _, side in rated if side > 0],
        "level": [name for name, _, side in rated if side == 0 and name != ANCHOR],
        "below": [name for name, _, side in rated if side < 0],
        "spearman": spearman([key for _, key, _ in rated], [THESIS[name][2] for name in names]),
    }


def thesis_comparison(rows, conditions):
    """condition_comparison of every condition that rates All among the thesis' sets."""
    found = (condition_comparison(rows, condition) for condition in conditions)
    return [c for c in found if c is not None]


def names_text(names):
    return ", ".join(f"`{n}`" for n in names) or "none"


def comparison_section(comparisons):
    """The report's Markdown lines: one row per condition, the thesis' own row first."""
    lines = [
        "## Against the thesis: where All ranks among its sets",
        "",
        f"Over the thesis' {len(THESIS)} sets: All's rank (1 = best; ties share their mean rank), "
        "the sets whose 95 % interval against All lies above 0, holds 0, or lies below 0, and "
        "Spearman's rank correlation of our order with the thesis' (its Elo at 100 ms).",
        "",
        "| | All's rank | clearly above All | level with All | clearly below All | rank correlation with the thesis |",
        "|---|---|---|---|---|---|",
        f"| thesis, 100 ms | 1 of {len(THESIS)} | none | none | {len(THESIS) - 1} sets | 1 |",
    ]
    for c in comparisons:
        rho = "—" if c["spearman"] is None else f"{c['spearman']:+.2f}"
        lines.append(f"| ours, {condition_label(c['condition'])} | {c['all_rank']:g} of {len(c['sets'])} | "
                     f"{names_text(c['above'])} | {names_text(c['level'])} | {len(c['below'])} sets | {rho} |")
    return lines
