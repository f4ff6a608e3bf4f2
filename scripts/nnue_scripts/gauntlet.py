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
embedded net) against Stockfish at UCI_Elo 2100, 2400 and 2700, Glaurung, Toga II and
Ethereal 12 (--preset strength-2025: the earlier opponents, Stockfish at 1800, 2100 and
2400, Glaurung, Toga II and Phalanx), 34 games a pairing in each of two opening sets (data/openings.epd and
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
advertises), and the Debian engines named by --debian-engines (default
glaurung,toga2,phalanx; ethereal is the fourth known): Glaurung and Toga II (UCI, their
own books off), Phalanx (xboard only, book and learning off) and Ethereal 12 (UCI,
`apt-get install ethereal-chess`). A COMMAND may carry arguments (it is split like a shell line);
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

The parts: nnue_scripts.entrants (player and opponent specifications),
nnue_scripts.opponents (the installed Debian engines), nnue_scripts.gauntlet_results (what
the games add up to) and nnue_scripts.gauntlet_report (the Markdown and JSON); this module
chooses the entrants, plays the games and keeps each pairing's saved games.
"""

import argparse
import json
import logging
import math
import os
import sys
import time

from . import adjudication, common, match
from .entrants import UsageError, parse_anchor, parse_opponent, parse_player, parse_sf_elos
from .gauntlet_report import markdown, report_json
from .gauntlet_results import joint_fit, pairing_rows, report_data
from .opponents import DEBIAN_NAMES, DEFAULT_DEBIAN, default_opponents, parse_debian, usable_opponents

PROGRAM = "gauntlet.py"
DEFAULT_PLAYERS = ("classical:Use NNUE=false", "nnue")
DEFAULT_SF_ELO = "1350,1500,1700,1900,2100,2400"
DEFAULT_TC = "10+0.1"


def fail(message):
    print(f"{PROGRAM}: error: {message}", file=sys.stderr)
    sys.exit(1)


# The strength report (--preset strength): our engine with the classical evaluation and
# each candidate net (--player; default the embedded net) against Stockfish 15.1 at
# three UCI_Elo anchors, Glaurung, Toga II and Ethereal 12, on two opening sets. 34 games
# a pairing and set (17 openings, both colours) make 408 games a configuration. The clock
# and the forfeit margin come from measured overshoots (README, Gauntlet). The opponents
# moved up with the engine (Stockfish 1800 and Phalanx lost nearly every game and told
# little); --preset strength-2025 is the earlier set (Stockfish 1800, 2100, 2400,
# Glaurung, Toga II, Phalanx), so that earlier reports can be repeated.
STRENGTH_REFERENCE = "classical:Use NNUE=false"
STRENGTH_CANDIDATES = ("default-net",)
RANDOM_BOOK = os.path.join(common.ROOT, "data", "openings-random.epd")
STRENGTH_COMMON = {
    "books": [common.DEFAULT_BOOK, RANDOM_BOOK],
    "games": 34,
    "tc": "5+0.05",
    "time_margin": 200.0,
    **adjudication.ON,
    "out_dir": os.path.join(common.ROOT, "target", "strength"),
    "title": "Strength report",
}
PRESETS = {
    "strength": {
        **STRENGTH_COMMON,
        "sf_elo": "2100,2400,2700",
        "debian_engines": "glaurung,toga2,ethereal",
    },
    "strength-2025": {
        **STRENGTH_COMMON,
        "sf_elo": "1800,2100,2400",
        "debian_engines": "glaurung,toga2,phalanx",
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
    parser.add_argument("--debian-engines", default=",".join(DEFAULT_DEBIAN),
                        help=f"the other Debian engines among the default opponents, of {', '.join(DEBIAN_NAMES)}")
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
    if preset in ("strength", "strength-2025"):
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
            opponents = default_opponents(parse_sf_elos(args.sf_elo), notes, parse_debian(args.debian_engines))
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


def write_reports(args, out_dir, players, opponents, rows, ratings, notes, extra=None):
    output = args.output or os.path.join(out_dir, "gauntlet.md")
    report = markdown(args, players, opponents, rows, ratings, notes, extra)
    data = report_json(args, players, opponents, rows, ratings, notes, extra)
    try:
        with open(output, "w") as f:
            f.write(report)
        with open(os.path.splitext(output)[0] + ".json", "w") as f:
            json.dump(data, f, indent=1, allow_nan=False)
    except OSError as exc:
        fail(f"{output}: {exc.strerror}")
    return report, output


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
