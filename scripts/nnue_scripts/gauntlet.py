"""Plays our engine, in one or more configurations, against a gauntlet of known engines
and places it on Stockfish's UCI_Elo scale.

    python -m nnue_scripts.gauntlet [--engine target/release/nnue]
                                    [--player NAME[:Name=Value,...] ...]
                                    [--opponent NAME:COMMAND[:uci|xboard][:Name=Value,...] ...]
                                    [--sf-elo 1350,1500,1700,1900,2100,2400] [--anchor NAME=ELO ...]
                                    [--games 20] [--tc 10+0.1 | --movetime S | --nodes N]
                                    [--concurrency 2] [--out-dir target/gauntlet] [--pgn-dir DIR]
                                    [--output FILE.md]

Players (default: `classical:Use NNUE=false` and `nnue`, the engine's defaults) are
options of --engine. Every player meets every opponent in --games games: the openings of
the book (data/openings.epd) in order, each with both colours, as nnue_scripts.match
plays them, under one clock for all.

Opponents: without --opponent, the Debian engines found on PATH or in /usr/games
(`apt-get install stockfish glaurung toga2 phalanx`): Stockfish with
UCI_LimitStrength at each --sf-elo level (checked against the range the binary
advertises), Glaurung and Toga II (UCI, their own books off), and Phalanx (xboard only,
book and learning off). A COMMAND may carry arguments (it is split like a shell line);
the third field picks the protocol (uci by default). Engines that are not installed are
skipped with a note. An opponent with UCI_LimitStrength=true and UCI_Elo=N in its options
is an anchor at N; --anchor NAME=ELO anchors any other.

Each pairing's games are saved as they end in OUT_DIR/PLAYER--OPPONENT.json; a rerun
with the same settings plays only the games that are missing (so interrupting and
rerunning, or raising --games, resumes), and refuses a file made with other settings.

Output: a Markdown table per player (W/D/L, score and Elo difference with its 95 %
interval against each opponent) and the ratings of all engines fitted jointly by
maximum likelihood against the anchors (nnue_scripts.rating_fit), written to --output
(default OUT_DIR/gauntlet.md) and, with the same data, to the .json beside it.
Stockfish 15.1 calibrated UCI_Elo at 60s+0.6s (later versions at 120s+1s), anchored to
CCRL 40/4: at other clocks the scale is an approximation. Under --nodes only engines that
stop at a node limit play (Stockfish and ours; Glaurung, Toga II and Phalanx are
skipped with a note). Exit status: 0 when every game
finished cleanly, 1 on a failure (crash, illegal move, time forfeit) or an error,
2 on a usage error.
"""

import argparse
import datetime
import json
import logging
import math
import os
import re
import shlex
import shutil
import sys
import time

from . import common, match, rating_fit

import chess.engine  # noqa: E402  (match has checked that python-chess is there)

PROGRAM = "gauntlet.py"
DEFAULT_PLAYERS = ("classical:Use NNUE=false", "nnue")
DEFAULT_SF_ELO = "1350,1500,1700,1900,2100,2400"
DEFAULT_TC = "10+0.1"
# Where Debian puts its engines, searched after PATH.
ENGINE_DIRS = ("/usr/games", "/usr/local/games")
# Names end up in file names and Markdown tables.
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$")
PROTOCOLS = common.PROTOCOLS
# One thread and 16 MiB of hash for everyone, as our engine's defaults; own books off so
# that every game starts from the shared opening.
SINGLE_CORE = {"Threads": "1", "Hash": "16"}
# (name, command, protocol, options, whether it plays under a node limit: Glaurung 2.2
# often answers `bestmove (none)` when the limit cuts its search, Toga II 3.0 takes
# `go nodes N` for an infinite search, xboard has no node limit).
DEBIAN_ENGINES = (
    ("glaurung", ["glaurung"], "uci", {**SINGLE_CORE, "OwnBook": "false"}, False),
    ("toga2", ["toga2"], "uci", {"Hash": "16", "Number of Threads": "1", "OwnBook": "false"}, False),
    # -b- no opening book, -l- no learning file (results would depend on earlier runs).
    ("phalanx", ["phalanx", "-b-", "-l-"], "xboard", {}, False),
)


