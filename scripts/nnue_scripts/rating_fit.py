"""Ratings of engines on an anchored scale from pairwise results.

The model is the logistic one of the match statistics (nnue_scripts.common): an
engine rated `r` scores `1 / (1 + 10 ** ((r_opp - r) / 400))` on average against one
rated `r_opp`, a draw counting as half a point. Given the results of some pairings and the fixed ratings of
some engines (the anchors: Stockfish's UCI_Elo levels), `fit_ratings` finds the rating
of every other engine by maximum likelihood, jointly: an engine that met no anchor is
placed through the engines it met.

Not every engine gets a finite rating. The likelihood has a finite maximum exactly for
the engines that both scored points against, and conceded points to, the anchored
group, through chains of games (Zermelo's condition: in the directed graph "u scored
against v", they share the anchors' strongly connected component). The others are
reported as what the data say:

- "above": it reaches the anchors' group but nobody in it ever scored against it
  (for instance it won every game). Its maximum-likelihood rating is +infinity; the
  report gives the one-sided 95 % lower bound of the likelihood-ratio test.
- "below": the mirror case (it never scored); an upper bound is given.
- "undetermined": met the anchored group only through engines that are above or below.
- "unanchored": no chain of games to any anchor at all.

The interval of a fitted rating comes from the curvature of the log likelihood (the
inverse of the observed information matrix): estimate +- 1.96 standard deviations.
Counting a draw as half a win overstates the variance of a game's score when draws are
frequent, so the interval errs on the wide side.

The difference of two fitted ratings (`difference`: a net against the classical
evaluation, both measured against the same opponents) has the variance
`C[a][a] + C[b][b] - 2 * C[a][b]` from the same inverse `C`: the covariance term counts
that both ratings lean on the same unanchored opponents, so the interval is narrower
than the two separate intervals suggest when they share them.
"""

import math

from . import common

# d/dr of log10-logistic expected score is ELO_SCALE * p * (1 - p).
ELO_SCALE = math.log(10.0) / 400.0
# Half the 95 % quantile of chi-square with one degree of freedom: the drop in log
# likelihood that a one-parameter 95 % likelihood-ratio bound allows.
LR_DROP_95 = 3.841458820694124 / 2.0
# Ratings are searched within this many points of the anchors; far wider than any
# finite estimate the strongly connected condition allows with real game counts.
SEARCH_SPAN = 4000.0
# Gauss-Seidel stops when no rating moved by more than this many points in a sweep.
TOLERANCE = 1e-7
MAX_SWEEPS = 20000
BISECTION_STEPS = 80

FITTED, ABOVE, BELOW, UNDETERMINED, UNANCHORED = "fitted", "above", "below", "undetermined", "unanchored"
# How a one-sided rating is written beside its bound ("> +250", "< -300").
BOUND_MARK = {ABOVE: ">", BELOW: "<"}


class Rating:
    """One engine's rating: status, estimate (fitted only), 95 % bounds (None where the
    data give none) and the number of games it played."""

    def __init__(self, status, estimate=None, low=None, high=None, games=0):
        self.status, self.estimate, self.low, self.high, self.games = status, estimate, low, high, games

    def bound(self):
        """The bound of a one-sided rating (an engine that won or lost every game): the
        low end above which an ABOVE rating lies, the high end below which a BELOW one
        lies; None for any other status or where the data give none."""
        if self.status == ABOVE:
            return self.low
        if self.status == BELOW:
            return self.high
        return None

    def as_dict(self):
        return {"status": self.status, "estimate": self.estimate, "low": self.low, "high": self.high, "games": self.games}

    def __repr__(self):
        return f"Rating({self.as_dict()})"


def expected(r, r_opp):
    return common.score_from_elo(r - r_opp)


