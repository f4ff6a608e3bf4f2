"""The gauntlet's report: the Markdown (a table per player, all ratings, the differences
from the reference player, game pairs, each opening set, the clock) and the JSON with the
same data, from the numbers gauntlet_results computes.

A module of its own so that the report's wording and formats sit in one place, apart
from choosing the entrants and playing the games (gauntlet).
"""

import datetime
import math
import os

from . import adjudication, common, match, rating_fit

# Under the title: why the UCI_Elo scale is only approximate at other clocks.
CALIBRATION_NOTE = (
    "Stockfish documents UCI_Elo as calibrated at 60s+0.6s (15.1; 120s+1s from 16 on) and "
    "anchored to CCRL 40/4, so at other clocks the scale is approximate"
)
# Under "Difference": where the interval of a rating difference comes from.
DIFFERENCE_NOTE = (
    "the difference of the two jointly fitted ratings; its 95 % interval comes from the "
    "fit's covariance, Var(a - b) = C[a][a] + C[b][b] - 2 C[a][b] (nnue_scripts.rating_fit)"
)
# Above the game-pair table: what a pair scores and why its interval differs.
PAIR_NOTE = (
    "Each opening is played with both colours; the pair of games scores 0, ½, 1, 1½ or 2 "
    "points for the player. The Elo interval uses the variance of the pair scores "
    "(pentanomial, as fastchess and OpenBench report it) instead of the per-game one"
)


def format_elo(value):
    """A signed whole number of Elo, or +inf/-inf where one side scored every point."""
    if not math.isfinite(value):
        return "+inf" if value > 0 else "-inf"
    return f"{round(value) or 0:+d}"  # no "-0"


def format_interval(estimate, low, high):
    return f"{format_elo(estimate)} [{format_elo(low)}, {format_elo(high)}]"


def format_options(options):
    return ", ".join(f"`{name}={value}`" for name, value in options.items()) or "engine defaults"


def format_rating(rating):
    if rating is None:
        return "-"
    if rating.status == rating_fit.FITTED:
        return f"{rating.estimate:.0f} [{rating.low:.0f}, {rating.high:.0f}]"
    if rating.status == rating_fit.ABOVE:
        return f"> {rating.low:.0f}" if rating.low is not None else "above all"
    if rating.status == rating_fit.BELOW:
        return f"< {rating.high:.0f}" if rating.high is not None else "below all"
    return rating.status


def rating_order(rating):
    """Sort key: strongest first, bounds where there is no estimate, the rest last."""
    if rating.status == rating_fit.FITTED:
        return (1, -rating.estimate)
    if rating.status == rating_fit.ABOVE:
        return (0, -(rating.low if rating.low is not None else math.inf))
    if rating.status == rating_fit.BELOW:
        return (2, -(rating.high if rating.high is not None else -math.inf))
    return (3, 0.0)


def opponent_rating_cell(opponent, ratings):
    if opponent.anchor is not None:
        return f"{opponent.anchor:.0f} (anchor)"
    return format_rating(ratings.get(opponent.name))


def player_section(player, rows, by_name, ratings):
    lines = [f"## {player.name}", "", f"Options: {format_options(player.options)}", ""]
    lines += ["| Opponent | Rating | Games | W | D | L | Score | Elo diff (95 %) | Failures |"]
    lines += ["|---|---|---:|---:|---:|---:|---:|---|---:|"]
    for r in (r for r in rows if r["player"] == player.name):
        n = r["wins"] + r["draws"] + r["losses"]
        score = f"{(r['wins'] + 0.5 * r['draws']) / n:.1%}" if n else "-"
        diff = format_interval(r["elo"], r["low"], r["high"]) if n else "-"
        lines.append(
            f"| {r['opponent']} | {opponent_rating_cell(by_name[r['opponent']], ratings)} | {n} | "
            f"{r['wins']} | {r['draws']} | {r['losses']} | {score} | {diff} | {r['failures']} |"
        )
    return lines + ["", f"**Rating of {player.name}: {format_rating(ratings.get(player.name))}**", ""]


def ratings_section(ratings):
    lines = ["## All ratings", "", "| Engine | Rating (95 %) | Status | Games |", "|---|---|---|---:|"]
    for name, rating in sorted(ratings.items(), key=lambda kv: rating_order(kv[1])):
        lines.append(f"| {name} | {format_rating(rating)} | {rating.status} | {rating.games} |")
    return lines


def difference_lines(diffs):
    lines = []
    for d in diffs:
        value = format_interval(d["estimate"], d["low"], d["high"]) if d["estimate"] is not None else "not fitted"
        lines.append(f"- **{d['player']} − {d['reference']}: {value}**")
    return lines


