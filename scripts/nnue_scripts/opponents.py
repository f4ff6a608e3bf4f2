"""The gauntlet's default opponents: the Debian engines (`apt-get install stockfish
glaurung toga2 phalanx ethereal-chess`) found on PATH or in Debian's game directories, Stockfish at each
UCI_Elo level its binary accepts, and the check that each opponent is installed and can
play under the chosen limit.

A module of its own because finding and probing installed engines is apart from playing
them, and external_games picks its opponents the same way.
"""

import os
import shutil

from . import common
from .entrants import Entrant, UsageError

import chess.engine  # after entrants: match, which it imports, has checked that python-chess is there

# Where Debian puts its engines, searched after PATH.
ENGINE_DIRS = ("/usr/games", "/usr/local/games")
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
    # Ethereal 12: a hand-written evaluation about 200 above our engine at 5+0.05.
    ("ethereal", ["ethereal-chess"], "uci", SINGLE_CORE, True),
)
# The Debian engines a gauntlet plays unless told otherwise (--debian-engines).
DEFAULT_DEBIAN = ("glaurung", "toga2", "phalanx")
DEBIAN_NAMES = tuple(entry[0] for entry in DEBIAN_ENGINES)


def parse_debian(text):
    """The --debian-engines list: names of DEBIAN_ENGINES, comma-separated ('' for none)."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in DEBIAN_NAMES]
    if unknown:
        raise UsageError(f"--debian-engines: unknown engine {', '.join(unknown)} (known: {', '.join(DEBIAN_NAMES)})")
    return names


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
    """Stockfish at each level its binary accepts, anchored at that UCI_Elo; a note for
    each level, or a missing binary, that cannot be used."""
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


def default_opponents(elos, notes, debian=DEFAULT_DEBIAN):
    """Stockfish's levels and the other Debian engines named in `debian` that are
    installed; a note for each one that is not."""
    opponents = stockfish_levels(elos, notes)
    for name, command, protocol, options, takes_nodes in DEBIAN_ENGINES:
        if name not in debian:
            continue
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
