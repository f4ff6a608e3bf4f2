"""The engine's strength over time: each player's joint rating, with its 95 % interval,
from a series of gauntlet reports (the JSON that `nnue_scripts.gauntlet` writes beside
its Markdown), as a Markdown table on standard output and a chart (PNG).

    python -m nnue_scripts.elo_history docs/results/gauntlet-*.json --output docs/elo-history.png

A report's date is its `date` field, or else the YYYY-MM-DD in its file name; reports
are taken in date order (the order given among reports of one day). `--players` picks
the players to show (default: every player of every report, not the opponents).
"""

import argparse
import os
import re
import sys

from . import common

PROGRAM = "elo_history.py"
DATE_IN_NAME = re.compile(r"(\d{4}-\d{2}-\d{2})")


class HistoryError(Exception):
    """A report that cannot be read, named with its file."""


def report_date(path, data):
    """The report's date: its `date` field or the date in its file name."""
    if data.get("date"):
        return str(data["date"])
    found = DATE_IN_NAME.search(os.path.basename(path))
    if not found:
        raise HistoryError(f"{path}: no 'date' field and no YYYY-MM-DD in the file name")
    return found.group(1)


def read_report(path):
    """(date, time control, {player: rating dict}) of one gauntlet JSON report."""
    data = common.load_json(path, HistoryError)
    if not isinstance(data, dict) or not isinstance(data.get("ratings"), dict) or "players" not in data:
        raise HistoryError(f"{path}: not a gauntlet report (no 'players' and 'ratings')")
    players = [p.get("name") for p in data["players"] if isinstance(p, dict)]
    ratings = {name: data["ratings"][name] for name in players if isinstance(data["ratings"].get(name), dict)}
    return report_date(path, data), data.get("time_control", "?"), ratings


def history(paths, players=None):
    """One row per (report, player): {"date", "report", "time_control", "player", "estimate",
    "low", "high", "games", "status"}, in date order."""
    reports = sorted(((read_report(p), i, p) for i, p in enumerate(paths)), key=lambda r: (r[0][0], r[1]))
    rows = []
    for (date, time_control, ratings), _, path in reports:
        for name, rating in ratings.items():
            if players and name not in players:
                continue
            rows.append({"date": date, "report": os.path.basename(path), "time_control": time_control,
                         "player": name, "estimate": rating.get("estimate"), "low": rating.get("low"),
                         "high": rating.get("high"), "games": rating.get("games"), "status": rating.get("status")})
    return rows


def rating_text(row):
    """'2102 [2037, 2168]', or the status where there is no estimate."""
    if row["estimate"] is None:
        return row["status"] or "—"
    if row["low"] is None or row["high"] is None:
        return f"{row['estimate']:.0f}"
    return f"{row['estimate']:.0f} [{row['low']:.0f}, {row['high']:.0f}]"


def markdown(rows):
    lines = ["| date | report | clock | player | rating (95 %) | games |", "|---|---|---|---|---|---:|"]
    for row in rows:
        lines.append(f"| {row['date']} | {row['report']} | {row['time_control']} | {row['player']} | "
                     f"{rating_text(row)} | {row['games'] or 0} |")
    return lines


def chart(path, rows):
    """Each player's ratings over the reports with their intervals; returns a note when
    matplotlib is missing (the table is still printed)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "the chart needs matplotlib (pip install matplotlib); skipped"
    reports = list(dict.fromkeys((row["date"], row["report"]) for row in rows))
    x_of = {key: i for i, key in enumerate(reports)}
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(reports) + 3), 4.5))
    players = list(dict.fromkeys(row["player"] for row in rows))
    for k, player in enumerate(players):
        mine = [r for r in rows if r["player"] == player and r["estimate"] is not None]
        offset = (k - (len(players) - 1) / 2) * 0.08
        xs = [x_of[(r["date"], r["report"])] + offset for r in mine]
        ys = [r["estimate"] for r in mine]
        low = [r["estimate"] - (r["low"] if r["low"] is not None else r["estimate"]) for r in mine]
        high = [(r["high"] if r["high"] is not None else r["estimate"]) - r["estimate"] for r in mine]
        ax.errorbar(xs, ys, yerr=[low, high], marker="o", capsize=3, label=player)
    ax.set_xticks(range(len(reports)))
    ax.set_xticklabels([f"{date}\n{name}" for date, name in reports], fontsize="x-small")
    ax.set_ylabel("rating, Stockfish 15.1 UCI_Elo scale (95 %)")
    ax.set_title("Strength over time (joint gauntlet ratings)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(prog=PROGRAM, description=__doc__.split("\n\n")[0])
    parser.add_argument("reports", nargs="+", help="gauntlet JSON reports")
    parser.add_argument("--players", default=None, help="comma-separated players to show (default: all)")
    parser.add_argument("--output", default=None, help="the chart (PNG); none without it")
    args = parser.parse_args(argv)
    players = [p for p in args.players.split(",") if p] if args.players else None
    try:
        rows = history(args.reports, players)
    except HistoryError as exc:
        print(f"{PROGRAM}: error: {exc}", file=sys.stderr)
        return 1
    if not rows:
        print(f"{PROGRAM}: error: no ratings of {', '.join(players or ['any player'])} in the reports",
              file=sys.stderr)
        return 1
    print("\n".join(markdown(rows)))
    if args.output:
        note = chart(args.output, rows)
        print(f"{PROGRAM}: {note}" if note else f"{PROGRAM}: wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
