"""Checks nnue_scripts.recipe_publish on a made-up run folder: the published report's
keys and paths (the issue's list: start, core_hours, positions, final_net in nets/, each
generation's positions, net, screen and core-hours), the net copied byte for byte, and
each refusal (an unfinished run, a different net under the same name, a missing or
broken report, a bad date) as one line with exit status 2."""

import contextlib
import io
import json
import os
import tempfile
import unittest

from nnue_scripts import recipe_publish

SCREEN = {"decision": "H1", "elo": 49.5, "low": 20.0, "high": 79.8, "elo_finite": 49.5,
          "games": 339, "wins": 133, "draws": 121, "losses": 85}
NET_BYTES = b"net bytes of candidate 1"


def make_run(folder, budget_spent=True):
    """A run folder as the recipe leaves it, its paths those of another machine."""
    os.makedirs(folder)
    with open(os.path.join(folder, "cand1.nnue"), "wb") as f:
        f.write(NET_BYTES)
    report = {
        "start": "classical", "budget_core_hours": 24.0, "core_hours": 23.9,
        "core_hours_by_kind": {"generation": 21.0, "screen": 1.5, "training": 1.4},
        "report_core_hours": 0.0, "threads": 2, "small": False, "positions": 4300000,
        "final_net": "/elsewhere/run/cand1.nnue", "final_elo_vs_classical_from_screens": 49.5,
        "final_report": None, "resumed": 2, "budget_spent": budget_spent,
        "generations": [
            {"generation": 0, "positions": 2300000, "label": "classical", "net": "/elsewhere/run/cand0.nnue",
             "screen": dict(SCREEN, decision="H0", elo=-53.5, elo_finite=-53.5), "promoted": False,
             "core_hours": 1.45, "elo_vs_classical": 0.0},
            {"generation": 1, "positions": 4300000, "label": "classical", "net": "/elsewhere/run/cand1.nnue",
             "screen": SCREEN, "promoted": True, "core_hours": 2.66, "elo_vs_classical": 49.5},
        ],
        "unfinished_generation": None,
    }
    with open(os.path.join(folder, "recipe.json"), "w") as f:
        json.dump(report, f)
    for generation, init_net in ((0, None), (1, "/elsewhere/run/cand0.nnue")):
        with open(os.path.join(folder, f"train{generation}.done"), "w") as f:
            json.dump({"step": f"train{generation}", "init_net": init_net}, f)
    with open(os.path.join(folder, "log.jsonl"), "w") as f:
        for threads in (2, 16, 2):
            f.write(json.dumps({"start": {"threads": threads}, "invocation": 0}) + "\n")
            f.write(json.dumps({"step": "gen0", "kind": "generation", "exit": 0}) + "\n")
        # candidate 1's training ran twice (stopped, then resumed with another λ): the last command counts
        for step, weight in (("train0", "0.5"), ("train1", "0.5"), ("train1", "0.75")):
            f.write(json.dumps({"step": step, "kind": "training", "command": ["nnue-learn", "train", "--lambda", weight]}) + "\n")


def run_main(argv):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = recipe_publish.main(argv)
    return status, err.getvalue()


