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
                                    [--output FILE.md] [--shard I/N | --report-only]

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
options of --engine; `--player-engine NAME=PATH` runs player NAME on another build, so
that two builds of the engine (an old and a new search) are players of one report. Every player meets every opponent in --games games per opening set
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

Shards (nnue_scripts.shards): `--shard I/N` plays only the games with (index + k) mod N == I,
where k numbers the pairings in every set (set, then player, then opponent), for N machines, e.g. the tasks of
scripts/gauntlet-slurm.sh, sharing one OUT_DIR; the shard saves its games under
OUT_DIR/shards/I-of-N/ and skips the games saved by any run there. Every run reads all
of them, so a rerun resumes a cancelled shard and an unsplit run plays only what no shard
has. The shard that finds every game saved writes the report; `--report-only` writes it
from the saved games without playing (an error while games are missing). The report is
the one an unsplit run of the same games writes. SIGTERM (a scheduler's pre-emption) stops
like Ctrl-C: the finished games stay saved, the game in progress is played again on resume.

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
2 on a usage error, 143 when stopped by SIGTERM (the games finished so far are saved).

The parts: nnue_scripts.entrants (player and opponent specifications),
nnue_scripts.opponents (the installed Debian engines), nnue_scripts.gauntlet_results (what
the games add up to) and nnue_scripts.gauntlet_report (the Markdown and JSON); this module
chooses the entrants, plays the games and keeps each pairing's saved games.
"""

import argparse
import contextlib
import json
import logging
import math
import os
import re
import signal
import sys
import time

from . import adjudication, common, match, shards
from .entrants import UsageError, parse_anchor, parse_opponent, parse_player, parse_player_engine, parse_sf_elos
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
    parser.add_argument("--player-engine", action="append", default=[],
                        help="NAME=PATH: the player NAME runs this binary instead of --engine (two builds in one report)")
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
    parser.add_argument("--shard", default=None, metavar="I/N",
                        help="play only shard I of N (0-based) of the games, saved under OUT_DIR/shards/I-of-N")
    parser.add_argument("--report-only", action="store_true",
                        help="play nothing: write the report from every run's saved games in OUT_DIR")
    preset = parser.parse_known_args(argv)[0].preset
    if preset:
        parser.set_defaults(**PRESETS[preset])
    args = parser.parse_args(argv)
    if args.book is None:
        args.book = list(args.books)
    match.check_game_arguments(parser, args)
    try:
        args.shard = shards.parse_shard(args.shard) if args.shard is not None else shards.WHOLE
    except ValueError as exc:
        parser.error(f"--shard {exc}")
    if args.report_only and not args.shard.whole:
        parser.error("--report-only reads every shard's games: give it without --shard")
    if preset in ("strength", "strength-2025"):
        candidates = args.player or list(STRENGTH_CANDIDATES)
        names = [spec.partition(":")[0] for spec in candidates]
        args.player = candidates if "classical" in names else [STRENGTH_REFERENCE, *candidates]
    if args.time_margin < 0:
        parser.error("--time-margin must not be negative")
    return parser, args


def build_entrants(parser, args, notes):
    try:
        engines = dict(parse_player_engine(spec) for spec in args.player_engine)
        players = [parse_player(spec, args.engine) for spec in args.player or DEFAULT_PLAYERS]
        unknown = sorted(set(engines) - {p.name for p in players})
        if unknown:
            raise UsageError(f"--player-engine {unknown[0]}: no player of that name")
        for player in players:
            player.command = [engines.get(player.name, args.engine)]
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
    if len(sets) > 1 and any(s.name == shards.SHARDS_DIR for s in sets):
        raise ValueError(f"an opening set may not be named '{shards.SHARDS_DIR}' (the shards' folder); rename the book")
    return sets


# The key of a pairing's settings that holds its opening book's SHA-256.
BOOK_HASH = "book_sha256"


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
    if book:
        # The book's bytes, so the saved games resume or rerate from another checkout
        # (its path differs) and not after the book is edited (its path is the same).
        config[BOOK_HASH] = common.file_sha256(book)
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


def pairing_relative(sets, opening_set, player, opponent):
    """A pairing's file relative to OUT_DIR (or to a shard's folder there)."""
    return pairing_path(set_directory("", sets, opening_set), player, opponent, ".json")


def pairing_path(directory, player, opponent, suffix):
    return os.path.join(directory, f"{player.name}--{opponent.name}{suffix}")


def comparable(saved, config):
    """A saved pairing's settings and the current ones as they are compared: a pairing
    saved with its book's SHA-256 matches on those bytes wherever the book lies (the path
    is left out); one saved before the hash was kept matches on the book's path, as it
    always did (the current hash is left out)."""
    ignored = "book" if BOOK_HASH in saved else BOOK_HASH
    def kept(settings):
        return {key: value for key, value in settings.items() if key != ignored}
    return kept(saved), kept(config)


def load_pairing(path, config):
    """The saved games of a pairing ({index: game}); exits if the file is unusable."""
    if not os.path.exists(path):
        return {}
    try:
        with open(path) as f:
            saved = json.load(f)
    except (OSError, ValueError) as exc:
        fail(f"{path}: cannot read the saved pairing: {exc}")
    settings = saved.get("config")
    saved_settings, current = comparable(settings if isinstance(settings, dict) else {}, config)
    if saved_settings != current:
        hint = adjudication.resume_hint(saved_settings, current)
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


class Plan:
    """Every game of the unsplit run, in its order: (index, set, player, opponent) with
    index outermost, so that every pairing and set advances together and both colours of
    an opening follow each other. Also each pairing's settings and file, relative to the
    output folder."""

    def __init__(self, args, players, opponents, sets):
        self.sets, self.configs, self.files, self.entrants, self.series = sets, {}, {}, {}, {}
        for opening_set in sets:
            for player in players:
                for opponent in opponents:
                    key = (opening_set.name, player.name, opponent.name)
                    self.configs[key] = pairing_config(args, player, opponent, opening_set.path)
                    self.files[key] = pairing_relative(sets, opening_set, player, opponent)
                    self.entrants[key] = (player, opponent, opening_set)
                    self.series[key] = len(self.series)
        self.games = [(index, key) for index in range(args.games) for key in self.configs]

    def shard_games(self, shard):
        """The (index, key) of the games that `shard` plays, in the plan's order."""
        return [(index, key) for index, key in self.games if shard.owns(index, self.series[key])]

    def load(self, out_dir):
        """{key: {index: game}} from every run's files in out_dir (nnue_scripts.shards);
        exits naming the file when one is unusable or a game is saved twice."""
        saved = {}
        for key, relative in self.files.items():
            files = [(path, load_pairing(path, self.configs[key])) for path in shards.saved_paths(out_dir, relative)]
            try:
                saved[key] = shards.merge_games(files)
            except ValueError as exc:
                fail(str(exc))
        return saved

    def missing(self, saved):
        """The (index, key) of the games no run has saved, in the plan's order."""
        return [(index, key) for index, key in self.games if index not in saved[key]]


