"""Plays our engine, in one or more configurations, against a gauntlet of known engines
and places it on Stockfish's UCI_Elo scale.

    python -m nnue_scripts.gauntlet --preset strength [--player NAME:EvalFile=PATH ...]
    python -m nnue_scripts.gauntlet [--engine target/release/nnue]
                                    [--player NAME[:Name=Value,...] ...] [--reference NAME]
                                    [--opponent NAME:COMMAND[:uci|xboard][:Name=Value,...] ...]
                                    [--sf-elo 1350,1500,1700,1900,2100,2400] [--anchor NAME=ELO ...]
                                    [--games 20] [--tc 10+0.1 | --movetime S | --nodes N]
                                    [--time-margin MS] [--book FILE.epd ...]
                                    [--resign-score CP [--resign-moves N]]
                                    [--draw-moves N [--draw-score CP] [--draw-after M]]
                                    [--concurrency 2] [--out-dir target/gauntlet] [--pgn-dir DIR]
                                    [--output FILE.md]

--preset strength is the standard strength report: the classical evaluation
(`classical:Use NNUE=false`) and each --player given (default `default-net`, the
embedded net) against Stockfish at UCI_Elo 1800, 2100 and 2400, Glaurung, Toga II and
Phalanx, 34 games a pairing in each of two opening sets (data/openings.epd and
data/openings-random.epd), 408 games a configuration, at 5+0.05 with a 200 ms forfeit
margin and score adjudication (a win once both engines agree one side is 1000 cp ahead
for 3 moves each, a draw once both score within 10 cp for 8 moves each after move 40),
into target/strength. Any flag given overrides the preset's value (`--resign-score 0
--draw-moves 0` turn adjudication off).

Players (default: `classical:Use NNUE=false` and `nnue`, the engine's defaults) are
options of --engine. Every player meets every opponent in --games games per opening set
(--book, repeatable; default data/openings.epd): the openings of the book in order, each
with both colours, as nnue_scripts.match plays them, under one clock for all.

Opponents: without --opponent, the Debian engines found on PATH or in /usr/games
(`apt-get install stockfish glaurung toga2 phalanx`): Stockfish with
UCI_LimitStrength at each --sf-elo level (checked against the range the binary
advertises), Glaurung and Toga II (UCI, their own books off), and Phalanx (xboard only,
book and learning off). A COMMAND may carry arguments (it is split like a shell line);
the third field picks the protocol (uci by default). Engines that are not installed are
skipped with a note. An opponent with UCI_LimitStrength=true and UCI_Elo=N in its options
is an anchor at N; --anchor NAME=ELO anchors any other.

Time forfeits follow one rule for every engine (nnue_scripts.match's clock): a move
that exceeds the time left by at most --time-margin ms is counted as an overshoot and
its debt stays on the clock; a larger one loses on time. Overshoots and forfeits are
reported per engine.

Score adjudication (nnue_scripts.match's --resign-score, --resign-moves, --draw-moves,
--draw-score, --draw-after) is off by default, on in --preset strength; the report says
how many games each rule ended.

Each pairing's games are saved as they end in OUT_DIR/PLAYER--OPPONENT.json (with
several opening sets, OUT_DIR/SET/PLAYER--OPPONENT.json); a rerun with the same settings
plays only the games that are missing (so interrupting and rerunning, or raising
--games, resumes), and refuses a file made with other settings.

Output: a Markdown table per player (W/D/L, score and Elo difference with its 95 %
interval against each opponent), the ratings of all engines fitted jointly by maximum
likelihood against the anchors (nnue_scripts.rating_fit), each player's rating minus the
reference player's (--reference; default `classical`) with its 95 % interval from the
fit's covariance, the game-pair (pentanomial) counts with the pair-based Elo interval,
with several sets the ratings fitted on each set alone, and the clock table; written to
--output (default OUT_DIR/gauntlet.md) and, with the same data, to the .json beside it.
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

from . import adjudication, common, match, rating_fit

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
        return {"name": self.name, "command": self.command, "protocol": self.protocol, "options": self.options,
                "contents": common.content_digests(self.command, self.options)}


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


# The strength report (--preset strength): our engine with the classical evaluation and
# each candidate net (--player; default the embedded net) against Stockfish 15.1 at
# three UCI_Elo anchors, Glaurung, Toga II and Phalanx, on two opening sets. 34 games a
# pairing and set (17 openings, both colours) make 408 games a configuration. The clock
# and the forfeit margin come from measured overshoots (README, Gauntlet).
STRENGTH_REFERENCE = "classical:Use NNUE=false"
STRENGTH_CANDIDATES = ("default-net",)
RANDOM_BOOK = os.path.join(common.ROOT, "data", "openings-random.epd")
PRESETS = {
    "strength": {
        "sf_elo": "1800,2100,2400",
        "books": [common.DEFAULT_BOOK, RANDOM_BOOK],
        "games": 34,
        "tc": "5+0.05",
        "time_margin": 200.0,
        **adjudication.ON,
        "out_dir": os.path.join(common.ROOT, "target", "strength"),
        "title": "Strength report",
    },
}


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m nnue_scripts.gauntlet", description=__doc__.splitlines()[0], conflict_handler="resolve"
    )
    parser.add_argument("--preset", choices=sorted(PRESETS), default=None,
                        help="strength: the standard strength report (explicit flags override its settings)")
    parser.add_argument("--engine", default=common.DEFAULT_ENGINE)
    parser.add_argument("--player", action="append", default=[], help="NAME[:Name=Value,...] (repeatable)")
    parser.add_argument("--reference", default=None,
                        help="the player the others are compared with (default: 'classical' if playing, else the first)")
    parser.add_argument("--opponent", action="append", default=[], help="NAME:COMMAND[:uci|xboard][:Name=Value,...]")
    parser.add_argument("--sf-elo", default=DEFAULT_SF_ELO, help="Stockfish UCI_Elo levels of the default opponents")
    parser.add_argument("--anchor", action="append", default=[], help="NAME=ELO: a fixed rating for an opponent")
    match.add_game_arguments(parser, "nnue gauntlet")
    parser.add_argument("--book", action="append", default=None,
                        help="EPD openings ('' for the start position); repeat for several sets, each played --games times a pairing")
    parser.set_defaults(tc=DEFAULT_TC, title="Gauntlet", books=[common.DEFAULT_BOOK])
    parser.add_argument("--out-dir", default=os.path.join(common.ROOT, "target", "gauntlet"))
    parser.add_argument("--pgn-dir", default=None, help="append each pairing's games to DIR/PLAYER--OPPONENT.pgn")
    parser.add_argument("--output", default=None, help="Markdown report (default OUT_DIR/gauntlet.md; JSON beside it)")
    preset = parser.parse_known_args(argv)[0].preset
    if preset:
        parser.set_defaults(**PRESETS[preset])
    args = parser.parse_args(argv)
    if args.book is None:
        args.book = list(args.books)
    match.check_game_arguments(parser, args)
    if preset == "strength":
        candidates = args.player or list(STRENGTH_CANDIDATES)
        names = [spec.partition(":")[0] for spec in candidates]
        args.player = candidates if "classical" in names else [STRENGTH_REFERENCE, *candidates]
    if args.time_margin < 0:
        parser.error("--time-margin must not be negative")
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


class OpeningSet:
    """One opening book: a short name (its file name without .epd), its path and FENs."""

    def __init__(self, name, path, fens):
        self.name, self.path, self.fens = name, path, fens


def opening_sets(paths):
    """The --book files as OpeningSets; ValueError for an unreadable book or a name twice."""
    sets = []
    for path in paths:
        name = os.path.splitext(os.path.basename(path))[0] if path else "start"
        if any(existing.name == name for existing in sets):
            raise ValueError(f"two opening sets are named '{name}'")
        sets.append(OpeningSet(name, path, common.load_book(path)))
    return sets


def pairing_config(args, player, opponent, book=None):
    """Everything that must match for saved games of a pairing to be reused."""
    if book is None:  # the first set's
        book = args.book[0] if isinstance(args.book, list) else args.book
    config = {
        "player": player.config(),
        "opponent": opponent.config(),
        "time_control": match.time_control_tag(args),
        "book": os.path.abspath(book) if book else "",
        "book_seed": args.book_seed,
        "max_plies": args.max_plies,
    }
    if args.time_margin:
        config["time_margin_ms"] = args.time_margin
    # Only when on, so pairings saved before adjudication existed match settings without it.
    rules = adjudication.Rules.from_args(args).record()
    if rules:
        config["adjudication"] = rules
    return config


def set_directory(directory, sets, opening_set):
    """Where a set's pairings are kept: DIR itself for a single set, DIR/SET for several."""
    return directory if len(sets) == 1 else os.path.join(directory, opening_set.name)


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
        hint = adjudication.resume_hint(saved.get("config") or {}, config)
        fail(f"{path}: saved with other settings (engine, its binary or net contents, options, clock, "
             f"forfeit margin, book or score adjudication){hint}; "
             f"use another --out-dir or delete it")
    return {game["index"]: game for game in saved.get("games", [])}