def build_games(pairings):
    """{u: {v: (points of u, games)}} from (a, b, wins, draws, losses) tuples in a's view."""
    games = {}
    for a, b, wins, draws, losses in pairings:
        if min(wins, draws, losses) < 0:
            raise ValueError(f"negative count in the pairing {a} vs {b}")
        if a == b:
            raise ValueError(f"the pairing {a} vs {b} has the same engine on both sides")
        n = wins + draws + losses
        if n == 0:
            continue
        for u, v, points in ((a, b, wins + 0.5 * draws), (b, a, losses + 0.5 * draws)):
            old_points, old_n = games.setdefault(u, {}).get(v, (0.0, 0))
            games[u][v] = (old_points + points, old_n + n)
    return games


def reachable(start, edges):
    seen, stack = set(start), list(start)
    while stack:
        u = stack.pop()
        for v in edges.get(u, ()):
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return seen


def classify(games, anchors):
    """Status of every engine that played: fitted, above, below, undetermined or unanchored."""
    scored = {u: {v for v, (points, _) in opp.items() if points > 0} for u, opp in games.items()}
    conceded = {}
    for u, targets in scored.items():
        for v in targets:
            conceded.setdefault(v, set()).add(u)
    met = {u: set(opp) for u, opp in games.items()}
    roots = [a for a in anchors if a in games]
    anchored = reachable(roots, met)
    # The anchors form one group: their ratings are fixed, so they "reach" each other.
    down = reachable(roots, scored)  # the anchors' group scored against these, through chains
    up = reachable(roots, conceded)  # these scored against the anchors' group, through chains
    status = {}
    for u in games:
        if u in anchors:
            continue
        if u not in anchored:
            status[u] = UNANCHORED
        elif u in down and u in up:
            status[u] = FITTED
        elif u in up:
            status[u] = ABOVE
        elif u in down:
            status[u] = BELOW
        else:
            status[u] = UNDETERMINED
    return status


def score_gradient(r, opponents, ratings):
    """Points minus expected points of an engine rated r against the rated opponents."""
    return sum(points - n * expected(r, ratings[v]) for v, (points, n) in opponents.items() if v in ratings)


def best_response(opponents, ratings, lo, hi):
    """The rating that maximises the likelihood of these results, others fixed (bisection:
    the gradient falls monotonically with r)."""
    for _ in range(BISECTION_STEPS):
        mid = 0.5 * (lo + hi)
        if score_gradient(mid, opponents, ratings) > 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def maximise(games, anchors, free):
    """Gauss-Seidel on the concave log likelihood: each free rating in turn set to its best
    response to the others, until nothing moves."""
    lo, hi = min(anchors.values()) - SEARCH_SPAN, max(anchors.values()) + SEARCH_SPAN
    ratings = {**anchors, **{u: sum(anchors.values()) / len(anchors) for u in free}}
    for _ in range(MAX_SWEEPS):
        moved = 0.0
        for u in free:
            opponents = {v: pn for v, pn in games[u].items() if v in ratings}
            new = best_response(opponents, ratings, lo, hi)
            moved = max(moved, abs(new - ratings[u]))
            ratings[u] = new
        if moved < TOLERANCE:
            break
    return ratings


def information_matrix(games, ratings, free):
    """Observed information of the free ratings (minus the Hessian of the log likelihood)."""
    index = {u: i for i, u in enumerate(free)}
    matrix = [[0.0] * len(free) for _ in free]
    for u in free:
        for v, (_, n) in games[u].items():
            if v not in ratings:
                continue
            p = expected(ratings[u], ratings[v])
            w = ELO_SCALE * ELO_SCALE * n * p * (1.0 - p)
            matrix[index[u]][index[u]] += w
            if v in index:
                matrix[index[u]][index[v]] -= w
    return matrix


