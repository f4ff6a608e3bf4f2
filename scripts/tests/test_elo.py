"""Checks the match statistics of nnue_scripts.common against closed forms and an
independent exact computation.

The SPRT's log likelihood ratio is compared with the exact profile likelihood ratio of
the trinomial model (maximum likelihood under the constraint that the expected score
equals s0 or s1, solved with a Lagrange multiplier), which the normal approximation in
nnue_scripts.common must match closely for large samples.
"""

import math
import unittest

from nnue_scripts import common

SCORES = (1.0, 0.5, 0.0)


def constrained_mle(counts, target, scores=SCORES):
    """Multinomial probabilities of outcomes worth `scores` maximising the likelihood
    with expected score `target`."""
    n = sum(counts)
    freqs = [c / n for c in counts]
    # p_i = f_i / (1 + lam * (s_i - target)); find lam with sum p_i s_i = target.
    def excess(lam):
        return sum(f * (s - target) / (1 + lam * (s - target)) for f, s in zip(freqs, scores))

    lo = -1.0 / (1.0 - target) + 1e-12
    hi = 1.0 / target - 1e-12
    for _ in range(200):
        mid = (lo + hi) / 2
        if excess(mid) > 0:
            lo = mid
        else:
            hi = mid
    lam = (lo + hi) / 2
    return [f / (1 + lam * (s - target)) for f, s in zip(freqs, scores)]


# A game pair's mean score per game for 0, 0.5, 1, 1.5 and 2 points.
PAIR_MEANS = (0.0, 0.25, 0.5, 0.75, 1.0)


def exact_llr(counts, elo0, elo1, scores=SCORES):
    p0 = constrained_mle(counts, common.score_from_elo(elo0), scores)
    p1 = constrained_mle(counts, common.score_from_elo(elo1), scores)
    return sum(c * math.log(a / b) for c, a, b in zip(counts, p1, p0) if c)


class EloTest(unittest.TestCase):
    def test_score_and_elo_are_inverse(self):
        self.assertAlmostEqual(common.elo_from_score(0.75), 400 * math.log10(3), places=9)
        self.assertAlmostEqual(common.elo_from_score(0.5), 0.0, places=12)
        for e in (-300, -35.5, 0, 12, 400):
            self.assertAlmostEqual(common.elo_from_score(common.score_from_elo(e)), e, places=9)

    def test_interval_is_symmetric_for_an_even_match(self):
        est, low, high = common.elo_interval(100, 50, 100)
        self.assertAlmostEqual(est, 0.0, places=9)
        self.assertAlmostEqual(low, -high, places=9)
        # per-game score variance 0.45 - 0.25 = 0.2 over 250 games
        half = common.Z95 * math.sqrt(0.2 / 250)
        self.assertAlmostEqual(high, common.elo_from_score(0.5 + half), places=9)

    def test_interval_excludes_zero_for_a_clear_win(self):
        est, low, high = common.elo_interval(250, 100, 50)
        self.assertGreater(low, 0)
        self.assertLess(low, est)
        self.assertLess(est, high)

    def test_bounds(self):
        lower, upper = common.sprt_bounds(0.05, 0.05)
        self.assertAlmostEqual(upper, math.log(19), places=12)
        self.assertAlmostEqual(lower, -math.log(19), places=12)

    def test_llr_matches_the_exact_trinomial_ratio(self):
        for counts, e0, e1 in [((300, 400, 250), 0, 10), ((120, 260, 150), 0, 5), ((500, 200, 300), 65, 75)]:
            approx = common.sprt_llr(*counts, e0, e1)
            exact = exact_llr(counts, e0, e1)
            self.assertAlmostEqual(approx, exact, delta=0.02 * abs(exact) + 0.02, msg=str(counts))

    def test_pentanomial_llr_matches_the_exact_pentanomial_ratio(self):
        for counts, e0, e1 in [
            ([20, 150, 400, 180, 30], 0, 5),
            ([60, 200, 300, 250, 90], 0, 10),
            ([5, 40, 120, 30, 5], -5, 5),
        ]:
            approx = common.sprt_llr_pentanomial(counts, e0, e1)
            exact = exact_llr(counts, e0, e1, PAIR_MEANS)
            self.assertAlmostEqual(approx, exact, delta=0.02 * abs(exact) + 0.02, msg=str(counts))

    def test_a_clean_sweep_has_a_likelihood_ratio(self):
        self.assertEqual(common.sprt_llr_pentanomial([0] * 5, 0, 5), 0.0)
        # Every pair won: each pair's likelihood ratio is about s1 / s0 (the mass the
        # constrained fits put on a won pair), so 10 pairs give about 10 log(s1 / s0).
        s0, s1 = common.score_from_elo(0), common.score_from_elo(5)
        won = common.sprt_llr_pentanomial([0, 0, 0, 0, 10], 0, 5)
        self.assertAlmostEqual(won, 10 * math.log(s1 / s0), delta=0.01)
        lost = common.sprt_llr_pentanomial([10, 0, 0, 0, 0], 0, 5)
        self.assertAlmostEqual(lost, 10 * math.log((1 - s1) / (1 - s0)), delta=0.01)
        # All pairs split: an even score, evidence for H0 (elo 0) over H1 (elo 5).
        self.assertLess(common.sprt_llr_pentanomial([0, 0, 7, 0, 0], 0, 5), 0.0)

    def test_sprt_decisions(self):
        self.assertEqual(common.sprt_decision(3.0, 0.05, 0.05), "H1")
        self.assertEqual(common.sprt_decision(-3.0, 0.05, 0.05), "H0")
        self.assertIsNone(common.sprt_decision(1.0, 0.05, 0.05))
        self.assertEqual(common.sprt_state(600, 300, 100, 0, 10, 0.05, 0.05)[0], "H1")
        self.assertEqual(common.sprt_state(100, 300, 600, 0, 10, 0.05, 0.05)[0], "H0")
        self.assertIsNone(common.sprt_state(3, 4, 3, 0, 10, 0.05, 0.05)[0])


if __name__ == "__main__":
    unittest.main()
