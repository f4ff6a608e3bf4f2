"""The recipe's report: RUN/recipe.json, RUN/recipe.md and RUN/recipe.png, the rating of
the best net over the classical evaluation against the core-hours spent.

The rating of a promoted net is the sum of the screens that promoted it and each best
net before it (every screen plays the candidate against the best of its time, and the
first best is the classical evaluation), so it carries each screen's error; the final
strength report, where there is one, measures the final net against the classical
evaluation directly, with its 95 % interval. Every file is written whole and renamed into
place, so an interrupted run's report is always readable.
"""

import math
import os

from . import budget, steps

JSON_FILE = "recipe.json"
MARKDOWN_FILE = "recipe.md"
CHART_FILE = "recipe.png"
# What the run starts from (recipe.json's "start").
START = "classical"
# The screen figures kept in the report.
SCREEN_KEYS = ("decision", "elo", "low", "high", "elo_finite", "games", "wins", "draws", "losses")


def hours(seconds):
    return round(seconds / budget.CORE_HOUR, 4)


def final_difference(strength, player="final"):
    """The final net's rating minus the classical evaluation's in the strength report
    ({"estimate", "low", "high"}), or None."""
    if not strength:
        return None
    for difference in strength.get("differences", []):
        if difference.get("player") == player:
            return {key: difference[key] for key in ("estimate", "low", "high")}
    return None


def report_data(args, state, ledger, outcome, strength):
    """The report as a dict (recipe.json)."""
    generations = []
    for record in outcome["generations"]:
        screen = record.get("screen")
        generations.append({
            "generation": record["generation"],
            "positions": record["positions"],
            "label": record["label"] if record["label"] == START else os.path.basename(record["label"]),
            "net": record["net"],
            "screen": {key: screen[key] for key in SCREEN_KEYS} if screen else None,
            "promoted": record["promoted"],
            "core_hours": record["core_hours"],
            "elo_vs_classical": record.get("elo_vs_classical"),
        })
    finished = [g for g in generations if g["screen"]]
    return {
        "start": START,
        "budget_core_hours": args.budget_core_hours,
        "core_hours": hours(ledger.spent),
        "core_hours_by_kind": {kind: hours(seconds) for kind, seconds in sorted(ledger.by_kind.items())},
        "report_core_hours": hours(ledger.outside),
        "threads": args.threads,
        "small": args.small,
        "positions": generations[-1]["positions"] if generations else 0,
        "final_net": outcome["best"],
        "final_elo_vs_classical_from_screens": outcome["best_elo"] if outcome["best"] else 0.0,
        "final_report": final_difference(strength),
        "resumed": state["invocations"] - 1,
        # Spent, or too little left for another generation: either way the run has ended.
        "budget_spent": ledger.exhausted() or outcome.get("budget_ended", False),
        "generations": finished,
        "unfinished_generation": unfinished(generations, outcome),
    }


def unfinished(generations, outcome):
    """The generation the run stopped in: its data unfinished ({"generation", "positions",
    "planned"}), or its training or screen ({"generation", "positions"}); None when the
    last generation finished."""
    if outcome.get("unfinished"):
        return outcome["unfinished"]
    if generations and not generations[-1]["screen"]:
        return {"generation": generations[-1]["generation"], "positions": generations[-1]["positions"]}
    return None


def title(unfinished, budget_spent):
    """The report's heading: a published report may be of a run not yet ended, or of one
    whose budget is spent and whose final strength report is still being played."""
    if not unfinished:
        return "# Recipe run"
    if budget_spent:
        return "# Recipe run (unfinished: its budget is spent, its final strength report not yet played)"
    return "# Recipe run (unfinished: its budget is not spent yet)"