class UsageError(Exception):
    pass


class Entrant:
    """A player or an opponent: name, command (a list), protocol, options, anchor rating,
    and whether it stops at a node limit."""

    def __init__(self, name, command, protocol="uci", options=None, anchor=None, takes_nodes=None):
        self.name, self.command, self.protocol = name, command, protocol
        self.options, self.anchor = options or {}, anchor
        self.takes_nodes = protocol == "uci" if takes_nodes is None else takes_nodes

    def player(self):
        return match.Player(self.command, self.name, self.options, self.protocol)

    def config(self):
        return {"name": self.name, "command": self.command, "protocol": self.protocol, "options": self.options}


def fail(message):
    print(f"{PROGRAM}: error: {message}", file=sys.stderr)
    sys.exit(1)


def check_name(name, spec):
    if not NAME_PATTERN.match(name):
        raise UsageError(f"'{spec}': the name '{name}' must be letters, digits, '.', '_', '+' or '-'")
    return name


def parse_option_list(text, spec):
    """'Name=Value,Name=Value' as a dict (names and values may hold spaces)."""
    try:
        return common.parse_option_list(text)
    except ValueError as exc:
        raise UsageError(f"'{spec}': {exc}") from None


def uci_elo_anchor(options):
    """The UCI_Elo a strength-limited Stockfish configuration aims at, or None."""
    if options.get("UCI_LimitStrength", "").lower() != "true" or "UCI_Elo" not in options:
        return None
    try:
        return float(options["UCI_Elo"])
    except ValueError:
        return None


def parse_player(spec, engine):
    """NAME[:Name=Value,...] -> an Entrant running `engine`."""
    name, _, options = spec.partition(":")
    return Entrant(check_name(name, spec), [engine], "uci", parse_option_list(options, spec))


def parse_opponent(spec):
    """NAME:COMMAND[:uci|xboard][:Name=Value,...] -> an Entrant."""
    fields = spec.split(":")
    if len(fields) < 2 or not fields[1].strip():
        raise UsageError(f"'{spec}' is not NAME:COMMAND[:uci|xboard][:Name=Value,...]")
    try:
        command = shlex.split(fields[1])
    except ValueError as exc:
        raise UsageError(f"'{spec}': command: {exc}") from None
    protocol, options = "uci", {}
    for field in fields[2:]:
        if field.strip() in PROTOCOLS:
            protocol = field.strip()
        else:
            options.update(parse_option_list(field, spec))
    options_anchor = uci_elo_anchor(options)
    return Entrant(check_name(fields[0], spec), command, protocol, options, options_anchor)


def parse_anchor(spec):
    name, sep, value = spec.partition("=")
    try:
        return name.strip(), float(value) if sep else None
    except ValueError:
        raise UsageError(f"--anchor '{spec}' is not NAME=ELO") from None


def parse_sf_elos(text):
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise UsageError(f"--sf-elo '{text}' is not a comma-separated list of ratings") from None


def find_engine(program):
    """Path of an installed engine: PATH first, then Debian's game directories."""
    if os.path.sep in program:
        return program if os.access(program, os.X_OK) else None
    return shutil.which(program) or shutil.which(program, path=os.pathsep.join(ENGINE_DIRS))


def stockfish_elo_range(path):
    """(min, max) of the binary's UCI_Elo option, or None when it has none."""
    engine = common.start_engine(path)
    try:
        option = engine.options.get("UCI_Elo")
        return (option.min, option.max) if option else None
    finally:
        engine.quit()


def stockfish_levels(elos, notes):
    path = find_engine("stockfish")
    if not path:
        notes.append("stockfish not found on PATH or in /usr/games: no anchored opponents (apt-get install stockfish)")
        return []
    try:
        limits = stockfish_elo_range(path)
    except (chess.engine.EngineError, chess.engine.EngineTerminatedError, OSError, TimeoutError) as exc:
        notes.append(f"stockfish at {path} did not start ({exc!r}): skipped")
        return []
    if not limits:
        notes.append(f"stockfish at {path} has no UCI_Elo option: skipped")
        return []
    levels = []
    for level in elos:
        if not limits[0] <= level <= limits[1]:
            notes.append(f"stockfish UCI_Elo {level} is outside the binary's range {limits[0]}..{limits[1]}: skipped")
            continue
        options = {**SINGLE_CORE, "UCI_LimitStrength": "true", "UCI_Elo": str(level)}
        levels.append(Entrant(f"stockfish-{level}", [path], "uci", options, float(level)))
    return levels


