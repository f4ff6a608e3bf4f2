"""Checks nnue_scripts.elo_history on small gauntlet reports: dates, order, the player
filter, the table, and errors that name the file."""

import contextlib
import io
import json
import os
import tempfile
import unittest

from nnue_scripts import elo_history


def rating(estimate, low, high, games):
    return {"status": "fitted", "estimate": estimate, "low": low, "high": high, "games": games}


def report(players, ratings, **extra):
    return {"players": [{"name": p} for p in players], "ratings": ratings, "time_control": "2+0.02", **extra}


class History(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name, data):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(data if isinstance(data, str) else json.dumps(data))
        return path

    def test_rows_in_date_order_without_opponents(self):
        later = self.write("gauntlet-2026-11-24.json", report(
            ["classical", "default-net"],
            {"classical": rating(2153.4, 2089.0, 2217.8, 240), "default-net": rating(2102.5, 2038.0, 2167.0, 240),
             "toga2": rating(2150.0, 2056.0, 2243.0, 80)}))
        earlier = self.write("strength.json", report(
            ["classical"], {"classical": rating(2064.0, 1959.0, 2169.0, 98)}, date="2026-11-23"))
        rows = elo_history.history([later, earlier])
        self.assertEqual([(r["date"], r["player"]) for r in rows],
                         [("2026-11-23", "classical"), ("2026-11-24", "classical"), ("2026-11-24", "default-net")])
        lines = elo_history.markdown(rows)
        self.assertEqual(lines[2], "| 2026-11-23 | strength.json | 2+0.02 | classical | 2064 [1959, 2169] | 98 |")
        self.assertEqual([r["player"] for r in elo_history.history([later], ["default-net"])], ["default-net"])

    def test_a_player_without_an_estimate_shows_its_status(self):
        path = self.write("g-2026-01-02.json", report(["net"], {"net": {"status": "all wins", "games": 8}}))
        rows = elo_history.history([path])
        self.assertEqual(elo_history.rating_text(rows[0]), "all wins")

    def test_errors_name_the_file(self):
        cases = [
            (self.write("no-date.json", report(["a"], {})), "no 'date' field"),
            (self.write("broken-2026-01-01.json", '{"players": [\n'), "line 2: not JSON"),
            (self.write("other-2026-01-01.json", {"x": 1}), "not a gauntlet report"),
            (os.path.join(self.dir.name, "missing-2026-01-01.json"), "No such file"),
        ]
        for path, problem in cases:
            with self.assertRaises(elo_history.HistoryError) as caught:
                elo_history.history([path])
            self.assertIn(os.path.basename(path), str(caught.exception))
            self.assertIn(problem, str(caught.exception))

    def test_main_prints_the_table_and_fails_without_ratings(self):
        path = self.write("g-2026-01-02.json", report(["net"], {"net": rating(2000.0, 1900.0, 2100.0, 40)}))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            self.assertEqual(elo_history.main([path]), 0)
            self.assertEqual(elo_history.main([path, "--players", "nobody"]), 1)
        self.assertIn("| 2026-01-02 | g-2026-01-02.json | 2+0.02 | net | 2000 [1900, 2100] | 40 |", out.getvalue())
        self.assertIn("no ratings of nobody", err.getvalue())


if __name__ == "__main__":
    unittest.main()