def save_pairing(path, config, games):
    """Writes the pairing atomically, so an interruption never leaves half a file."""
    record = {"config": config, "games": [games[i] for i in sorted(games)]}
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(record, f, indent=1)
    os.replace(tmp, path)


def saved_game(game):
    keys = ("index", "result", "a_score", "termination", "problem", "plies", "forfeit", "a_clock", "b_clock")
    return {key: game.get(key) for key in keys}


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


def play_all(args, players, opponents, sets, out_dir):
    """Plays the missing games of every pairing in every opening set; returns
    {(set, player, opponent): {index: game}}. Games go in order of opening pairs, so
    every pairing and set advances together and both colours of an opening follow
    each other."""
    saved, configs, paths, pgns, jobs = {}, {}, {}, {}, []
    for opening_set in sets:
        directory = set_directory(out_dir, sets, opening_set)
        pgn_directory = set_directory(args.pgn_dir, sets, opening_set) if args.pgn_dir else None
        for d in filter(None, (directory, pgn_directory)):
            os.makedirs(d, exist_ok=True)
        for player in players:
            for opponent in opponents:
                key = (opening_set.name, player.name, opponent.name)
                configs[key] = pairing_config(args, player, opponent, opening_set.path)
                paths[key] = pairing_path(directory, player, opponent, ".json")
                pgns[key] = pairing_path(pgn_directory, player, opponent, ".pgn") if pgn_directory else None
                saved[key] = load_pairing(paths[key], configs[key])
    pairs = {(p.name, o.name): (p.player(), o.player()) for p in players for o in opponents}
    for index in range(args.games):
        for opening_set in sets:
            for player in players:
                for opponent in opponents:
                    key = (opening_set.name, player.name, opponent.name)
                    if index not in saved[key]:
                        jobs.append((index, pairs[key[1:]], opening_set.fens, key))
    progress = Progress(len(jobs))
    print(f"{len(jobs)} games to play, {sum(len(g) for g in saved.values())} saved in {out_dir}", flush=True)

    def on_game(game):
        key = game["tag"]
        saved[key][game["index"]] = saved_game(game)
        save_pairing(paths[key], configs[key], saved[key])
        if pgns[key]:
            with open(pgns[key], "a") as out:
                out.write(game["pgn"] + "\n\n")
        where = f" [{key[0]}]" if len(sets) > 1 else ""
        print(f"{progress.line()} {key[1]} vs {key[2]}{where} {match.game_line(game)}", flush=True)

    match.run_games(args, None, jobs, on_game)
    return saved