def default_opponents(elos, notes):
    opponents = stockfish_levels(elos, notes)
    for name, command, protocol, options, takes_nodes in DEBIAN_ENGINES:
        path = find_engine(command[0])
        if not path:
            notes.append(f"{name} not found on PATH or in /usr/games: skipped (apt-get install {name})")
            continue
        opponents.append(Entrant(name, [path, *command[1:]], protocol, options, takes_nodes=takes_nodes))
    return opponents


def usable_opponents(opponents, args, notes):
    """Drops opponents that are not installed or cannot play under this limit, with a note."""
    usable = []
    for opponent in opponents:
        path = find_engine(opponent.command[0])
        if not path:
            notes.append(f"{opponent.name}: {opponent.command[0]} not found: skipped")
        elif args.nodes and not opponent.takes_nodes:
            notes.append(f"{opponent.name} does not stop at a node limit: skipped (use --tc or --movetime)")
        else:
            opponent.command = [path, *opponent.command[1:]]
            usable.append(opponent)
    return usable


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog="python -m nnue_scripts.gauntlet", description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=common.DEFAULT_ENGINE)
    parser.add_argument("--player", action="append", default=[], help="NAME[:Name=Value,...] (repeatable)")
    parser.add_argument("--opponent", action="append", default=[], help="NAME:COMMAND[:uci|xboard][:Name=Value,...]")
    parser.add_argument("--sf-elo", default=DEFAULT_SF_ELO, help="Stockfish UCI_Elo levels of the default opponents")
    parser.add_argument("--anchor", action="append", default=[], help="NAME=ELO: a fixed rating for an opponent")
    match.add_game_arguments(parser, "nnue gauntlet")
    parser.set_defaults(tc=DEFAULT_TC)
    parser.add_argument("--out-dir", default=os.path.join(common.ROOT, "target", "gauntlet"))
    parser.add_argument("--pgn-dir", default=None, help="append each pairing's games to DIR/PLAYER--OPPONENT.pgn")
    parser.add_argument("--output", default=None, help="Markdown report (default OUT_DIR/gauntlet.md; JSON beside it)")
    args = parser.parse_args(argv)
    match.check_game_arguments(parser, args)
    return parser, args


def build_entrants(parser, args, notes):
    try:
        players = [parse_player(spec, args.engine) for spec in args.player or DEFAULT_PLAYERS]
        if args.opponent:
            opponents = [parse_opponent(spec) for spec in args.opponent]
        else:
            opponents = default_opponents(parse_sf_elos(args.sf_elo), notes)
        anchors = dict(parse_anchor(spec) for spec in args.anchor)
    except UsageError as exc:
        parser.error(str(exc))
    names = [e.name for e in players + opponents]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        parser.error(f"names must differ: {', '.join(duplicates)}")
    for name, rating in anchors.items():
        matching = [o for o in opponents if o.name == name]
        if not matching or rating is None:
            parser.error(f"--anchor {name}: no opponent of that name, or no rating")
        matching[0].anchor = rating
    return players, usable_opponents(opponents, args, notes)


def pairing_config(args, player, opponent):
    """Everything that must match for saved games of a pairing to be reused."""
    return {
        "player": player.config(),
        "opponent": opponent.config(),
        "time_control": match.time_control_tag(args),
        "book": os.path.abspath(args.book) if args.book else "",
        "book_seed": args.book_seed,
        "max_plies": args.max_plies,
    }


def pairing_path(directory, player, opponent, suffix):
    return os.path.join(directory, f"{player.name}--{opponent.name}{suffix}")


def load_pairing(path, config):
    """The saved games of a pairing ({index: game}); exits if the file is unusable."""
    if not os.path.exists(path):
        return {}
    try:
        with open(path) as f:
            saved = json.load(f)
    except (OSError, ValueError) as exc:
        fail(f"{path}: cannot read the saved pairing: {exc}")
    if saved.get("config") != config:
        fail(f"{path}: saved with other settings (engine, options, clock or book); use another --out-dir or delete it")
    return {game["index"]: game for game in saved.get("games", [])}


