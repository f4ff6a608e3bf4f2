"""Checks nnue_scripts.rating_fit against closed forms and an independent computation.

The independent computation maximises the log likelihood itself, by golden-section
search for one rating and by Newton's method on finite-difference derivatives for
several (no analytic gradient, no Gauss-Seidel), and takes the interval from a
finite-difference Hessian, so the information matrix and the coordinate updates of
rating_fit are checked against first principles.
"""

import math
import random
import unittest

from nnue_scripts import common
from nnue_scripts import rating_fit
from nnue_scripts.rating_fit import ABOVE, BELOW, FITTED, UNANCHORED, UNDETERMINED

C = math.log(10) / 400


def log_likelihood(pairings, ratings):
    total = 0.0
    for a, b, wins, draws, losses in pairings:
        p = common.score_from_elo(ratings[a] - ratings[b])
        points, n = wins + 0.5 * draws, wins + draws + losses
        total += points * math.log(p) + (n - points) * math.log(1 - p)
    return total


def golden_max(f, lo, hi, steps=200):
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(steps):
        x1, x2 = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if f(x1) < f(x2):
            lo = x1
        else:
            hi = x2
    return (lo + hi) / 2


def numeric_hessian(f, point, h=0.5):
    """Second derivatives of f at point (a list) by central differences."""
    n = len(point)
    hess = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            def at(di, dj):
                x = list(point)
                x[i] += di
                x[j] += dj
                return f(x)

            hess[i][j] = (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h)
    return hess


def numeric_gradient(f, point, h=0.5):
    gradient = []
    for i in range(len(point)):
        up, down = list(point), list(point)
        up[i] += h
        down[i] -= h
        gradient.append((f(up) - f(down)) / (2 * h))
    return gradient


def simulate(rng, rating_a, rating_b, n, draw_rate=0.3):
    """W/D/L of n games with expected score from the model and a fixed share of draws
    where the expected score allows it."""
    p = common.score_from_elo(rating_a - rating_b)
    draw = min(draw_rate, 2 * p, 2 * (1 - p))
    win = p - draw / 2
    wins = draws = 0
    for _ in range(n):
        x = rng.random()
        if x < win:
            wins += 1
        elif x < win + draw:
            draws += 1
    return wins, draws, n - wins - draws


class SingleAnchorTest(unittest.TestCase):
    def test_an_even_score_gives_the_anchor_rating(self):
        for wins, draws, losses in ((10, 0, 10), (0, 20, 0), (7, 6, 7)):
            rating = rating_fit.fit_ratings([("x", "sf", wins, draws, losses)], {"sf": 1800})["x"]
            self.assertEqual(rating.status, FITTED)
            self.assertAlmostEqual(rating.estimate, 1800.0, places=6)
            # information n * C^2 * p (1 - p) with p = 1/2
            half = common.Z95 * 2 / (C * math.sqrt(20))
            self.assertAlmostEqual(rating.low, 1800.0 - half, places=6)
            self.assertAlmostEqual(rating.high, 1800.0 + half, places=6)
            self.assertEqual(rating.games, 20)

    def test_a_score_gives_the_anchor_plus_its_elo_difference(self):
        rating = rating_fit.fit_ratings([("x", "sf", 30, 20, 10)], {"sf": 1500})["x"]
        self.assertAlmostEqual(rating.estimate, 1500 + common.elo_from_score(40 / 60), places=6)
        # The view of the pairing does not matter.
        mirrored = rating_fit.fit_ratings([("sf", "x", 10, 20, 30)], {"sf": 1500})["x"]
        self.assertAlmostEqual(mirrored.estimate, rating.estimate, places=6)

    def test_all_wins_is_above_with_a_likelihood_ratio_bound(self):
        rating = rating_fit.fit_ratings([("x", "sf", 10, 0, 0)], {"sf": 1500})["x"]
        self.assertEqual(rating.status, ABOVE)
        self.assertIsNone(rating.estimate)
        self.assertIsNone(rating.high)
        # 10 log p = -chi2(0.95, 1) / 2
        p = math.exp(-3.841458820694124 / 2 / 10)
        self.assertAlmostEqual(rating.low, 1500 + common.elo_from_score(p), places=4)
        self.assertEqual(rating.bound(), rating.low)

    def test_all_losses_is_below_with_a_bound(self):
        rating = rating_fit.fit_ratings([("x", "sf", 0, 0, 8)], {"sf": 2400})["x"]
        self.assertEqual(rating.status, BELOW)
        p = math.exp(-3.841458820694124 / 2 / 8)
        self.assertAlmostEqual(rating.high, 2400 - common.elo_from_score(p), places=4)
        self.assertEqual(rating.bound(), rating.high)

    def test_a_single_draw_against_a_winless_record_is_finite(self):
        rating = rating_fit.fit_ratings([("x", "sf", 9, 1, 0)], {"sf": 1500})["x"]
        self.assertEqual(rating.status, FITTED)
        self.assertAlmostEqual(rating.estimate, 1500 + common.elo_from_score(9.5 / 10), places=6)
        self.assertIsNone(rating.bound(), "a fitted rating is two-sided")


