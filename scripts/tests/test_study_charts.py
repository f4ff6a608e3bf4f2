"""Checks the study's Elo chart (nnue_scripts.study.charts): it is drawn for fitted,
anchored and one-sided ratings alike (a set that lost every game has no estimate, only
a bound), and says why when matplotlib is missing."""

import os
import tempfile
import unittest
from unittest import mock

from nnue_scripts.rating_fit import BELOW, FITTED, Rating
from nnue_scripts.study import charts
from nnue_scripts.study.entries import ANCHOR_STATUS

NODES, TIME = "nodes20000", "movetime0.1"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def rows():
    return [
        {"set": "All", "thesis": {"elo": 0.0}, "elo": {NODES: Rating(ANCHOR_STATUS, 0.0, 0.0, 0.0),
                                                      TIME: Rating(ANCHOR_STATUS, 0.0, 0.0, 0.0)}},
        {"set": "All+H+V", "thesis": {"elo": -27.1}, "elo": {NODES: Rating(FITTED, 54, 6, 103, 200),
                                                            TIME: Rating(FITTED, 75, -3, 153, 200)}},
        {"set": "PQR", "thesis": None, "elo": {NODES: Rating(FITTED, -849, -1128, -570, 200),
                                               TIME: Rating(BELOW, None, None, -644, 200)}},
    ]


class EloChart(unittest.TestCase):
    @unittest.skipIf(charts.pyplot() is None, "matplotlib is not installed")
    def test_a_one_sided_rating_is_drawn_with_the_others(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "elo.png")
            self.assertIsNone(charts.elo_chart(path, rows(), [NODES, TIME]))
            with open(path, "rb") as f:
                self.assertEqual(f.read(len(PNG_SIGNATURE)), PNG_SIGNATURE)

    def test_without_matplotlib_a_note_and_no_file(self):
        with tempfile.TemporaryDirectory() as tmp, mock.patch.object(charts, "pyplot", return_value=None):
            path = os.path.join(tmp, "elo.png")
            self.assertIn("matplotlib", charts.elo_chart(path, rows(), [NODES, TIME]))
            self.assertFalse(os.path.exists(path))


if __name__ == "__main__":
    unittest.main()
