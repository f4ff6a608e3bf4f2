"""Checks the study's comparison with the thesis (nnue_scripts.study.against_thesis):
ranks with ties, Spearman's correlation worked out by hand, which sets count as clearly
above or below All, and the report's lines."""

import unittest

from nnue_scripts.rating_fit import ABOVE, BELOW, FITTED, Rating
from nnue_scripts.study import against_thesis as cmp
from nnue_scripts.study.entries import ANCHOR_STATUS

TIME = "movetime0.1"


def fitted(estimate, half_width=40):
    return Rating(FITTED, estimate, estimate - half_width, estimate + half_width, 200)


def row(name, rating):
    return {"set": name, "elo": {TIME: rating}}


ANCHOR_ROW = row("All", Rating(ANCHOR_STATUS, 0.0, 0.0, 0.0))


class Ranks(unittest.TestCase):
    def test_largest_first_and_ties_share_their_mean_rank(self):
        self.assertEqual(cmp.average_ranks([10, 30, 20]), [3, 1, 2])
        self.assertEqual(cmp.average_ranks([5, 7, 5, 1]), [2.5, 1, 2.5, 4])

    def test_spearman_by_hand(self):
        # Ranks (1, 2, 3, 4) against (2, 1, 4, 3): d^2 sums to 4, rho = 1 - 6*4/(4*15) = 0.6.
        self.assertAlmostEqual(cmp.spearman([4, 3, 2, 1], [3, 4, 1, 2]), 0.6)
        self.assertAlmostEqual(cmp.spearman([1, 2, 3], [10, 20, 30]), 1.0)
        self.assertAlmostEqual(cmp.spearman([1, 2, 3], [30, 20, 10]), -1.0)

    def test_spearman_needs_three_values_with_spread(self):
        self.assertIsNone(cmp.spearman([1, 2], [1, 2]))
        self.assertIsNone(cmp.spearman([1, 1, 1], [1, 2, 3]))


class Sides(unittest.TestCase):
    def test_an_interval_that_holds_zero_is_level(self):
        self.assertEqual(cmp.side_of_anchor(fitted(30, 40)), 0)
        self.assertEqual(cmp.side_of_anchor(fitted(50, 40)), 1)
        self.assertEqual(cmp.side_of_anchor(fitted(-50, 40)), -1)
        self.assertEqual(cmp.side_of_anchor(ANCHOR_ROW["elo"][TIME]), 0)

    def test_one_sided_bounds(self):
        self.assertEqual(cmp.side_of_anchor(Rating(BELOW, None, None, -600)), -1)
        self.assertEqual(cmp.side_of_anchor(Rating(ABOVE, None, 400, None)), 1)
        self.assertEqual(cmp.order_key(Rating(BELOW, None, None, -600)), -600)


class Comparison(unittest.TestCase):
    def rows(self):
        return [
            ANCHOR_ROW,
            row("All+H+V", fitted(60)),        # above: [+20, +100]
            row("All+PV", fitted(10)),         # level: [-30, +50]
            row("All+MB", fitted(-300)),       # below
            row("H+V", Rating(BELOW, None, None, -500)),  # below, by its bound
            row("KAm8", fitted(200)),          # not a thesis set: left out
            row("All+T", None),                # not rated
        ]

    def test_all_ranks_among_the_thesis_sets_only(self):
        c = cmp.condition_comparison(self.rows(), TIME)
        self.assertEqual(c["sets"], ["All+H+V", "All+PV", "All", "All+MB", "H+V"])
        self.assertEqual(c["all_rank"], 3)
        self.assertEqual(c["above"], ["All+H+V"])
        self.assertEqual(c["level"], ["All+PV"])
        self.assertEqual(c["below"], ["All+MB", "H+V"])
        # Thesis order of the same sets: All 0, All+PV -8.4, All+H+V -27.1, All+MB -260.9,
        # H+V -384.3, so ranks (1, 2, 3, 4, 5) against (3, 2, 1, 4, 5): d^2 = 8, rho = 0.6.
        self.assertAlmostEqual(c["spearman"], 0.6)

    def test_no_comparison_without_all(self):
        self.assertIsNone(cmp.condition_comparison([row("All+PV", fitted(10))], TIME))
        self.assertEqual(cmp.thesis_comparison([row("All+PV", fitted(10))], [TIME]), [])

    def test_report_lines(self):
        lines = cmp.comparison_section(cmp.thesis_comparison(self.rows(), [TIME]))
        self.assertIn("| thesis, 100 ms | 1 of 12 | none | none | 11 sets | 1 |", lines)
        self.assertIn("| ours, 100 ms | 3 of 5 | `All+H+V` | `All+PV` | 2 sets | +0.60 |", lines)


if __name__ == "__main__":
    unittest.main()