class JointFitTest(unittest.TestCase):
    def test_one_player_two_anchors_matches_golden_section(self):
        pairings = [("x", "sf1500", 14, 4, 2), ("x", "sf2100", 3, 5, 12)]
        anchors = {"sf1500": 1500, "sf2100": 2100}
        rating = rating_fit.fit_ratings(pairings, anchors)["x"]
        best = golden_max(lambda r: log_likelihood(pairings, {**anchors, "x": r}), 0, 4000)
        self.assertAlmostEqual(rating.estimate, best, places=4)
        curvature = numeric_hessian(lambda v: log_likelihood(pairings, {**anchors, "x": v[0]}), [best])[0][0]
        half = common.Z95 / math.sqrt(-curvature)
        self.assertAlmostEqual(rating.high - rating.estimate, half, delta=1e-3 * half)

    def test_an_unanchored_opponent_is_placed_through_the_players(self):
        pairings = [
            ("p", "sf1500", 12, 5, 3),
            ("p", "sf1900", 4, 7, 9),
            ("p", "glaurung", 6, 4, 10),
            ("q", "glaurung", 11, 5, 4),
            ("q", "sf1900", 8, 6, 6),
        ]
        anchors = {"sf1500": 1500, "sf1900": 1900}
        ratings = rating_fit.fit_ratings(pairings, anchors)
        names = ["p", "q", "glaurung"]

        def ll(values):
            return log_likelihood(pairings, {**anchors, **dict(zip(names, values))})

        # Independent: Newton's method on finite-difference derivatives of the likelihood.
        point = [1700.0] * 3
        for _ in range(30):
            gradient = numeric_gradient(ll, point)
            step = rating_fit.invert(numeric_hessian(ll, point))
            point = [x - sum(step[i][j] * gradient[j] for j in range(3)) for i, x in enumerate(point)]
        p, q, g = point
        for name, value in zip(names, (p, q, g)):
            self.assertEqual(ratings[name].status, FITTED)
            self.assertAlmostEqual(ratings[name].estimate, value, delta=0.05, msg=name)
        # Intervals from the inverse of the finite-difference Hessian.
        hess = numeric_hessian(ll, [ratings[n].estimate for n in names])
        covariance = rating_fit.invert([[-x for x in row] for row in hess])
        for i, name in enumerate(names):
            half = common.Z95 * math.sqrt(covariance[i][i])
            self.assertAlmostEqual(ratings[name].high - ratings[name].estimate, half, delta=1e-3 * half, msg=name)

    def test_expected_results_recover_the_true_ratings(self):
        truth = {"classical": 1720.0, "nnue": 2010.0, "glaurung": 2250.0, "toga2": 2420.0}
        anchors = {f"sf{r}": float(r) for r in (1350, 1500, 1800, 2100, 2400)}
        everyone = {**truth, **anchors}
        pairings = []
        for player in ("classical", "nnue"):
            for opponent in [*anchors, "glaurung", "toga2"]:
                n = 1000.0
                p = common.score_from_elo(everyone[player] - everyone[opponent])
                pairings.append((player, opponent, n * p, 0.0, n * (1 - p)))
        ratings = rating_fit.fit_ratings(pairings, anchors)
        for name, value in truth.items():
            self.assertAlmostEqual(ratings[name].estimate, value, places=3, msg=name)
            self.assertLess(ratings[name].low, value)
            self.assertGreater(ratings[name].high, value)

    def test_simulated_games_recover_the_ratings_within_their_intervals(self):
        rng = random.Random(20261123)
        truth = {"classical": 1650.0, "nnue": 1950.0, "phalanx": 2150.0}
        anchors = {f"sf{r}": float(r) for r in (1350, 1700, 2000, 2300)}
        everyone = {**truth, **anchors}
        pairings = []
        for player in ("classical", "nnue"):
            for opponent in [*anchors, "phalanx"]:
                pairings.append((player, opponent, *simulate(rng, everyone[player], everyone[opponent], 400)))
        ratings = rating_fit.fit_ratings(pairings, anchors)
        for name, value in truth.items():
            rating = ratings[name]
            self.assertLess(rating.low, value, msg=name)
            self.assertGreater(rating.high, value, msg=name)
            self.assertLess(rating.high - rating.low, 200, msg=name)


