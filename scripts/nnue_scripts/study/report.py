"""study.md and study.json: the table with the run's settings in words, and every
figure for other tools."""

import os

from .. import adjudication, common
from .against_thesis import comparison_section, thesis_comparison
from .conditions import condition_label
from .rundir import write_json
from .settings import settings_of
from .speed import speed_model, speed_section
from .table import markdown_table, rating_dict


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
        f"book {os.path.relpath(args.book, common.ROOT)}, {total_games} games, {failures} failed. "
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
    comparisons = thesis_comparison(rows, conditions)
    if comparisons:
        lines += ["", *comparison_section(comparisons)]
    model = speed_model(rows, conditions)
    if model:
        lines += ["", *speed_section(model, model["nodes_condition"], model["time_condition"])]
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
        "against_thesis": comparisons,
        "speed_model": model,
        "notes": notes,
    }
    write_json(study.path("study.json"), data)
    return text
