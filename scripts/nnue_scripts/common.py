"""What the scripts share: the repository's paths, starting an engine, `Name=Value`
options, the opening book, and match statistics (Elo from a score, its 95 % interval,
and the SPRT).

Only starting an engine and reading a book need python-chess; the statistics do not,
so the rating fit and its tests run without it.

Results are counted from the first engine's view: wins, draws, losses. The model is
the logistic one chess rating lists use: an Elo difference `e` gives the expected score
`1 / (1 + 10 ** (-e / 400))`.

Game pairs (pentanomial statistics, as fastchess and OpenBench report them): when each
opening is played twice with colours swapped, the two games form a pair scoring 0, 0.5,
1, 1.5 or 2 points. With `c[i]` pairs of score `i / 2` out of `N`, the mean score per
game is `m = sum(c[i] * i / 4) / N` and the variance of a pair's mean score is
`v = sum(c[i] * (i / 4 - m) ** 2) / N`; the interval is `m +- 1.96 * sqrt(v / N)`, as
Elo. Pairs share their opening, so this variance is smaller than the per-game one when
the openings are unbalanced, and the interval is honest where the per-game one is not.

The SPRT is the generalised SPRT that fishtest and cutechess use for trinomial results:
with the observed mean score `m` and per-game variance `v` over `n` games, the log
likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0) is approximately
`n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v)` where `s0`, `s1` are the expected scores of
elo0 and elo1. The test stops for H1 when it reaches `log((1 - beta) / alpha)` and for H0
when it falls to `log(beta / (1 - alpha))`.
"""

import hashlib
import json
import logging
import math
import os
import shutil
import sys

try:
    import chess
    import chess.engine
except ImportError:  # the statistics work without it; engines and books do not
    chess = None


def _repository_root():
    """The checkout the package lives in (scripts/nnue_scripts/ inside it), or, for a
    copy installed elsewhere, the current directory."""
    checkout = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return checkout if os.path.isfile(os.path.join(checkout, "Cargo.toml")) else os.getcwd()


ROOT = _repository_root()
RELEASE = os.path.join(ROOT, "target", "release")
DEFAULT_ENGINE = os.path.join(RELEASE, "nnue")
DEFAULT_BOOK = os.path.join(ROOT, "data", "openings.epd")
# Seconds an engine may take to start and answer `uci`/`isready`.
ENGINE_START_TIMEOUT = 30
PROTOCOLS = ("uci", "xboard")


# --- engines ---------------------------------------------------------------------------


def require_chess(program):
    """Exits with a one-line hint when python-chess is missing."""
    if chess is None:
        sys.exit(f"{program} needs python-chess: pip install chess")


class InfoStringFilter(logging.Filter):
    """Drops python-chess's warning about an `info string` line outside a search: an
    engine's note, not a problem (ours names its net on isready, as Stockfish does, and
    start_engine's isready would log one such warning per engine and game; a refusal, `info
    string error: ...`, is start_engine's error instead)."""

    def filter(self, record):
        message = record.getMessage()
        # The line is quoted as Python's repr quotes it: with " when it holds a '.
        return not any(f"Unexpected engine output: {quote}info string " in message for quote in "'\"")


logging.getLogger("chess.engine").addFilter(InfoStringFilter())


# How our engine (and any engine following its convention) answers a command it refuses:
# `info string error: <what>`, after which it keeps its previous state.
REFUSAL_PREFIX = "info string error:"


class OptionsRefused(chess.engine.EngineError if chess else RuntimeError):
    """The engine refused an option it was given (an `info string error: ...` answer to
    a setoption, such as a net it could not load): it would play with its previous
    setting, so whatever it plays does not measure what was asked for."""


if chess:
    class RefusalRecordingUci(chess.engine.UciProtocol):
        """python-chess's UCI protocol that also keeps every refusal the engine prints
        (what follows `info string error: `), in `refusals`. Recorded here, for every
        line, because an answer to setoption arrives while no command of python-chess
        is running, and such a line reaches no command."""

        def __init__(self):
            super().__init__()
            self.refusals = []

        def line_received(self, line):
            line = line.strip()
            if line.startswith(REFUSAL_PREFIX):
                self.refusals.append(line[len(REFUSAL_PREFIX):].strip())