def play_all(args, players, opponents, sets, out_dir):
    """Plays this run's games that no run in out_dir has saved: every game, or with
    --shard I/N those of the shard (Plan.shard_games). Saves each game as it ends in this
    run's own files (OUT_DIR, or OUT_DIR/shards/I-of-N), so that concurrent shards never
    write the same file. Returns (plan, {key: {index: game}} of every run in out_dir)."""
    plan = Plan(args, players, opponents, sets)
    shard = getattr(args, "shard", shards.WHOLE)
    saved = plan.load(out_dir)
    own_dir = os.path.join(out_dir, shard.folder())
    own_paths = {key: os.path.join(own_dir, relative) for key, relative in plan.files.items()}
    own = {key: load_pairing(path, plan.configs[key]) for key, path in own_paths.items()}
    pgns = {}
    for key, (player, opponent, opening_set) in plan.entrants.items():
        os.makedirs(os.path.dirname(own_paths[key]) or ".", exist_ok=True)
        if args.pgn_dir:
            pgn_directory = set_directory(os.path.join(args.pgn_dir, shard.folder()), sets, opening_set)
            os.makedirs(pgn_directory, exist_ok=True)
            pgns[key] = pairing_path(pgn_directory, player, opponent, ".pgn")
    pairs = {key: (player.player(), opponent.player()) for key, (player, opponent, _) in plan.entrants.items()}
    fens = {opening_set.name: opening_set.fens for opening_set in sets}
    jobs = [(index, pairs[key], fens[key[0]], key) for index, key in plan.shard_games(shard)
            if index not in saved[key]]
    progress = Progress(len(jobs))
    where_text = "" if shard.whole else f" (shard {shard} of the {len(plan.games)})"
    print(f"{len(jobs)} games to play{where_text}, {sum(len(g) for g in saved.values())} saved in {out_dir}",
          flush=True)

    def on_game(game):
        key = game["tag"]
        signum = killed_from_outside(game)
        if signum:
            # The engine was stopped by a signal meant for the whole job (Ctrl-C, a
            # scheduler's pre-emption): not a result; the game is played again on resume.
            raise Terminated if signum == signal.SIGTERM else KeyboardInterrupt
        with STOP.deferred():
            own[key][game["index"]] = saved[key][game["index"]] = saved_game(game)
            save_pairing(own_paths[key], plan.configs[key], own[key])
            if key in pgns:
                with open(pgns[key], "a") as out:
                    out.write(game["pgn"] + "\n\n")
        where = f" [{key[0]}]" if len(sets) > 1 else ""
        print(f"{progress.line()} {key[1]} vs {key[2]}{where} {match.game_line(game)}", flush=True)

    match.run_games(args, None, jobs, on_game)
    # Other shards may have saved games meanwhile.
    return plan, (plan.load(out_dir) if not shard.whole else saved)