def markdown(data):
    """The Markdown report."""
    unfinished = data.get("unfinished", False)
    lines = [
        title(unfinished, data["budget_spent"]),
        "",
        f"Started from the classical evaluation; budget {data['budget_core_hours']:g} core-hours, "
        f"{data['core_hours']:.3f} spent ({', '.join(f'{k} {v:.3f}' for k, v in data['core_hours_by_kind'].items())}), "
        f"on {data['threads']} threads; resumed {data['resumed']} times.",
        f"Positions kept: {data['positions']:,}. {'Best net so far' if unfinished else 'Final net'}: {data['final_net'] or 'none promoted (the classical evaluation stays best)'}.",
        "",
        "| generation | positions | labelled by | screen against the best | Elo (95 %) | decision | promoted | core-hours | best over classical |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for g in data["generations"]:
        s = g["screen"]
        lines.append(
            f"| {g['generation']} | {g['positions']:,} | {g['label']} | +{s['wins']} ={s['draws']} -{s['losses']} "
            f"| {elo_text(s['elo'], s['elo_finite'])} [{elo_text(s['low'], s['elo_finite'])}, {elo_text(s['high'], s['elo_finite'])}] | {s['decision']} | {'yes' if g['promoted'] else 'no'} "
            f"| {g['core_hours']:.3f} | {g['elo_vs_classical']:+.1f} |")
    training = training_text(data["generations"])
    if training:
        lines += ["", training]
    cut = data["unfinished_generation"]
    if cut:
        what = (f"{cut['positions']:,} of its {cut['planned']:,} positions played, kept in the data folder"
                if "planned" in cut else f"{cut['positions']:,} positions in all, its candidate not yet screened")
        lines += ["", f"Generation {cut['generation']} is unfinished ({what}; "
                      f"{'the budget is spent' if data['budget_spent'] else 'the run was stopped'}): "
                      "the same command continues it (with a larger --budget-core-hours once the budget is spent)."]
    final = data["final_report"]
    lines += [""]
    if final:
        lines.append(f"Final strength report (paid outside the budget, {data['report_core_hours']:.3f} core-hours): "
                     f"final net − classical **{final['estimate']:+.1f} [{final['low']:+.1f}, {final['high']:+.1f}]** "
                     "(strength/gauntlet.md).")
    elif data["final_net"] is None:
        lines.append("No net was promoted, so the strength report has only the classical evaluation to rate.")
    else:
        lines.append("No final strength report yet (the same command plays it, or continues it, now that the budget is spent)."
                     if data["budget_spent"] else
                     "No final strength report yet (the same command writes it once the budget is spent).")
    chart = data.get("chart")
    lines += ["", f"![Elo over the classical evaluation against core-hours]({CHART_FILE})" if chart == CHART_FILE
              else f"Elo over the classical evaluation against core-hours: {chart}", ""]
    return "\n".join(lines)


def training_text(generations):
    """One sentence saying which candidates were trained from random weights and which
    were fine-tuned, and with which λ (a run can change either rule), from the
    generations' "trained_from" and "score_weight" (the published report's); "" when they
    have none."""
    scratch = [str(g["generation"]) for g in generations if g.get("trained_from") == "random weights"]
    tuned = [f"{g['generation']} (from {os.path.basename(g['trained_from'])})" for g in generations
             if g.get("trained_from") not in (None, "random weights")]
    parts = ([f"from random weights: candidates {', '.join(scratch)}"] if scratch else []) + \
            ([f"fine-tuned: candidates {', '.join(tuned)}"] if tuned else [])
    by_weight = {}
    for g in generations:
        if g.get("score_weight") is not None:
            by_weight.setdefault(g["score_weight"], []).append(str(g["generation"]))
    parts += [f"λ {weight:g}: candidates {', '.join(numbers)}" for weight, numbers in by_weight.items()]
    return f"Trained {'; '.join(parts)}." if parts else ""


def elo_text(value, sign):
    """An Elo figure; None (infinite, from a match won or lost in full) as +inf or -inf
    by the sign of `sign`."""
    if value is None or not math.isfinite(value):
        return "+inf" if sign > 0 else "-inf"
    return f"{value:+.1f}"


def chart_points(data):
    """(core-hours, Elo over classical) of the best net after each screen, from (0, 0)."""
    points = [(0.0, 0.0)]
    for g in data["generations"]:
        points.append((g["core_hours"], g["elo_vs_classical"]))
    return points


def draw_chart(data, path):
    """Draws the chart; returns None, or a note saying why there is none."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "no chart: matplotlib is not installed (pip install matplotlib)"
    points = chart_points(data)
    figure, axes = plt.subplots(figsize=(7, 4))
    axes.step([x for x, _ in points], [y for _, y in points], where="post", marker="o",
              label="best net, from its screens")
    final = data["final_report"]
    if final:
        axes.errorbar([data["core_hours"]], [final["estimate"]],
                      yerr=[[final["estimate"] - final["low"]], [final["high"] - final["estimate"]]],
                      fmt="s", color="C3", capsize=4, label="final strength report (95 %)")
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set_xlabel("core-hours spent")
    axes.set_ylabel("Elo over the classical evaluation")
    axes.set_title("Recipe: rating against compute")
    axes.legend()
    figure.tight_layout()
    temporary = path + ".tmp.png"
    figure.savefig(temporary, dpi=100)
    plt.close(figure)
    os.replace(temporary, path)
    return None


def write(run, args, state, ledger, outcome, strength):
    """Writes recipe.json, recipe.md and recipe.png into the run folder; returns the
    Markdown's path."""
    data = report_data(args, state, ledger, outcome, strength)
    note = draw_chart(data, run.path(CHART_FILE))
    data["chart"] = note or CHART_FILE
    steps.write_json(run.path(JSON_FILE), data)
    path = run.path(MARKDOWN_FILE)
    write_markdown(path, data)
    return path


def write_markdown(path, data):
    """Writes the Markdown report to `path` whole (a temporary file renamed into place)."""
    with open(path + ".tmp", "w") as f:
        f.write(markdown(data))
    os.replace(path + ".tmp", path)
