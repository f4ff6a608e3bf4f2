"""Knowledge and speed: how much of a set's Elo at equal time its speed explains.

At a fixed node count a set's Elo is what its inputs know: the search pays nothing for
a slower evaluation. At a fixed time per move the search also pays for it. The study
plays both conditions, so the gap between them can be measured rather than guessed:

    elo_time = c * elo_nodes - k * halvings,    halvings = log2(All's nodes/s / the set's)

where c carries the knowledge measured at the fixed node count over to the other
condition (deeper searches usually shrink Elo differences, c < 1) and k is the Elo an
evaluation loses each time it halves the search's speed. Both are fitted by weighted
least squares over the feature sets rated at both conditions (the anchor and the PQR
entries, trainings of All rather than feature sets, left out), each set weighted by
the inverse variance of its two ratings (95 % intervals / 1.96). The fit's reduced
chi-square says whether the two numbers explain the table; where it exceeds 1 the
standard errors are scaled up by its root (the Birge ratio), so that a poor fit does
not look precise.
"""

import math

from .. import common, rating_fit
from .conditions import condition_label, is_fixed_node, is_fixed_time
from .entries import ANCHOR, PQR_ENTRIES

# Fewer sets than this rated at both conditions leave two parameters unfitted.
MIN_POINTS = 3
# Rounds of reweighting: the variance of a point depends on c through c^2 * var_nodes.
REWEIGHT_ROUNDS = 5


def standard_error(rating):
    """The standard deviation of a fitted rating from its 95 % interval, or None."""
    if rating is None or rating.status != rating_fit.FITTED or rating.low is None or rating.high is None:
        return None
    return (rating.high - rating.low) / (2 * common.Z95)


def halvings(nodes_per_second, anchor_nodes_per_second):
    """How many times slower than the anchor a set searches, in powers of two."""
    return math.log2(anchor_nodes_per_second / nodes_per_second)


def speed_points(rows, nodes_condition, time_condition):
    """[(set, elo_nodes, se_nodes, elo_time, se_time, halvings)] of every feature set with
    a fitted rating at both conditions and a measured speed; the anchor's row gives the
    reference speed. [] when the anchor has no speed."""
    anchor = next((row for row in rows if row["set"] == ANCHOR), None)
    if anchor is None or not anchor.get("nodes_per_second"):
        return []
    points = []
    for row in rows:
        if row["set"] == ANCHOR or row["set"] in PQR_ENTRIES or not row.get("nodes_per_second"):
            continue
        at_nodes, at_time = row["elo"].get(nodes_condition), row["elo"].get(time_condition)
        se_nodes, se_time = standard_error(at_nodes), standard_error(at_time)
        if se_nodes is None or se_time is None:
            continue
        points.append((row["set"], at_nodes.estimate, se_nodes, at_time.estimate, se_time,
                       halvings(row["nodes_per_second"], anchor["nodes_per_second"])))
    return points


def solve_two(a11, a12, a22, b1, b2):
    """The solution of the symmetric 2x2 system and the inverse's diagonal, or None when
    it is singular."""
    det = a11 * a22 - a12 * a12
    if abs(det) < 1e-12 * max(1.0, abs(a11 * a22)):
        return None
    return ((a22 * b1 - a12 * b2) / det, (a11 * b2 - a12 * b1) / det), (a22 / det, a11 / det)


def fit_speed_model(points):
    """{"c", "k", "se_c", "se_k", "chi2", "dof", "points"} of the weighted fit of
    elo_time = c * elo_nodes - k * halvings, or None with too few points or points that
    cannot separate the two (every set as fast as All, say)."""
    if len(points) < MIN_POINTS:
        return None
    c, solution = 1.0, None
    for _ in range(REWEIGHT_ROUNDS):
        a11 = a12 = a22 = b1 = b2 = 0.0
        for _, u, se_u, y, se_y, x in points:
            w = 1.0 / (se_y ** 2 + (c * se_u) ** 2)
            a11, a12, a22 = a11 + w * u * u, a12 - w * u * x, a22 + w * x * x
            b1, b2 = b1 + w * u * y, b2 - w * x * y
        solution = solve_two(a11, a12, a22, b1, b2)
        if solution is None:
            return None
        c = solution[0][0]
    (c, k), (var_c, var_k) = solution
    chi2 = sum((y - c * u + k * x) ** 2 / (se_y ** 2 + (c * se_u) ** 2) for _, u, se_u, y, se_y, x in points)
    dof = len(points) - 2
    birge = math.sqrt(chi2 / dof) if dof > 0 and chi2 > dof else 1.0
    return {"c": c, "k": k, "se_c": birge * math.sqrt(var_c), "se_k": birge * math.sqrt(var_k),
            "chi2": chi2, "dof": dof,
            "points": [{"set": s, "elo_nodes": u, "elo_time": y, "halvings": x, "predicted": c * u - k * x,
                        "sigma": math.sqrt(se_y ** 2 + (c * se_u) ** 2)} for s, u, se_u, y, se_y, x in points]}


def speed_conditions(conditions):
    """(the first fixed-node condition, the first fixed-time one), or None without both."""
    nodes = [c for c in conditions if is_fixed_node(c)]
    times = [c for c in conditions if is_fixed_time(c)]
    return (nodes[0], times[0]) if nodes and times else None


def speed_section(model, nodes_condition, time_condition):
    """The report's Markdown lines on the fitted model: the two numbers, then per set the
    measured and the predicted Elo at equal time."""
    at_nodes, at_time = condition_label(nodes_condition), condition_label(time_condition)
    lines = [
        f"## Knowledge and speed: Elo at {at_time} from Elo at {at_nodes}",
        "",
        f"Fitted over {len(model['points'])} sets: Elo({at_time}) = c × Elo({at_nodes}) − k × halvings, "
        f"halvings = log2(All's nodes/s / the set's). c = {model['c']:.2f} ± {common.Z95 * model['se_c']:.2f} "
        f"(the knowledge measured at {at_nodes} that is left at {at_time}), k = {model['k']:.0f} ± "
        f"{common.Z95 * model['se_k']:.0f} Elo per halving of the search's speed (95 %); "
        f"chi-square {model['chi2']:.1f} on {model['dof']} degrees of freedom.",
        "",
        f"| set | halvings | Elo, {at_nodes} | Elo, {at_time} | predicted | residual / sigma |",
        "|---|---|---|---|---|---|",
    ]
    for p in sorted(model["points"], key=lambda p: -p["elo_time"]):
        residual = (p["elo_time"] - p["predicted"]) / p["sigma"]
        lines.append(f"| `{p['set']}` | {p['halvings']:.2f} | {p['elo_nodes']:+.0f} | {p['elo_time']:+.0f} | "
                     f"{p['predicted']:+.0f} | {residual:+.1f} |")
    return lines


def speed_model(rows, conditions):
    """The fitted model with the two conditions it relates ({"nodes_condition",
    "time_condition", **fit}), or None where the run lacks a condition or enough sets
    rated at both."""
    pair = speed_conditions(conditions)
    if pair is None:
        return None
    model = fit_speed_model(speed_points(rows, *pair))
    return model and {"nodes_condition": pair[0], "time_condition": pair[1], **model}
