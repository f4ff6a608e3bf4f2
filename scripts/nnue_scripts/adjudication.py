"""Score adjudication of engine games, as cutechess-cli, fastchess and OpenBench do it: a
long tournament stops spending time on games whose result is no longer in doubt.

Two rules, each off unless switched on:

- resign (`--resign-score CP`, `--resign-moves N`): a win for the side ahead once, for N
  consecutive moves of each side (the last 2N plies), both engines' scores agreed that
  the same side is at least CP centipawns ahead. Two-sided, like fastchess' `-resign
  twosided=true`: one engine's optimism alone decides nothing. A mate score counts as
  beyond any CP.
- draw (`--draw-moves N`, `--draw-score CP`, `--draw-after M`): a draw once M full moves
  have been played (the position's move number, so an opening's moves count where its
  FEN carries them; an EPD line starts at move 1) and the last 2N plies' scores were all
  within ±CP, like cutechess' `-draw movenumber=M movecount=N score=CP`. A mate score is
  never within.

A score is what the engine reported for its move, from its own point of view (python-chess'
PovScore, as UCI and xboard give it). A move without one (an engine that printed no score)
ends both streaks, so an engine that says nothing is never adjudicated.

The rules' settings are recorded with a match's results only when a rule is on, so
results saved before adjudication existed still match settings with both rules off.
"""

import math

# game["termination"] of an adjudicated game (game lines, saved games, the counts); the
# PGN's Termination tag is the standard "adjudication" for both, with the rule in a comment.
RESIGN_TERMINATION = "resign adjudication"
DRAW_TERMINATION = "draw adjudication"
PGN_TERMINATION = "adjudication"

# Both rules off: the match's and the gauntlet's defaults (their results stay comparable
# with those made before adjudication). A rule's other values are what it takes when only
# its switch (--resign-score, --draw-moves) is given.
OFF = {"resign_score": 0, "resign_moves": 3, "draw_moves": 0, "draw_score": 10, "draw_after": 40}
# Both rules on: the study's defaults and the strength preset's. The draw rule is the
# common cutechess/fastchess setting (movenumber=40 movecount=8 score=10); the resign
# threshold is higher than the common 400 cp, so that only lost games are cut: 1000 cp
# agreed by both engines for 3 moves each is not saved in practice, even by a much
# stronger engine (a gauntlet pairs engines hundreds of Elo apart).
ON = {"resign_score": 1000, "resign_moves": 3, "draw_moves": 8, "draw_score": 10, "draw_after": 40}
KEYS = tuple(OFF)
# python-chess' colours (chess.WHITE, chess.BLACK): this module works on the Score objects
# it is given and does not import python-chess, so the study can take its options without it.
WHITE, BLACK = True, False
# What python-chess counts a mate as before centipawns() makes it infinite; any value
# does, as long as a mate in any number of moves keeps its sign.
MATE_SCORE = 1 << 30

# The flags that turn both rules off, for the messages that suggest them.
OFF_FLAGS = "--resign-score 0 --draw-moves 0"


class Rules:
    """The adjudication settings of a match: centipawns and moves of each side."""

    def __init__(self, resign_score=0, resign_moves=3, draw_moves=0, draw_score=10, draw_after=40):
        self.resign_score, self.resign_moves = resign_score, resign_moves
        self.draw_moves, self.draw_score, self.draw_after = draw_moves, draw_score, draw_after

    @classmethod
    def from_args(cls, args):
        """The rules of parsed arguments; attributes that are missing (argument sets made
        before adjudication existed) take OFF's values."""
        return cls(**{key: getattr(args, key, OFF[key]) for key in KEYS})

    @property
    def resign_on(self):
        return self.resign_score > 0 and self.resign_moves > 0

    @property
    def draw_on(self):
        return self.draw_moves > 0

    @property
    def enabled(self):
        return self.resign_on or self.draw_on

    def record(self):
        """The settings as saved with results: the parameters of the rules that are on
        (a rule's parameters do not matter while it is off), or None with both off."""
        record = {}
        if self.resign_on:
            record["resign"] = {"score": self.resign_score, "moves": self.resign_moves}
        if self.draw_on:
            record["draw"] = {"score": self.draw_score, "moves": self.draw_moves, "after": self.draw_after}
        return record or None

    def describe(self):
        """The rules in words for reports ('a win when both engines score one side at least
        1000 cp ahead for 3 moves each; a draw when ...'), or 'off'."""
        parts = []
        if self.resign_on:
            parts.append(f"a win when both engines score one side at least {self.resign_score} cp ahead "
                         f"for {self.resign_moves} moves each")
        if self.draw_on:
            parts.append(f"a draw when both score within ±{self.draw_score} cp for {self.draw_moves} moves each "
                         f"after move {self.draw_after}")
        return "; ".join(parts) if parts else "off"


class Verdict:
    """An adjudicated result: the PGN result, the game's termination, a note for the PGN."""

    def __init__(self, result, termination, note):
        self.result, self.termination, self.note = result, termination, note

    def __repr__(self):
        return f"Verdict({self.result!r}, {self.termination!r})"


