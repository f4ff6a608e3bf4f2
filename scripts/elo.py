"""Match statistics: Elo from a score, its 95 % interval, and the SPRT.

Results are counted from the first engine's view: wins, draws, losses. The model is
the logistic one chess rating lists use: an Elo difference `e` gives the expected score
`1 / (1 + 10 ** (-e / 400))`.

The SPRT is the generalised SPRT that fishtest and cutechess use for trinomial results:
with the observed mean score `m` and per-game variance `v` over `n` games, the log
likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0) is approximately
`n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v)` where `s0`, `s1` are the expected scores of
elo0 and elo1. The test stops for H1 when it reaches `log((1 - beta) / alpha)` and for H0
when it falls to `log(beta / (1 - alpha))`.
"""

import math

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


def sprt_state(wins, draws, losses, elo0, elo1, alpha, beta):
    """'H1', 'H0' or None (continue), with the current LLR."""
    llr = sprt_llr(wins, draws, losses, elo0, elo1)
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "H1", llr
    if llr <= lower:
        return "H0", llr
    return None, llr
