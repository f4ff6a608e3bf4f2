"""Who plays in a gauntlet: an Entrant (one of our engine's configurations, or an
opponent) and the command-line specifications that make one:

    NAME[:Name=Value,...]                           a player: --engine with these options
    NAME:COMMAND[:uci|xboard][:Name=Value,...]      an opponent (COMMAND split like a shell line)
    NAME=ELO                                        an anchor (--anchor)

A module of its own because other tools make entrants too: the study's tournament plays
Entrants, and external_games reads --opponent as the gauntlet does. A bad specification
raises UsageError, which each command reports as a usage error.
"""

import re
import shlex

from . import common, match

PROTOCOLS = common.PROTOCOLS
# Names end up in file names and Markdown tables.
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$")


class UsageError(Exception):
    """A specification that cannot be used; the command that parsed it exits with a usage error."""


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


def check_name(name, spec):
    """The name, if it can go into file names and Markdown tables; UsageError otherwise."""
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


def parse_player_engine(spec):
    """--player-engine NAME=PATH -> (name, path): a player that runs another build."""
    name, sep, path = spec.partition("=")
    if not sep or not name.strip() or not path.strip():
        raise UsageError(f"--player-engine '{spec}' is not NAME=PATH")
    return name.strip(), path.strip()


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
    """--anchor NAME=ELO -> (name, rating); the rating is None without '=' (the caller refuses it)."""
    name, sep, value = spec.partition("=")
    try:
        return name.strip(), float(value) if sep else None
    except ValueError:
        raise UsageError(f"--anchor '{spec}' is not NAME=ELO") from None


def parse_sf_elos(text):
    """--sf-elo '1350,1500,...' -> [1350, 1500, ...]."""
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise UsageError(f"--sf-elo '{text}' is not a comma-separated list of ratings") from None