class Adjudicator:
    """Follows one game's scores move by move and says when the rules end it.

    Both streaks count plies: 2N consecutive plies hold exactly N moves of each side, so
    both engines must have agreed N times each."""

    def __init__(self, rules):
        self.rules = rules
        self.winner, self.resign_plies, self.draw_plies = None, 0, 0

    def update(self, score, full_moves):
        """Takes the score the mover reported for the move just played (a PovScore, or
        None) and the full moves played after it (board.fullmove_number - 1); returns a
        Verdict when the game is to end, else None."""
        if score is None:
            self.winner, self.resign_plies, self.draw_plies = None, 0, 0
            return None
        white = centipawns(score.white())
        return self._resign(white) or self._draw(white, full_moves)

    def _resign(self, white):
        if not self.rules.resign_on:
            return None
        threshold = self.rules.resign_score
        ahead = WHITE if white >= threshold else BLACK if white <= -threshold else None
        if ahead is None:
            self.winner, self.resign_plies = None, 0
            return None
        self.resign_plies = self.resign_plies + 1 if ahead == self.winner else 1
        self.winner = ahead
        if self.resign_plies < 2 * self.rules.resign_moves:
            return None
        name = "white" if ahead == WHITE else "black"
        return Verdict("1-0" if ahead == WHITE else "0-1", RESIGN_TERMINATION,
                       f"{name} wins by score adjudication: both engines scored {name} at least "
                       f"{self.rules.resign_score} cp ahead for {self.rules.resign_moves} moves each")

    def _draw(self, white, full_moves):
        if not self.rules.draw_on:
            return None
        self.draw_plies = self.draw_plies + 1 if abs(white) <= self.rules.draw_score else 0
        if self.draw_plies < 2 * self.rules.draw_moves or full_moves < self.rules.draw_after:
            return None
        return Verdict("1/2-1/2", DRAW_TERMINATION,
                       f"draw by score adjudication: both engines scored within ±{self.rules.draw_score} cp "
                       f"for {self.rules.draw_moves} moves each after move {self.rules.draw_after}")


def centipawns(score):
    """A python-chess Score in centipawns, a mate as ±infinity: beyond any CP the rules
    compare with (python-chess gives a mate the score MATE_SCORE minus its distance; only
    the sign is used here)."""
    value = score.score(mate_score=MATE_SCORE)
    return math.copysign(math.inf, value) if score.is_mate() else value


def counts(games):
    """{"resign": n, "draw": m}: the games (dicts with "termination") each rule ended."""
    terminations = [game.get("termination") for game in games]
    return {"resign": terminations.count(RESIGN_TERMINATION), "draw": terminations.count(DRAW_TERMINATION)}


def counts_text(found):
    """'3 by resign adjudication, 5 by draw adjudication' for reports."""
    return f"{found['resign']} by resign adjudication, {found['draw']} by draw adjudication"


def add_arguments(parser, defaults=None):
    """The rules' options, with `defaults` (OFF unless given: ON for the study)."""
    defaults = {**OFF, **(defaults or {})}
    parser.add_argument("--resign-score", type=int, default=defaults["resign_score"],
                        help="CP: a win once both engines score one side at least CP ahead for --resign-moves moves "
                             f"each (0: off; default {defaults['resign_score']})")
    parser.add_argument("--resign-moves", type=int, default=defaults["resign_moves"],
                        help=f"moves of each side for the resign rule (default {defaults['resign_moves']})")
    parser.add_argument("--draw-moves", type=int, default=defaults["draw_moves"],
                        help="N: a draw once both engines score within --draw-score for N moves each after "
                             f"--draw-after (0: off; default {defaults['draw_moves']})")
    parser.add_argument("--draw-score", type=int, default=defaults["draw_score"],
                        help=f"centipawns of the draw rule (default {defaults['draw_score']})")
    parser.add_argument("--draw-after", type=int, default=defaults["draw_after"],
                        help=f"full moves (the position's move number) before a draw is adjudicated "
                             f"(default {defaults['draw_after']})")


def check_arguments(parser, args):
    """Refuses values the rules cannot use (parser.error: exit status 2)."""
    rules = Rules.from_args(args)
    if rules.resign_score < 0 or rules.draw_score < 0 or rules.draw_moves < 0 or rules.draw_after < 0:
        parser.error("--resign-score, --draw-score, --draw-moves and --draw-after must not be negative")
    if rules.resign_score > 0 and rules.resign_moves < 1:
        parser.error("--resign-moves must be at least 1 with --resign-score")
    if rules.resign_on and rules.draw_on and rules.draw_score >= rules.resign_score:
        parser.error("--draw-score must be below --resign-score")


def resume_hint(saved, current, key="adjudication"):
    """A sentence for a refusal to resume when the only difference is that the saved
    settings (a dict) have no `key` (made before adjudication existed, or with it off) and
    the current ones have it: both rules off resume those results. '' otherwise."""
    if key in saved or key not in current or {k: v for k, v in current.items() if k != key} != saved:
        return ""
    return f" (they were made without score adjudication: rerun with {OFF_FLAGS} to resume them)"
