"""Hand-checked numbers for the game-pair (pentanomial) statistics and the interval of a
difference of two jointly fitted ratings.

Worked by hand, with C = ln 10 / 400 (the slope of the logistic model in natural log
units per Elo point) and Elo(m) = 400 * log10(m / (1 - m)):

- Pairs 0, 0.5, 1, 1.5, 2 counted 1, 2, 4, 2, 1 (N = 10): the pair means 0, .25, .5, .75,
  1 have mean 0.5 and variance (0.25 + 2 * 0.0625 + 2 * 0.0625 + 0.25) / 10 = 0.075; the
  standard error is sqrt(0.075 / 10) = 0.0866025, the half width 1.959964 times that,
  0.169741, and Elo(0.669741) = 400 * log10(2.027918) = 122.818.
- Counts 0, 1, 3, 4, 2: mean (0.25 + 1.5 + 3 + 2) / 10 = 0.675, Elo(0.675) =
  400 * log10(2.076923) = 126.968; variance (0.180625 + 3 * 0.030625 + 4 * 0.005625 +
  2 * 0.105625) / 10 = 0.050625, standard error 0.0711512, half width 0.139454, so the
  interval is Elo(0.535546) = 24.742 to Elo(0.814454) = 256.966.
- The same 20 games counted per game (7 wins, 6 draws, 7 losses) give +-133.6: with
  pairs of one win and one loss counted as 1 point, the pair variance is smaller.
- X and Y each score 50 % in 4 games against the anchor A (0) and 50 % in 4 games
  against each other: all ratings 0, each pairing adds C^2 * 4 * 0.25 = C^2 to the
  information, I = C^2 [[2, -1], [-1, 2]], its inverse [[2, 1], [1, 2]] / (3 C^2); so
  Var(X - Y) = (2 + 2 - 2) / (3 C^2) and the half width is 1.959964 * sqrt(2/3) / C =
  1.959964 * 0.816497 * 173.7178 = 278.001, where ignoring the covariance would give
  1.959964 * sqrt(4/3) / C = 393.15.
- X plays 4 games and Y 8 against A, each scoring 50 %, and they never meet: the
  variances are 1 / C^2 and 1 / (2 C^2), uncorrelated, so the half width of X - Y is
  1.959964 * sqrt(1.5) / C = 417.002.
"""

import unittest

from nnue_scripts import common
from nnue_scripts import rating_fit


class PentanomialTest(unittest.TestCase):
    def test_pairs_come_from_colour_swapped_neighbours(self):
        scores = {0: 1.0, 1: 0.5, 2: 0.0, 3: 0.0, 4: 1.0, 7: 0.5}  # 4 and 7 have no partner
        self.assertEqual(common.pair_scores(scores), [1.5, 0.0])
        self.assertEqual(common.pentanomial([1.5, 0.0, 2.0, 2.0, 0.5]), [1, 1, 0, 1, 2])

    def test_symmetric_counts(self):
        elo, low, high = common.pentanomial_interval([1, 2, 4, 2, 1])
        self.assertAlmostEqual(elo, 0.0, places=9)
        self.assertAlmostEqual(low, -122.818, places=3)
        self.assertAlmostEqual(high, 122.818, places=3)

    def test_skewed_counts(self):
        elo, low, high = common.pentanomial_interval([0, 1, 3, 4, 2])
        self.assertAlmostEqual(elo, 126.968, places=3)
        self.assertAlmostEqual(low, 24.742, places=3)
        self.assertAlmostEqual(high, 256.966, places=3)

    def test_pairs_narrow_the_interval_of_the_same_games(self):
        _, low, high = common.elo_interval(7, 6, 7)
        self.assertAlmostEqual(high, 133.616, places=3)
        self.assertLess(common.pentanomial_interval([1, 2, 4, 2, 1])[2], high)

    def test_no_pairs(self):
        self.assertEqual(common.pentanomial_interval([0] * 5)[0], 0.0)


class DifferenceTest(unittest.TestCase):
    def test_shared_opponent_covariance(self):
        fit = rating_fit.fit([("X", "A", 1, 2, 1), ("Y", "A", 2, 0, 2), ("X", "Y", 0, 4, 0)], {"A": 0.0})
        self.assertAlmostEqual(fit.covariance["X"]["Y"] * 2, fit.covariance["X"]["X"], places=6)
        estimate, low, high = rating_fit.difference(fit, "X", "Y")
        self.assertAlmostEqual(estimate, 0.0, places=6)
        self.assertAlmostEqual(high, 278.001, places=3)
        self.assertAlmostEqual(low, -278.001, places=3)

    def test_independent_ratings(self):
        fit = rating_fit.fit([("X", "A", 2, 0, 2), ("Y", "A", 4, 0, 4)], {"A": 0.0})
        estimate, low, high = rating_fit.difference(fit, "X", "Y")
        self.assertAlmostEqual(high - estimate, 417.002, places=3)
        self.assertAlmostEqual(estimate - low, 417.002, places=3)

    def test_against_an_anchor_is_the_rating_interval(self):
        fit = rating_fit.fit([("X", "A", 3, 0, 1), ("X", "B", 1, 0, 3)], {"A": 0.0, "B": 200.0})
        x = fit.ratings["X"]
        self.assertEqual(rating_fit.difference(fit, "X", "A"), (x.estimate, x.low, x.high))

    def test_an_unfitted_engine_has_no_difference(self):
        fit = rating_fit.fit([("X", "A", 4, 0, 0), ("Y", "A", 2, 0, 2)], {"A": 0.0})
        self.assertIsNone(rating_fit.difference(fit, "X", "Y"))


if __name__ == "__main__":
    unittest.main()