def start_engine(command, options=None, protocol="uci", timeout=ENGINE_START_TIMEOUT):
    """Starts an engine (a path, or a list with arguments) speaking `protocol` ("uci",
    or "xboard" for engines such as Phalanx that speak only the older xboard/CECP
    protocol) and sets its options; returns python-chess's SimpleEngine. Raises
    python-chess's EngineError for an option the engine does not announce and
    OptionsRefused for one it answers with `info string error: ...`; the engine is
    stopped either way."""
    require_chess("starting an engine")
    simple = chess.engine.SimpleEngine
    if protocol == "xboard":
        engine = simple.popen_xboard(command, timeout=timeout)
    else:
        engine = simple.popen(RefusalRecordingUci, command, timeout=timeout)
    try:
        if options:
            engine.configure(options)
        # isready / readyok: the engine has acted on its options (loaded an EvalFile net,
        # 50 MB for King-All) before any clock runs. Without it python-chess sends the
        # first isready inside the first move, whose time then includes the loading.
        # Any refusal of an option comes before readyok.
        engine.ping()
        refusals = getattr(engine.protocol, "refusals", [])
        if refusals:
            raise OptionsRefused("the engine refused: " + "; ".join(refusals))
    except BaseException:
        quit_engines([engine])
        raise
    return engine


def load_json(path, error, hint=""):
    """The JSON in `path`. A file that cannot be read or is not JSON raises `error` (an
    exception class) with one line naming the file, the line and the problem; `hint`
    follows the reason for an unreadable file."""
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as exc:
        raise error(f"{path}: {exc.strerror}{hint}") from exc
    except json.JSONDecodeError as exc:
        raise error(f"{path}: line {exc.lineno}: not JSON ({exc.msg})") from exc


def file_sha256(path):
    """The SHA-256 of a file's bytes, hex: what identifies a net or an engine build
    whatever its path."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def content_digests(command, options):
    """{path: SHA-256} of the engine's executable and of every option value that names
    an existing file (an EvalFile net): saved results stay tied to what played them,
    since a rebuilt binary or a retrained net keeps its path."""
    paths = [shutil.which(command[0]) or command[0]] if command else []
    paths += [str(value) for value in options.values()]
    return {os.path.abspath(path): file_sha256(path) for path in paths if os.path.isfile(path)}


def quit_engines(engines):
    """Asks every engine in `engines` to quit, ignoring one that already died: used
    where a game ends, however it ended, so no engine process outlives its game."""
    for engine in engines:
        try:
            engine.quit()
        except Exception:
            pass


# --- options ---------------------------------------------------------------------------


def split_option(text):
    """'Name=Value' as (name, value), stripped; None when there is no '=' or no name."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        return None
    return name.strip(), value.strip()


def parse_options(items):
    """Name=Value strings as a dict (a later name wins); ValueError naming the first
    item that is not Name=Value."""
    options = {}
    for item in items:
        option = split_option(item)
        if option is None:
            raise ValueError(f"option '{item}' is not Name=Value")
        options[option[0]] = option[1]
    return options


def parse_option_list(text):
    """'Name=Value,Name=Value' as a dict (names and values may hold spaces)."""
    return parse_options(filter(None, (part.strip() for part in text.split(","))))


# --- the opening book ------------------------------------------------------------------


def load_book(path):
    """The FENs of an EPD book (one position per line, '#' comments), or the start
    position for an empty path; ValueError naming the file and the line's number in
    the file (comments and blank lines counted) otherwise, for a line that is not a
    position or not a legal one."""
    require_chess("reading a book")
    if not path:
        return [chess.STARTING_FEN]
    try:
        with open(path) as f:
            lines = [(number, line.strip()) for number, line in enumerate(f, 1)
                     if line.strip() and not line.startswith("#")]
    except OSError as exc:
        raise ValueError(f"book {path}: {exc.strerror}") from None
    book = []
    for number, line in lines:
        try:
            board, _ = chess.Board.from_epd(line)
        except ValueError as exc:
            raise ValueError(f"book {path} line {number}: {exc}") from None
        if not board.is_valid():
            status = board.status()
            problems = ", ".join(flag.name.replace("_", " ").lower() for flag in chess.Status
                                 if flag and flag in status)
            raise ValueError(f"book {path} line {number}: not a legal position ({problems}): '{line}'")
        book.append(board.fen())
    if not book:
        raise ValueError(f"book {path} holds no position")
    return book


# --- match statistics ------------------------------------------------------------------

# Two-sided 95 % quantile of the normal distribution.
Z95 = 1.959963984540054