# How python-chess names an engine that exited on SIGHUP, SIGINT or SIGTERM: a signal
# from outside, not a crash of the engine.
KILLED_PATTERN = re.compile(r"exit code: -(1|2|15)\b")


def killed_from_outside(game):
    """The signal (SIGHUP, SIGINT or SIGTERM) that killed an engine of a crashed game, or None."""
    if game.get("termination") != "crash" or not game.get("problem"):
        return None
    found = KILLED_PATTERN.search(game["problem"])
    return int(found.group(1)) if found else None


def write_reports(args, out_dir, players, opponents, rows, ratings, notes, extra=None):
    output = args.output or os.path.join(out_dir, "gauntlet.md")
    report = markdown(args, players, opponents, rows, ratings, notes, extra)
    data = report_json(args, players, opponents, rows, ratings, notes, extra)
    # Atomic, with a name of this process's own: two shards that finish together may
    # both write the (identical) report.
    try:
        for path, text in ((output, report), (os.path.splitext(output)[0] + ".json",
                                              json.dumps(data, indent=1, allow_nan=False))):
            tmp = f"{path}.{os.getpid()}.tmp"
            with open(tmp, "w") as f:
                f.write(text)
            os.replace(tmp, path)
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
    for player in players:
        if not os.path.exists(player.command[0]):
            fail(f"player {player.name}: engine {player.command[0]} not found")
    if not opponents:
        fail("no opponent is installed (apt-get install stockfish glaurung toga2 phalanx, or --opponent)")
    os.makedirs(args.out_dir, exist_ok=True)
    try:
        sets = opening_sets(args.book)
    except ValueError as exc:
        fail(str(exc))
    previous = {signum: signal.signal(signum, STOP.handler) for signum in (signal.SIGTERM, signal.SIGINT)}
    try:
        if args.report_only:
            plan = Plan(args, players, opponents, sets)
            saved = plan.load(args.out_dir)
        else:
            plan, saved = play_all(args, players, opponents, sets, args.out_dir)
    except Terminated:
        print(f"{PROGRAM}: stopped by SIGTERM; finished games are saved in {args.out_dir}: rerun to resume",
              file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print(f"{PROGRAM}: interrupted; finished games are saved in {args.out_dir}: rerun to resume", file=sys.stderr)
        return 1
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    missing = plan.missing(saved)
    if missing:
        index, key = missing[0]
        text = (f"{len(missing)} of the {len(plan.games)} games are not saved yet in {args.out_dir} "
                f"(the first: game {index} of {plan.files[key]})")
        if args.report_only:
            fail(f"{text}; run the shards that play them, then --report-only again")
        # A shard whose games are done while others still play: the last one writes the report.
        print(f"shard {args.shard} done; {text}: the last shard to finish, or --report-only, writes the report")
        mine = plan.shard_games(args.shard)
        return 1 if any(saved[key][index]["problem"] for index, key in mine if index in saved[key]) else 0
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


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread: it stops the games as Ctrl-C does, so a
    scheduler that pre-empts or cancels a task (Slurm's --signal, Kubernetes' grace
    period) leaves the finished games saved."""


class StopSignals:
    """SIGTERM and SIGINT as exceptions in the main thread (Terminated, KeyboardInterrupt),
    held back while a finished game is being saved (`deferred`), so that a stop never
    leaves a game half recorded: its pairing file and its PGN are written, or neither."""

    def __init__(self):
        self.depth, self.pending = 0, None

    def handler(self, signum, frame):
        stop = Terminated if signum == signal.SIGTERM else KeyboardInterrupt
        if self.depth:
            self.pending = self.pending or stop
        else:
            raise stop

    @contextlib.contextmanager
    def deferred(self):
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
            if not self.depth and self.pending:
                stop, self.pending = self.pending, None
                raise stop


STOP = StopSignals()


if __name__ == "__main__":
    sys.exit(main())