def tally(games):
    """(wins, draws, losses, failures) from the player's view."""
    scores = [g["a_score"] for g in games.values()]
    failures = sum(1 for g in games.values() if g["problem"])
    return scores.count(1.0), scores.count(0.5), scores.count(0.0), failures


def format_elo(value):
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


def pairing_games(saved, set_names, player, opponent):
    """The games of a pairing in the given sets, one {index: game} per set."""
    games = []
    for key, by_index in saved.items():
        if len(key) == 2:  # (player, opponent): a single unnamed set
            key = (None, *key)
        if key[1:] == (player, opponent) and (set_names is None or key[0] in set_names):
            games.append(by_index)
    return games


def pairing_rows(players, opponents, saved, set_names=None):
    """One row per player and opponent over the sets named (all by default): W/D/L, Elo
    with its per-game interval, the game-pair counts and the pair-based interval."""
    rows = []
    for player in players:
        for opponent in opponents:
            per_set = pairing_games(saved, set_names, player.name, opponent.name)
            wins = draws = losses = failures = 0
            pairs = []
            for games in per_set:
                w, d, l, f = tally(games)
                wins, draws, losses, failures = wins + w, draws + d, losses + l, failures + f
                pairs += common.pair_scores({i: g["a_score"] for i, g in games.items()})
            estimate, low, high = common.elo_interval(wins, draws, losses)
            counts = common.pentanomial(pairs)
            p_estimate, p_low, p_high = common.pentanomial_interval(counts)
            rows.append(
                {"player": player.name, "opponent": opponent.name, "wins": wins, "draws": draws,
                 "losses": losses, "failures": failures, "elo": estimate, "low": low, "high": high,
                 "pairs": counts, "pair_elo": p_estimate, "pair_low": p_low, "pair_high": p_high}
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


DIFFERENCE_NOTE = (
    "the difference of the two jointly fitted ratings; its 95 % interval comes from the "
    "fit's covariance, Var(a - b) = C[a][a] + C[b][b] - 2 C[a][b] (nnue_scripts.rating_fit)"
)


def reference_name(args, players):
    names = [p.name for p in players]
    if args.reference:
        return args.reference if args.reference in names else None
    return "classical" if "classical" in names else names[0]


def differences(fitted, players, reference):
    """[{player, reference, estimate, low, high}] for every player but the reference;
    estimate None where either rating is not fitted."""
    result = []
    for player in players:
        if player.name == reference:
            continue
        value = rating_fit.difference(fitted, player.name, reference) if fitted else None
        estimate, low, high = value if value else (None, None, None)
        result.append({"player": player.name, "reference": reference, "estimate": estimate, "low": low, "high": high})
    return result


def difference_lines(diffs):
    lines = []
    for d in diffs:
        value = format_interval(d["estimate"], d["low"], d["high"]) if d["estimate"] is not None else "not fitted"
        lines.append(f"- **{d['player']} − {d['reference']}: {value}**")
    return lines


PAIR_NOTE = (
    "Each opening is played with both colours; the pair of games scores 0, ½, 1, 1½ or 2 "
    "points for the player. The Elo interval uses the variance of the pair scores "
    "(pentanomial, as fastchess and OpenBench report it) instead of the per-game one"
)


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


def per_set_results(args, players, opponents, saved, sets, reference):
    """For each set: the players' ratings fitted on that set's games alone, and the differences."""
    results = []
    for opening_set in sets:
        rows = pairing_rows(players, opponents, saved, {opening_set.name})
        fitted = joint_fit(rows, opponents)
        ratings = fitted.ratings if fitted else {}
        results.append({
            "set": opening_set.name,
            "book": book_name(opening_set.path),
            "positions": len(opening_set.fens),
            "players": [{"player": p.name,
                         "games": sum(r["wins"] + r["draws"] + r["losses"] for r in rows if r["player"] == p.name),
                         "score": set_score(rows, p.name),
                         "rating": ratings[p.name].as_dict() if p.name in ratings else None,
                         "rating_text": format_rating(ratings.get(p.name))}
                        for p in players],
            "differences": differences(fitted, players, reference) if reference else [],
        })
    return results


def set_score(rows, player):
    mine = [r for r in rows if r["player"] == player]
    n = sum(r["wins"] + r["draws"] + r["losses"] for r in mine)
    return (sum(r["wins"] + 0.5 * r["draws"] for r in mine) / n) if n else None


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


def clock_records(players, opponents, saved):
    """Per engine over all its games: games, moves, moves that overshot the clock (kept
    within the margin), the worst overshoot in ms and time forfeits."""
    records = {e.name: {"games": 0, "moves": 0, "overshoots": 0, "worst_ms": 0.0, "forfeits": 0}
               for e in players + opponents}
    for key, games in saved.items():
        player, opponent = key[-2], key[-1]
        for game in games.values():
            for name, side in ((player, "a"), (opponent, "b")):
                record = records[name]
                record["games"] += 1
                clock = game.get(f"{side}_clock") or {}
                record["moves"] += clock.get("moves", 0)
                record["overshoots"] += clock.get("overshoots", 0)
                if clock.get("min_left_ms") is not None:
                    record["worst_ms"] = max(record["worst_ms"], -clock["min_left_ms"])
                if game.get("forfeit") == side:
                    record["forfeits"] += 1
    return records


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


def report_data(args, players, opponents, saved, sets, rows, fitted):
    reference = reference_name(args, players)
    return {
        "reference": reference,
        "differences": differences(fitted, players, reference) if reference and len(players) > 1 else [],
        "sets": per_set_results(args, players, opponents, saved, sets, reference) if len(sets) > 1 else
        [{"set": s.name, "book": book_name(s.path), "positions": len(s.fens)} for s in sets],
        "clock": clock_records(players, opponents, saved),
        "adjudicated": adjudication.counts([game for games in saved.values() for game in games.values()]),
    }


def write_reports(args, out_dir, players, opponents, rows, ratings, notes, extra=None):
    output = args.output or os.path.join(out_dir, "gauntlet.md")
    report = markdown(args, players, opponents, rows, ratings, notes, extra)
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
    try:
        with open(output, "w") as f:
            f.write(report)
        with open(os.path.splitext(output)[0] + ".json", "w") as f:
            json.dump(json_clean(data), f, indent=1, allow_nan=False)
    except OSError as exc:
        fail(f"{output}: {exc.strerror}")
    return report, output


def joint_fit(rows, opponents):
    """The joint fit (rating_fit.Fit) of the rows against the anchored opponents, or None."""
    anchors = {o.name: o.anchor for o in opponents if o.anchor is not None}
    if not anchors:
        return None
    pairings = [(r["player"], r["opponent"], r["wins"], r["draws"], r["losses"]) for r in rows]
    return rating_fit.fit(pairings, anchors)


def fit(rows, opponents):
    fitted = joint_fit(rows, opponents)
    return fitted.ratings if fitted else {}


def main(argv=None):
    parser, args = parse_args(argv)
    # python-chess warns about every line an xboard engine prints that it does not parse
    # (Phalanx echoes its settings); the game loop reports real failures itself.
    logging.getLogger("chess.engine").setLevel(logging.ERROR)
    notes = []
    players, opponents = build_entrants(parser, args, notes)
    if args.reference and args.reference not in [p.name for p in players]:
        parser.error(f"--reference {args.reference}: no player of that name")
    for note in notes:
        print(f"{PROGRAM}: note: {note}", file=sys.stderr)
    if not os.path.exists(args.engine):
        fail(f"engine {args.engine} not found (cargo build --release --bin nnue)")
    if not opponents:
        fail("no opponent is installed (apt-get install stockfish glaurung toga2 phalanx, or --opponent)")
    os.makedirs(args.out_dir, exist_ok=True)
    try:
        sets = opening_sets(args.book)
    except ValueError as exc:
        fail(str(exc))
    try:
        saved = play_all(args, players, opponents, sets, args.out_dir)
    except KeyboardInterrupt:
        print(f"{PROGRAM}: interrupted; finished games are saved in {args.out_dir}: rerun to resume", file=sys.stderr)
        return 1
    rows = pairing_rows(players, opponents, saved)
    if not any(o.anchor is not None for o in opponents):
        notes.append("no anchored opponent: only head-to-head Elo differences are reported")
    fitted = joint_fit(rows, opponents)
    ratings = fitted.ratings if fitted else {}
    extra = report_data(args, players, opponents, saved, sets, rows, fitted)
    report, output = write_reports(args, args.out_dir, players, opponents, rows, ratings, notes, extra)
    print(report)
    print(f"report written to {output} and {os.path.splitext(output)[0]}.json")
    return 1 if any(r["failures"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