def save_pairing(path, config, games):
    """Writes the pairing atomically, so an interruption never leaves half a file."""
    record = {"config": config, "games": [games[i] for i in sorted(games)]}
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(record, f, indent=1)
    os.replace(tmp, path)


def saved_game(game):
    keys = ("index", "result", "a_score", "termination", "problem", "plies")
    return {key: game[key] for key in keys}


class Progress:
    """Count, rate and ETA of the games still to play."""

    def __init__(self, total):
        self.total, self.done, self.t0 = total, 0, time.monotonic()

    def line(self):
        self.done += 1
        elapsed = time.monotonic() - self.t0
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else math.inf
        return f"[{self.done}/{self.total} {rate * 60:.1f} games/min ETA {eta:.0f}s]"


def play_all(args, players, opponents, book, out_dir):
    """Plays the missing games of every pairing; returns {(player, opponent): {index: game}}."""
    saved, configs, jobs = {}, {}, []
    for player in players:
        for opponent in opponents:
            key = (player.name, opponent.name)
            configs[key] = pairing_config(args, player, opponent)
            saved[key] = load_pairing(pairing_path(out_dir, player, opponent, ".json"), configs[key])
            pair = (player.player(), opponent.player())
            jobs += [(i, pair) for i in range(args.games) if i not in saved[key]]
    by_name = {e.name: e for e in players + opponents}
    progress = Progress(len(jobs))
    print(f"{len(jobs)} games to play, {sum(len(g) for g in saved.values())} saved in {out_dir}", flush=True)

    def on_game(game):
        key = (game["a"], game["b"])
        saved[key][game["index"]] = saved_game(game)
        player, opponent = by_name[key[0]], by_name[key[1]]
        save_pairing(pairing_path(out_dir, player, opponent, ".json"), configs[key], saved[key])
        if args.pgn_dir:
            with open(pairing_path(args.pgn_dir, player, opponent, ".pgn"), "a") as out:
                out.write(game["pgn"] + "\n\n")
        print(f"{progress.line()} {key[0]} vs {key[1]} {match.game_line(game)}", flush=True)

    match.run_games(args, book, jobs, on_game)
    return saved


def tally(games):
    """(wins, draws, losses, failures) from the player's view over the first games."""
    scores = [g["a_score"] for g in games.values()]
    failures = sum(1 for g in games.values() if g["problem"])
    return scores.count(1.0), scores.count(0.5), scores.count(0.0), failures


def format_elo(value):
    if not math.isfinite(value):
        return "+inf" if value > 0 else "-inf"
    return f"{round(value) or 0:+d}"  # no "-0"


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


def pairing_rows(players, opponents, saved):
    rows = []
    for player in players:
        for opponent in opponents:
            wins, draws, losses, failures = tally(saved[(player.name, opponent.name)])
            estimate, low, high = common.elo_interval(wins, draws, losses)
            rows.append(
                {"player": player.name, "opponent": opponent.name, "wins": wins, "draws": draws,
                 "losses": losses, "failures": failures, "elo": estimate, "low": low, "high": high}
            )
    return rows


def opponent_rating_cell(opponent, ratings):
    if opponent.anchor is not None:
        return f"{opponent.anchor:.0f} (anchor)"
    return format_rating(ratings.get(opponent.name))


CALIBRATION_NOTE = (
    "Stockfish documents UCI_Elo as calibrated at 60s+0.6s (15.1; 120s+1s from 16 on) and "
    "anchored to CCRL 40/4, so at other clocks the scale is approximate"
)


def player_section(player, rows, by_name, ratings):
    lines = [f"## {player.name}", "", f"Options: {format_options(player.options)}", ""]
    lines += ["| Opponent | Rating | Games | W | D | L | Score | Elo diff (95 %) | Failures |"]
    lines += ["|---|---|---:|---:|---:|---:|---:|---|---:|"]
    for r in (r for r in rows if r["player"] == player.name):
        n = r["wins"] + r["draws"] + r["losses"]
        score = f"{(r['wins'] + 0.5 * r['draws']) / n:.1%}" if n else "-"
        diff = f"{format_elo(r['elo'])} [{format_elo(r['low'])}, {format_elo(r['high'])}]" if n else "-"
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


