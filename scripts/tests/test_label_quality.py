"""nnue_scripts.label_quality: figures checked by hand on three positions, and the one-line
errors for labellings that cannot be compared."""

import contextlib
import io
import math
import os
import tempfile
import unittest

from nnue_scripts import label_quality

FENS = ["8/8/8/4k3/8/8/4K3/7R w - - 0 1",
        "8/8/8/4k3/8/8/4K3/7r w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]


def plain(scores, results=(1, -1, 0), fens=FENS):
    return "".join(f"fen {fen}\nmove e2e3\nscore {s}\nply 10\nresult {r}\ne\n"
                   for fen, s, r in zip(fens, scores, results))


class LabelQualityTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_figures_against_the_reference(self):
        ref = label_quality.read_plain(self.write("ref.plain", plain([400, -400, 0])))
        other = label_quality.read_plain(self.write("a.plain", plain([400, -1200, 20])))
        figures = label_quality.compare(ref, other, "a.plain", 400.0)
        # Win probabilities at scale 400: ref 1/(1+e^-1), 1/(1+e), 1/2; other 1/(1+e^-1),
        # 1/(1+e^3), 1/(1+e^-0.05).
        high, low, low3, p20 = (1 / (1 + math.e ** x) for x in (-1, 1, 3, -0.05))
        squared = (low - low3) ** 2 + (p20 - 0.5) ** 2
        self.assertAlmostEqual(figures["rms_probability"], math.sqrt(squared / 3))
        # -1200 is outside the ±1000 window: only 0 and 20 cp count.
        self.assertAlmostEqual(figures["mean_abs_cp"], 10.0)
        # A score of 0 has no sign: nothing differs.
        self.assertEqual(figures["sign_differs"], 0.0)
        entropy = -(math.log(high) + math.log(1 - low3) + 0.5 * math.log(p20) + 0.5 * math.log(1 - p20))
        self.assertAlmostEqual(figures["result_cross_entropy"], entropy / 3)

    def test_the_table_with_cpu_times(self):
        ref = self.write("ref.plain", plain([400, -400, 0]))
        same = self.write("same.plain", plain([400, -400, 0]))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            label_quality.main(["--reference", ref, same, "--cpu", f"{same}=0.3"])
        row = out.getvalue().splitlines()[2]
        self.assertTrue(row.startswith(f"| {same} | 100.00 | 0.0000 | 0.0 | 0.0 % | "), row)

    def test_errors_name_the_file_and_the_record(self):
        ref = self.write("ref.plain", plain([400, -400, 0]))
        cases = [
            (self.write("short.plain", plain([1, 2])), "2 records, the reference has 3"),
            (self.write("moved.plain", plain([1, 2, 3], fens=FENS[::-1])), "record 0: position"),
            (self.write("bad.plain", "fen x\nscore y\nresult 1\ne\n"), "record 0 (line 4)"),
            (self.write("empty.plain", ""), "no records"),
            (os.path.join(self.tmp.name, "missing.plain"), "No such file"),
        ]
        for path, text in cases:
            with self.assertRaises(SystemExit) as caught:
                label_quality.main(["--reference", ref, path])
            message = str(caught.exception)
            self.assertIn(text, message)
            self.assertIn(os.path.basename(path), message)
            self.assertNotIn("\n", message)
        for argv, text in (([ref, "--cpu", "x"], "--cpu 'x'"), ([ref, "--scale", "0"], "--scale 0")):
            with self.assertRaises(SystemExit) as caught:
                label_quality.main(["--reference", ref] + argv)
            self.assertIn(text, str(caught.exception))


if __name__ == "__main__":
    unittest.main()