class InvertTest(unittest.TestCase):
    def test_inverse_times_matrix_is_the_identity(self):
        matrix = [[4.0, -1.0, 0.5], [-1.0, 3.0, -2.0], [0.5, -2.0, 5.0]]
        inverse = rating_fit.invert(matrix)
        for i in range(3):
            for j in range(3):
                product = sum(inverse[i][k] * matrix[k][j] for k in range(3))
                self.assertAlmostEqual(product, 1.0 if i == j else 0.0, places=12)
        self.assertIsNone(rating_fit.invert([[1.0, 2.0], [2.0, 4.0]]))


class StatusTest(unittest.TestCase):
    def test_engines_without_a_chain_to_an_anchor_are_unanchored(self):
        pairings = [("p", "sf", 5, 5, 5), ("glaurung", "toga2", 3, 4, 5)]
        ratings = rating_fit.fit_ratings(pairings, {"sf": 1800})
        self.assertEqual(ratings["p"].status, FITTED)
        self.assertEqual(ratings["glaurung"].status, UNANCHORED)
        self.assertEqual(ratings["toga2"].status, UNANCHORED)
        self.assertIsNone(ratings["toga2"].estimate)

    def test_behind_an_unbounded_engine_is_undetermined(self):
        # x beat the anchor every time (above); y lost every game to x, met nobody else.
        pairings = [("x", "sf", 6, 0, 0), ("x", "y", 4, 0, 0)]
        ratings = rating_fit.fit_ratings(pairings, {"sf": 1500})
        self.assertEqual(ratings["x"].status, ABOVE)
        self.assertEqual(ratings["y"].status, UNDETERMINED)

    def test_a_draw_with_an_unbounded_engine_is_unbounded_too(self):
        pairings = [("x", "sf", 6, 0, 0), ("x", "y", 0, 4, 0)]
        ratings = rating_fit.fit_ratings(pairings, {"sf": 1500})
        self.assertEqual(ratings["y"].status, ABOVE)
        self.assertIsNone(ratings["y"].low)  # it met no rated engine

    def test_perfect_scores_against_some_anchors_stay_finite(self):
        pairings = [("x", "sf1350", 10, 0, 0), ("x", "sf2400", 0, 0, 10), ("x", "sf1800", 6, 2, 2)]
        ratings = rating_fit.fit_ratings(pairings, {"sf1350": 1350, "sf1800": 1800, "sf2400": 2400})
        self.assertEqual(ratings["x"].status, FITTED)
        self.assertTrue(1800 < ratings["x"].estimate < 2400)

    def test_bad_input_is_refused(self):
        with self.assertRaises(ValueError):
            rating_fit.fit_ratings([("x", "sf", 1, 0, 0)], {})
        with self.assertRaises(ValueError):
            rating_fit.fit_ratings([("x", "sf", -1, 0, 2)], {"sf": 1500})
        with self.assertRaises(ValueError):
            rating_fit.fit_ratings([("x", "x", 1, 0, 2)], {"sf": 1500})


if __name__ == "__main__":
    unittest.main()