def book_name(path):
    """The book as the report names it: relative to the repository when inside it."""
    if not path:
        return "start position"
    relative = os.path.relpath(os.path.abspath(path), common.ROOT)
    return path if relative.startswith("..") else relative


def markdown(args, players, opponents, rows, ratings, notes):
    n_games = sum(r["wins"] + r["draws"] + r["losses"] for r in rows)
    lines = [
        f"# Gauntlet at {match.time_control_tag(args)}",
        "",
        f"{n_games} games, {args.games} per pairing, openings {book_name(args.book)} "
        f"(both colours), {datetime.date.today().isoformat()}. Ratings on Stockfish's UCI_Elo "
        f"scale, fitted jointly by maximum likelihood (draws count half); intervals are 95 %. "
        f"{CALIBRATION_NOTE}.",
        "",
    ]
    by_name = {o.name: o for o in opponents}
    for player in players:
        lines += player_section(player, rows, by_name, ratings)
    lines += ratings_section(ratings)
    if notes:
        lines += ["", "Notes:", ""] + [f"- {note}" for note in notes]
    return "\n".join(lines) + "\n"


def json_safe(record):
    """The record with infinite values as null (JSON has no infinity)."""
    return {k: None if isinstance(v, float) and not math.isfinite(v) else v for k, v in record.items()}


def write_reports(args, out_dir, players, opponents, rows, ratings, notes):
    output = args.output or os.path.join(out_dir, "gauntlet.md")
    report = markdown(args, players, opponents, rows, ratings, notes)
    data = {
        "time_control": match.time_control_tag(args),
        "games_per_pairing": args.games,
        "players": [p.config() for p in players],
        "opponents": [{**o.config(), "anchor": o.anchor} for o in opponents],
        "pairings": [json_safe(r) for r in rows],
        "ratings": {name: json_safe(r.as_dict()) for name, r in ratings.items()},
        "notes": notes,
    }
    try:
        with open(output, "w") as f:
            f.write(report)
        with open(os.path.splitext(output)[0] + ".json", "w") as f:
            json.dump(data, f, indent=1)
    except OSError as exc:
        fail(f"{output}: {exc.strerror}")
    return report, output


def fit(rows, opponents):
    anchors = {o.name: o.anchor for o in opponents if o.anchor is not None}
    if not anchors:
        return {}
    pairings = [(r["player"], r["opponent"], r["wins"], r["draws"], r["losses"]) for r in rows]
    return rating_fit.fit_ratings(pairings, anchors)


def main(argv=None):
    parser, args = parse_args(argv)
    # python-chess warns about every line an xboard engine prints that it does not parse
    # (Phalanx echoes its settings); the game loop reports real failures itself.
    logging.getLogger("chess.engine").setLevel(logging.ERROR)
    notes = []
    players, opponents = build_entrants(parser, args, notes)
    for note in notes:
        print(f"{PROGRAM}: note: {note}", file=sys.stderr)
    if not os.path.exists(args.engine):
        fail(f"engine {args.engine} not found (cargo build --release --bin nnue)")
    if not opponents:
        fail("no opponent is installed (apt-get install stockfish glaurung toga2 phalanx, or --opponent)")
    for directory in filter(None, (args.out_dir, args.pgn_dir)):
        os.makedirs(directory, exist_ok=True)
    try:
        book = common.load_book(args.book)
    except ValueError as exc:
        fail(str(exc))
    try:
        saved = play_all(args, players, opponents, book, args.out_dir)
    except KeyboardInterrupt:
        print(f"{PROGRAM}: interrupted; finished games are saved in {args.out_dir}: rerun to resume", file=sys.stderr)
        return 1
    rows = pairing_rows(players, opponents, saved)
    if not any(o.anchor is not None for o in opponents):
        notes.append("no anchored opponent: only head-to-head Elo differences are reported")
    report, output = write_reports(args, args.out_dir, players, opponents, rows, fit(rows, opponents), notes)
    print(report)
    print(f"report written to {output} and {os.path.splitext(output)[0]}.json")
    return 1 if any(r["failures"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
