"""Checks the study's knowledge-and-speed model (nnue_scripts.study.speed) against
values worked out by hand: the weighted fit of Elo at equal time on Elo at fixed nodes
and the speed halvings, which sets enter it, and its report lines."""

import math
import unittest

from nnue_scripts.rating_fit import FITTED, Rating
from nnue_scripts.study import speed

NODES, TIME = "nodes20000", "movetime0.1"


def rating(estimate, half_width):
    return Rating(FITTED, estimate, estimate - half_width, estimate + half_width, 200)


def row(name, nps, at_nodes, at_time):
    return {"set": name, "nodes_per_second": nps, "elo": {NODES: at_nodes, TIME: at_time}}


class Fit(unittest.TestCase):
    def test_three_points_by_hand(self):
        # Equal weights (sigma 10, no error on the fixed-node side). Normal equations
        # with w = 1/100: [[200, -1], [-1, 0.02]] (c, k) = [70, 0.2], determinant 3:
        # c = 8/15, k = 110/3; residuals -10/3, -10/3, +10/3, chi-square 1/3 on 1.
        points = [("a", 100, 0, 50, 10, 0), ("b", 0, 0, -40, 10, 1), ("c", 100, 0, 20, 10, 1)]
        model = speed.fit_speed_model(points)
        self.assertAlmostEqual(model["c"], 8 / 15)
        self.assertAlmostEqual(model["k"], 110 / 3)
        self.assertAlmostEqual(model["chi2"], 1 / 3)
        self.assertEqual(model["dof"], 1)
        self.assertAlmostEqual(model["se_c"], math.sqrt(0.02 / 3))
        self.assertAlmostEqual(model["se_k"], math.sqrt(200 / 3))
        self.assertAlmostEqual(model["points"][2]["predicted"], 8 / 15 * 100 - 110 / 3)

    def test_exact_data_give_back_the_model(self):
        c, k = 0.7, 60.0
        data = [(100, 0.0), (-50, 1.5), (80, 2.6), (20, 0.4), (-200, 0.1)]
        points = [(f"s{i}", u, 25, c * u - k * x, 25, x) for i, (u, x) in enumerate(data)]
        model = speed.fit_speed_model(points)
        self.assertAlmostEqual(model["c"], c)
        self.assertAlmostEqual(model["k"], k)
        self.assertAlmostEqual(model["chi2"], 0.0)

    def test_a_poor_fit_widens_the_errors_by_the_birge_ratio(self):
        points = [("a", 100, 0, 50, 1, 0), ("b", 0, 0, -40, 1, 1), ("c", 100, 0, 20, 1, 1)]
        model = speed.fit_speed_model(points)
        self.assertAlmostEqual(model["chi2"], 100 / 3)  # the by-hand case with sigma 1
        self.assertAlmostEqual(model["se_k"], math.sqrt(2 / 3) * math.sqrt(100 / 3))

    def test_too_few_or_inseparable_points_fit_nothing(self):
        self.assertIsNone(speed.fit_speed_model([("a", 100, 10, 50, 10, 1), ("b", 0, 10, -40, 10, 2)]))
        same_speed = [(f"s{i}", u, 10, u / 2, 10, 0.0) for i, u in enumerate((100, -50, 30))]
        self.assertIsNone(speed.fit_speed_model(same_speed))


class Points(unittest.TestCase):
    def test_which_sets_enter_and_their_halvings(self):
        anchor = Rating("anchor", 0.0, 0.0, 0.0)
        rows = [
            row("All", 1_200_000, anchor, anchor),
            row("All+MB", 300_000, rating(96, 50), rating(-150, 40)),
            row("All+H+V", 600_000, rating(54, 49), rating(10, 45)),
            row("PQR", 1_200_000, rating(-849, 280), rating(-700, 200)),  # not a feature set
            row("H+V", 400_000, Rating("below", None, None, -300), rating(-400, 60)),  # no estimate
            row("KAm8", None, rating(7, 48), rating(0, 40)),  # no speed measured
        ]
        points = speed.speed_points(rows, NODES, TIME)
        self.assertEqual([p[0] for p in points], ["All+MB", "All+H+V"])
        name, u, se_u, y, se_y, x = points[0]
        self.assertEqual((u, y, x), (96, -150, 2.0))
        self.assertAlmostEqual(se_u, 50 / 1.959963984540054)
        self.assertAlmostEqual(points[1][5], 1.0)

    def test_conditions_and_the_report_lines(self):
        self.assertEqual(speed.speed_conditions([NODES, TIME]), (NODES, TIME))
        self.assertIsNone(speed.speed_conditions([NODES]))
        model = speed.fit_speed_model([("a", 100, 0, 50, 10, 0), ("b", 0, 0, -40, 10, 1), ("c", 100, 0, 20, 10, 1)])
        lines = speed.speed_section(model, NODES, TIME)
        self.assertIn("c = 0.53 ± 0.16", lines[2])
        self.assertIn("k = 37 ± 16 Elo per halving", lines[2])
        self.assertEqual(lines[-3], "| `a` | 0.00 | +100 | +50 | +53 | -0.3 |")
        self.assertEqual(lines[-1], "| `b` | 1.00 | +0 | -40 | -37 | -0.3 |")


if __name__ == "__main__":
    unittest.main()