def pentanomial_section(players, rows):
    lines = ["## Game pairs (pentanomial)", "", PAIR_NOTE + ".", ""]
    lines += ["| Player | Opponent | Pairs | 0 | ½ | 1 | 1½ | 2 | Elo (pairs, 95 %) |", "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for player in players:
        total = [0] * 5
        for r in (r for r in rows if r["player"] == player.name):
            total = [a + b for a, b in zip(total, r["pairs"])]
            lines.append(pentanomial_row(player.name, r["opponent"], r["pairs"]))
        lines.append(pentanomial_row(player.name, "**all**", total))
    return lines


def pentanomial_row(player, opponent, counts):
    n = sum(counts)
    elo = format_interval(*common.pentanomial_interval(counts)) if n else "-"
    return f"| {player} | {opponent} | {n} | " + " | ".join(str(c) for c in counts) + f" | {elo} |"


def per_set_section(results):
    lines = ["## Per opening set", "", "Ratings fitted on each set's games alone.", ""]
    lines += ["| Set | Player | Games | Score | Rating (95 %) |", "|---|---|---:|---:|---|"]
    for result in results:
        for p in result["players"]:
            score = f"{p['score']:.1%}" if p["score"] is not None else "-"
            lines.append(f"| {result['set']} ({result['book']}, {result['positions']}) | {p['player']} | "
                         f"{p['games']} | {score} | {p['rating_text']} |")
    lines.append("")
    for result in results:
        for line in difference_lines(result["differences"]):
            lines.append(line.replace("- **", f"- {result['set']}: **", 1))
    return lines


def forfeit_rule(args):
    if args.nodes or args.movetime:
        return f"fixed {'nodes' if args.nodes else 'move time'}: no clock"
    return (f"a move that exceeds the time left by at most {args.time_margin:g} ms is not a forfeit "
            f"(the overshoot is counted and stays on the clock as debt); beyond that the game is lost on time, "
            f"the same rule for every engine")


def clock_section(args, records):
    lines = ["## Clock", "", f"Forfeit rule: {forfeit_rule(args)}.", ""]
    lines += ["| Engine | Games | Moves | Moves over the clock | Worst overshoot (ms) | Time forfeits |",
              "|---|---:|---:|---:|---:|---:|"]
    for name, r in records.items():
        lines.append(f"| {name} | {r['games']} | {r['moves']} | {r['overshoots']} | {r['worst_ms']:.0f} | {r['forfeits']} |")
    return lines


def book_name(path):
    """The book as the report names it: relative to the repository when inside it."""
    if not path:
        return "start position"
    relative = os.path.relpath(os.path.abspath(path), common.ROOT)
    return path if relative.startswith("..") else relative


def books_of(args):
    return args.book if isinstance(args.book, list) else [args.book]


def markdown(args, players, opponents, rows, ratings, notes, extra=None):
    """The report; `extra` (from report_data) adds the differences, the game pairs, the
    sets and the clock."""
    n_games = sum(r["wins"] + r["draws"] + r["losses"] for r in rows)
    books = books_of(args)
    if len(books) == 1:
        games_text = f"{args.games} per pairing, openings {book_name(books[0])} (both colours)"
    else:
        games_text = (f"{args.games} per pairing and opening set ({args.games * len(books)} a pairing, "
                      f"{args.games * len(books) * len(opponents)} a player), "
                      f"openings {', '.join(book_name(b) for b in books)} (both colours)")
    lines = [
        f"# {getattr(args, 'title', 'Gauntlet')} at {match.time_control_tag(args)}",
        "",
        f"{n_games} games, {games_text}, {datetime.date.today().isoformat()}. Ratings on Stockfish's UCI_Elo "
        f"scale, fitted jointly by maximum likelihood (draws count half); intervals are 95 %. "
        f"{CALIBRATION_NOTE}.",
        "",
    ]
    rules = adjudication.Rules.from_args(args)
    if rules.enabled:
        ended = f" Games ended {adjudication.counts_text(extra['adjudicated'])}." if extra else ""
        lines += [f"Score adjudication: {rules.describe()}.{ended}", ""]
    if extra and extra["differences"]:
        lines += ["## Difference", "", f"From all games; {DIFFERENCE_NOTE}.", ""]
        lines += difference_lines(extra["differences"]) + [""]
    by_name = {o.name: o for o in opponents}
    for player in players:
        lines += player_section(player, rows, by_name, ratings)
    lines += ratings_section(ratings)
    if extra:
        lines += [""] + pentanomial_section(players, rows)
        if len(extra["sets"]) > 1:
            lines += [""] + per_set_section(extra["sets"])
        lines += [""] + clock_section(args, extra["clock"])
    if notes:
        lines += ["", "Notes:", ""] + [f"- {note}" for note in notes]
    return "\n".join(lines) + "\n"


def json_safe(record):
    """The record with infinite values as null (JSON has no infinity)."""
    return {k: None if isinstance(v, float) and not math.isfinite(v) else v for k, v in record.items()}


def json_clean(value):
    """The value with every infinite or NaN float, at any depth, as null."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_clean(v) for v in value]
    return value


def report_json(args, players, opponents, rows, ratings, notes, extra=None):
    """The JSON report: the settings, the entrants (with their binaries' and nets'
    digests), the pairings, the ratings, the notes and `extra` (from report_data), with
    every infinite value as null so that it dumps as strict JSON."""
    data = {
        "date": datetime.date.today().isoformat(),
        "time_control": match.time_control_tag(args),
        "time_margin_ms": args.time_margin,
        "forfeit_rule": forfeit_rule(args),
        "adjudication": adjudication.Rules.from_args(args).record(),
        "games_per_pairing": args.games * len(books_of(args)),
        "games_per_pairing_and_set": args.games,
        "players": [p.config() for p in players],
        "opponents": [{**o.config(), "anchor": o.anchor} for o in opponents],
        "pairings": [json_safe(r) for r in rows],
        "ratings": {name: json_safe(r.as_dict()) for name, r in ratings.items()},
        "notes": notes,
    }
    if extra:
        data.update(extra)
    return json_clean(data)