def invert(matrix):
    """Gauss-Jordan inverse with partial pivoting; None when singular."""
    n = len(matrix)
    work = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(work[r][col]))
        if abs(work[pivot][col]) < 1e-300:
            return None
        work[col], work[pivot] = work[pivot], work[col]
        scale = work[col][col]
        work[col] = [x / scale for x in work[col]]
        for r in range(n):
            if r != col and work[r][col] != 0.0:
                factor = work[r][col]
                work[r] = [x - factor * y for x, y in zip(work[r], work[col])]
    return [row[n:] for row in work]


def one_sided_bound(opponents, ratings, direction):
    """Rating where the likelihood of a perfect (direction +1) or null (-1) record against
    these opponents falls by LR_DROP_95 below its supremum of 1."""
    known = {v: n for v, (_, n) in opponents.items() if v in ratings}
    if not known:
        return None
    centre = sum(ratings[v] for v in known) / len(known)
    lo, hi = centre - 2 * SEARCH_SPAN, centre + 2 * SEARCH_SPAN

    def log_likelihood(r):
        return sum(n * math.log(expected(direction * r, direction * ratings[v])) for v, n in known.items())

    # log_likelihood rises with direction * r; find where it crosses -LR_DROP_95.
    for _ in range(BISECTION_STEPS):
        mid = 0.5 * (lo + hi)
        if (log_likelihood(mid) < -LR_DROP_95) == (direction > 0):
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


class Fit:
    """The result of a joint fit: `ratings` ({engine: Rating}), the covariance of the
    fitted ratings ({engine: {engine: value}}, fitted engines only) and the anchors."""

    def __init__(self, ratings, covariance, anchors):
        self.ratings, self.covariance, self.anchors = ratings, covariance, dict(anchors)


def fit_ratings(pairings, anchors):
    """{engine: Rating} for every non-anchor engine in `pairings`, a list of
    (a, b, wins, draws, losses) from a's view; `anchors` maps engine names to fixed
    ratings (at least one)."""
    return fit(pairings, anchors).ratings


def difference(result, a, b):
    """(estimate, low, high): rating of a minus rating of b with its 95 % interval from
    the joint fit `result` (a Fit), or None unless both are fitted or anchors."""
    ratings, cov = result.ratings, result.covariance

    def value(u):
        if u in cov:
            return ratings[u].estimate
        return result.anchors.get(u)

    if value(a) is None or value(b) is None:
        return None
    var = sum(sign_u * sign_v * cov.get(u, {}).get(v, 0.0)
              for u, sign_u in ((a, 1.0), (b, -1.0)) for v, sign_v in ((a, 1.0), (b, -1.0)))
    half = common.Z95 * math.sqrt(var) if var >= 0 else math.inf
    estimate = value(a) - value(b)
    return estimate, estimate - half, estimate + half


def fit(pairings, anchors):
    """The joint fit (a Fit) of `pairings` against `anchors`, as fit_ratings."""
    if not anchors:
        raise ValueError("at least one anchor rating is needed")
    games = build_games(pairings)
    status = classify(games, anchors)
    free = sorted(u for u, s in status.items() if s == FITTED)
    ratings = maximise(games, anchors, free) if free else dict(anchors)
    covariance = invert(information_matrix(games, ratings, free)) if free else []
    result = {}
    for u, s in status.items():
        n = sum(count for _, count in games[u].values())
        if s == FITTED:
            i = free.index(u)
            sd = math.sqrt(covariance[i][i]) if covariance and covariance[i][i] > 0 else math.inf
            result[u] = Rating(s, ratings[u], ratings[u] - common.Z95 * sd, ratings[u] + common.Z95 * sd, n)
        elif s == ABOVE:
            result[u] = Rating(s, low=one_sided_bound(games[u], ratings, +1), games=n)
        elif s == BELOW:
            result[u] = Rating(s, high=one_sided_bound(games[u], ratings, -1), games=n)
        else:
            result[u] = Rating(s, games=n)
    matrix = {u: {v: covariance[i][j] for j, v in enumerate(free)} for i, u in enumerate(free)} if covariance else {}
    return Fit(result, matrix, anchors)