class Publish(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.run = os.path.join(self.tmp.name, "run")
        self.root = os.path.join(self.tmp.name, "repo")
        os.makedirs(os.path.join(self.root, "nets"))

    def tearDown(self):
        self.tmp.cleanup()

    def published(self):
        with open(os.path.join(self.root, "docs", "results", "recipe.json")) as f:
            return json.load(f)

    def test_a_finished_run_publishes_its_net_and_report(self):
        make_run(self.run)
        status, err = run_main([self.run, "--root", self.root, "--date", "2026-12-01"])
        self.assertEqual((status, err), (0, ""))
        with open(os.path.join(self.root, "nets", "recipe-2026-12-01.nnue"), "rb") as f:
            self.assertEqual(f.read(), NET_BYTES)
        data = self.published()
        self.assertEqual(data["start"], "classical")
        self.assertEqual(data["final_net"], "nets/recipe-2026-12-01.nnue")
        self.assertEqual(len(data["final_net_sha256"]), 64)
        self.assertEqual((data["core_hours"], data["positions"]), (23.9, 4300000))
        self.assertEqual([g["net"] for g in data["generations"]], ["RUN/cand0.nnue", "RUN/cand1.nnue"])
        self.assertEqual([g["positions"] for g in data["generations"]], [2300000, 4300000])
        self.assertEqual(data["generations"][1]["screen"]["decision"], "H1")
        self.assertEqual(data["threads_by_invocation"], [2, 16, 2])
        self.assertEqual(data["threads"], "2 and 16")
        self.assertFalse(data["unfinished"])
        with open(os.path.join(self.root, "docs", "results", "recipe.md")) as f:
            text = f.read()
        self.assertIn("on 2 and 16 threads; resumed 2 times", text)
        self.assertIn("Final net: nets/recipe-2026-12-01.nnue", text)
        self.assertEqual([g["trained_from"] for g in data["generations"]], ["random weights", "RUN/cand0.nnue"])
        self.assertEqual([g["score_weight"] for g in data["generations"]], [0.5, 0.75])
        self.assertIn("|\n\nTrained from random weights: candidates 0; fine-tuned: candidates 1 (from cand0.nnue); "
                      "λ 0.5: candidates 0; λ 0.75: candidates 1.\n\n", text)
        self.assertNotIn("/elsewhere", text + json.dumps(data))

    def test_publishing_again_keeps_the_same_net_and_refuses_a_different_one(self):
        make_run(self.run)
        argv = [self.run, "--root", self.root, "--date", "2026-12-01"]
        self.assertEqual(run_main(argv)[0], 0)
        self.assertEqual(run_main(argv)[0], 0)
        with open(os.path.join(self.run, "cand1.nnue"), "wb") as f:
            f.write(b"another net")
        status, err = run_main(argv)
        self.assertEqual(status, 2)
        self.assertIn("recipe-2026-12-01.nnue: a different net is already published", err)
        self.assertEqual(err.count("\n"), 1)
        with open(os.path.join(self.root, "nets", "recipe-2026-12-01.nnue"), "rb") as f:
            self.assertEqual(f.read(), NET_BYTES)

    def test_an_unfinished_run_is_refused_unless_asked_and_then_copies_no_net(self):
        make_run(self.run, budget_spent=False)
        status, err = run_main([self.run, "--root", self.root, "--date", "2026-12-01"])
        self.assertEqual(status, 2)
        self.assertIn("the run has not spent its budget (23.900 of 24 core-hours)", err)
        status, err = run_main([self.run, "--root", self.root, "--date", "2026-12-01", "--unfinished"])
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(os.listdir(os.path.join(self.root, "nets")), [])
        data = self.published()
        self.assertTrue(data["unfinished"])
        self.assertEqual(data["final_net"], "RUN/cand1.nnue")
        with open(os.path.join(self.root, "docs", "results", "recipe.md")) as f:
            text = f.read()
        self.assertTrue(text.startswith("# Recipe run (unfinished: its budget is not spent yet)"))
        self.assertIn("Best net so far: RUN/cand1.nnue", text)

    def test_a_spent_run_published_before_its_strength_report_says_so(self):
        make_run(self.run, budget_spent=True)
        status, err = run_main([self.run, "--root", self.root, "--date", "2026-12-01", "--unfinished"])
        self.assertEqual((status, err), (0, ""))
        with open(os.path.join(self.root, "docs", "results", "recipe.md")) as f:
            text = f.read()
        self.assertTrue(text.startswith("# Recipe run (unfinished: its budget is spent, its final strength "
                                        "report not yet played)"), text[:120])
        self.assertIn("now that the budget is spent", text)

    def test_bad_input_is_one_line_naming_the_problem(self):
        status, err = run_main([self.run, "--root", self.root])
        self.assertEqual(status, 2)
        self.assertIn("recipe.json: No such file or directory (is", err)
        make_run(self.run)
        status, err = run_main([self.run, "--root", self.root, "--date", "1 Dec"])
        self.assertEqual(status, 2)
        self.assertIn("--date '1 Dec': not YYYY-MM-DD", err)
        with open(os.path.join(self.run, "recipe.json"), "w") as f:
            f.write("{\n  broken")
        status, err = run_main([self.run, "--root", self.root])
        self.assertEqual(status, 2)
        self.assertIn("recipe.json: line 2: not JSON", err)
        with open(os.path.join(self.run, "recipe.json"), "w") as f:
            json.dump({"start": "classical"}, f)
        status, err = run_main([self.run, "--root", self.root])
        self.assertIn("no key 'core_hours' (not a recipe report)", err)
        self.assertEqual(err.count("\n"), 1)

    def test_a_training_command_without_its_lambda_is_named(self):
        make_run(self.run)
        with open(os.path.join(self.run, "log.jsonl"), "a") as f:
            f.write(json.dumps({"step": "train1", "command": ["nnue-learn", "train", "--lambda"]}) + "\n")
        status, err = run_main([self.run, "--root", self.root, "--date", "2026-12-01"])
        self.assertEqual(status, 2)
        self.assertIn("log.jsonl: train1: a training command without a number after --lambda", err)
        self.assertEqual(err.count("\n"), 1)

    def test_a_missing_final_net_is_named(self):
        make_run(self.run)
        os.remove(os.path.join(self.run, "cand1.nnue"))
        status, err = run_main([self.run, "--root", self.root, "--date", "2026-12-01"])
        self.assertEqual(status, 2)
        self.assertIn("cand1.nnue: the run's final net is missing", err)


if __name__ == "__main__":
    unittest.main()