def score_from_elo(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(score):
    """Elo difference for an expected score; +-inf at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def mean_and_variance(wins, draws, losses):
    """Mean score per game and the per-game variance of the score."""
    n = wins + draws + losses
    if n == 0:
        return 0.5, 0.0
    mean = (wins + 0.5 * draws) / n
    second = (wins + 0.25 * draws) / n
    return mean, max(second - mean * mean, 0.0)


def elo_interval(wins, draws, losses):
    """(elo, low, high): the estimate and its 95 % interval (normal approximation)."""
    n = wins + draws + losses
    mean, var = mean_and_variance(wins, draws, losses)
    if n == 0:
        return 0.0, -math.inf, math.inf
    half = Z95 * math.sqrt(var / n)
    return elo_from_score(mean), elo_from_score(mean - half), elo_from_score(mean + half)


PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)


def pair_scores(scores):
    """The points of each complete game pair, from {index: score of the first engine}:
    games 2k and 2k+1 share an opening with colours swapped; a lone game is left out."""
    return [scores[i] + scores[i + 1] for i in sorted(scores) if i % 2 == 0 and i + 1 in scores]


def pentanomial(pairs):
    """Counts of pair scores 0, 0.5, 1, 1.5, 2 (a list of five) from pair points."""
    counts = [0] * 5
    for points in pairs:
        counts[round(points * 2)] += 1
    return counts


def pentanomial_interval(counts):
    """(elo, low, high) from the five pair-score counts: the mean score per game and
    its 95 % interval with the variance of the pair means (see the module's text)."""
    n = sum(counts)
    if n == 0:
        return 0.0, -math.inf, math.inf
    mean = sum(c * i / 4.0 for i, c in enumerate(counts)) / n
    var = sum(c * (i / 4.0 - mean) ** 2 for i, c in enumerate(counts)) / n
    half = Z95 * math.sqrt(var / n)
    return elo_from_score(mean), elo_from_score(mean - half), elo_from_score(mean + half)


def sprt_bounds(alpha, beta):
    """(lower, upper) log likelihood ratio bounds: accept H0 at or below lower, H1 at or above upper."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def sprt_llr(wins, draws, losses, elo0, elo1):
    """Log likelihood ratio of H1 (elo1) against H0 (elo0); 0 while it is undefined."""
    n = wins + draws + losses
    mean, var = mean_and_variance(wins, draws, losses)
    if n == 0 or var == 0.0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)


def sprt_llr_pentanomial(counts, elo0, elo1):
    """Log likelihood ratio of H1 (elo1) against H0 (elo0) from the five pair-score counts
    (pentanomial, as fastchess and OpenBench): the same normal approximation as sprt_llr
    with each game pair as one observation of its mean score, so the correlation of the
    two games of an opening (which a trinomial count ignores) narrows the variance.
    When every pair scored the same the exact ratio is used (see below)."""
    n = sum(counts)
    if n == 0:
        return 0.0
    mean = sum(c * i / 4.0 for i, c in enumerate(counts)) / n
    var = sum(c * (i / 4.0 - mean) ** 2 for i, c in enumerate(counts)) / n
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    if var == 0.0:
        # Every pair scored the same (a clean sweep): the normal approximation has no
        # variance to divide by; the likelihood ratio itself is still defined once the
        # outcomes not seen get a tiny probability.
        return _pentanomial_llr_exact(counts, s0, s1)
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)


# The weight given to pair outcomes never seen, so that the constrained maximum
# likelihood below exists for any counts (as fishtest regularises its pentanomial).
PENTANOMIAL_PRIOR = 1e-3
# Bisection steps of the Lagrange multiplier: far below float precision.
MLE_STEPS = 200


def _pentanomial_llr_exact(counts, s0, s1):
    """The pentanomial log likelihood ratio from maximum likelihood under each
    hypothesis' expected score (a Lagrange multiplier found by bisection)."""
    n = sum(counts)
    freqs = [max(c, PENTANOMIAL_PRIOR) / n for c in counts]
    total = sum(freqs)
    freqs = [f / total for f in freqs]
    means = [i / 4.0 for i in range(5)]

    def constrained(target):
        def excess(lam):
            return sum(f * (m - target) / (1 + lam * (m - target)) for f, m in zip(freqs, means))

        lo, hi = -1.0 / (1.0 - target) + 1e-12, 1.0 / target - 1e-12
        for _ in range(MLE_STEPS):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if excess(mid) > 0 else (lo, mid)
        lam = (lo + hi) / 2
        return [f / (1 + lam * (m - target)) for f, m in zip(freqs, means)]

    p0, p1 = constrained(s0), constrained(s1)
    return sum(c * math.log(a / b) for c, a, b in zip(counts, p1, p0) if c)


def sprt_decision(llr, alpha, beta):
    """'H1', 'H0' or None (continue) for a log likelihood ratio."""
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return None


def sprt_state(wins, draws, losses, elo0, elo1, alpha, beta):
    """'H1', 'H0' or None (continue), with the current LLR."""
    llr = sprt_llr(wins, draws, losses, elo0, elo1)
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "H1", llr
    if llr <= lower:
        return "H0", llr
    return None, llr
