"""Checks nnue_scripts.recipe, nnue_scripts.budget and nnue_scripts.recipe_report with
fake programs: a ledger whose children are simulated (each books a fixed CPU time, writes
what the real program would, and can be interrupted), so the budget's arithmetic, the
resumption, the promotion rule and the report's keys are checked exactly in milliseconds.
Two cases run real (tiny) processes: the CPU time of a grandchild is counted, and a child
is stopped once the budget is spent."""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

from nnue_scripts import budget, recipe, recipe_report

# CPU seconds each fake program books.
COSTS = {"generation": 100.0, "training": 50.0, "screen": 30.0}
POSITIONS = 1000
# Most cases leave generation 0's material part out, so that their step lists and budgets
# stay those of the generations alone (a later --material-positions in `extra` wins); Material
# checks it.
NO_MATERIAL = ("--material-positions", "0")
H1_LINE = ("final: 20 games: +12 =6 -2 (A's view), Elo +182.0 [+80.0, +290.0] (95 %), pairs [0, 1, 2, 3, 4] (0-2 points), "
           "SPRT 0/15 LLR 3.10 [-2.94, 2.94] H1, failures 0; games ended 3 by resign adjudication, 0 by draw adjudication")
H0_LINE = ("final: 10 games: +1 =2 -7 (A's view), Elo -240.0 [-400.0, -100.0] (95 %), pairs [3, 1, 1, 0, 0] (0-2 points), "
           "SPRT 0/15 LLR -3.00 [-2.94, 2.94] H0, failures 0")


class Interrupt(Exception):
    pass


class FakeLedger(budget.Ledger):
    """A ledger whose children are simulated. `screens` is the list of final lines the
    screens print, in order; `stop_at` = (step, fraction) raises budget.Stopped at that
    step once it has done `fraction` of its work (for a generation: written that share
    of its positions; for a training: saved its checkpoint); (step, fraction, "budget")
    stops it there as a spent budget does instead."""

    def __init__(self, run, hours, screens, stop_at=None):
        super().__init__(run, hours, show=lambda text: None)
        self.screens, self.stop_at, self.commands = list(screens), stop_at, []

    def run_child(self, step, kind, command, on_line=None, charged=True, stoppable=True):
        self.commands.append((step, command))
        on_line = on_line or (lambda line: None)
        stopping = self.stop_at and self.stop_at[0] == step and command[1] != "stats"
        share = self.stop_at[1] if stopping else 1.0
        if command[1] == "stats":
            with open(command[2]) as f:
                on_line(f"records: {f.read().count('x')}")
            return 0, 0.0, False
        if command[1] == "generate":
            out = command[command.index("--output-file-name") + 1]
            wanted = int(command[command.index("--loop") + 1])
            with open(out, "a") as f:
                f.write("x" * int(wanted * share))
        elif command[1] == "train":
            checkpoints = command[command.index("--checkpoint-dir") + 1]
            os.makedirs(checkpoints, exist_ok=True)
            open(os.path.join(checkpoints, recipe.CHECKPOINT_FILE), "w").close()
            if not stopping:
                open(command[command.index("--output-net") + 1], "w").close()
        elif "nnue_scripts.match" in command:
            if not stopping:
                on_line(self.screens.pop(0))
        elif "nnue_scripts.gauntlet" in command:
            out = os.path.join(command[command.index("--out-dir") + 1])
            os.makedirs(out, exist_ok=True)
            with open(os.path.join(out, "gauntlet.json"), "w") as f:
                json.dump({"differences": [{"player": "final", "estimate": 50.0, "low": 10.0, "high": 90.0}]}, f)
            self.book(step, kind, 7.0, charged=False)
            return 0, 7.0, False
        seconds = COSTS[kind] * share
        self.book(step, kind, seconds, charged)
        if stopping and self.stop_at[2:] == ("budget",):
            self.stop_at = None
            return budget.EXIT_SIGINT, seconds, True
        if stopping:
            self.stop_at = None
            raise budget.Stopped(budget.EXIT_SIGINT)
        return 0, seconds, False


def run_recipe(out_dir, hours, screens, stop_at=None, generations=0, extra=(), ledger_class=None):
    """One invocation of the recipe with fake programs; returns (ledger, outcome, state)
    or raises budget.Stopped as the real one would stop."""
    args = recipe.parse_args(["--budget-core-hours", str(hours), "--out-dir", out_dir, "--data-dir",
                              os.path.join(out_dir, "data"), "--positions", str(POSITIONS),
                              "--generations", str(generations), "--no-build", *NO_MATERIAL, *extra])
    run, state = recipe.open_folders(args)
    ledger = (ledger_class or FakeLedger)(run, hours, screens, stop_at)
    the_recipe = recipe.Recipe(args, run, ledger)
    run_recipe.last = (args, run, ledger, state)
    # The recipe's progress lines would bury the test runner's output.
    with contextlib.redirect_stdout(io.StringIO()):
        outcome = the_recipe.generations()
        strength = the_recipe.final_report(outcome["best"])
        recipe_report.write(run, args, state, ledger, outcome, strength)
    return ledger, outcome, state


def steps_run(ledger):
    return [step for step, command in ledger.commands if command[1] != "stats"]


def option(command, name):
    return command[command.index(name) + 1]


class Budget(unittest.TestCase):
    def setUp(self):
        # The ledger prints each command it starts; the runner's output stays readable.
        self.quiet = contextlib.redirect_stdout(io.StringIO())
        self.quiet.__enter__()

    def tearDown(self):
        self.quiet.__exit__(None, None, None)

    def test_spends_exactly_what_the_children_booked_and_starts_nothing_once_spent(self):
        with tempfile.TemporaryDirectory() as tmp:
            # 360 core-seconds: two generations of 100 + 50 + 30, then nothing.
            ledger, outcome, _ = run_recipe(tmp, 0.1, [H1_LINE, H0_LINE])
            self.assertEqual(steps_run(ledger), ["gen0", "train0", "screen0", "gen1", "train1", "screen1", "strength"])
            self.assertEqual(ledger.spent, 360.0)
            self.assertEqual(ledger.by_kind, {"generation": 200.0, "training": 100.0, "screen": 60.0})
            self.assertEqual(ledger.outside, 7.0)
            self.assertTrue(ledger.exhausted())
            with open(os.path.join(tmp, budget.LEDGER_FILE)) as f:
                saved = json.load(f)
            self.assertEqual(saved["spent_core_seconds"], 360.0)
            self.assertEqual(saved["by_step"]["gen1"], 100.0)

    def test_a_generation_is_sized_to_the_budget_left(self):
        with tempfile.TemporaryDirectory() as tmp:
            # After generation 0 (180 s) 140 s are left; training and screening cost 80
            # s, so 60 s of generation at 0.1 s a position: 600 positions.
            ledger, _, _ = run_recipe(tmp, 320 / 3600, [H0_LINE, H0_LINE])
            generations = [command for step, command in ledger.commands if step == "gen1" and command[1] == "generate"]
            self.assertEqual(option(generations[0], "--loop"), "600")

    def test_no_generation_when_less_than_a_quarter_fits(self):
        with tempfile.TemporaryDirectory() as tmp:
            # 240 s: 60 s left after generation 0, less than the 80 s of training and
            # screening alone. No net was promoted, so there is no strength report.
            ledger, _, _ = run_recipe(tmp, 240 / 3600, [H0_LINE])
            self.assertEqual(steps_run(ledger), ["gen0", "train0", "screen0"])
            self.assertEqual((ledger.spent, ledger.outside), (180.0, 0.0))
            # The run has ended (recipe_publish takes it), though 60 s were never spent;
            # a report-only pass over the same folders says so too.
            for extra in ((), ("--report-only",)):
                run_recipe(tmp, 240 / 3600, [], extra=extra)
                with open(os.path.join(tmp, recipe_report.JSON_FILE)) as f:
                    self.assertTrue(json.load(f)["budget_spent"], extra)

    def test_a_real_grandchilds_cpu_time_is_counted(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = recipe.steps.Run(tmp)
            ledger = budget.Ledger(run, 1.0, show=lambda text: None, poll=0.05)
            burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass\n"
            parent = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {burn!r}])"
            status, seconds, by_budget = ledger.run_child("burn", "generation", [sys.executable, "-c", parent])
            self.assertEqual((status, by_budget), (0, False))
            self.assertGreaterEqual(seconds, 0.3)
            self.assertLess(seconds, 1.5)
            self.assertEqual(ledger.spent, seconds)

    def test_a_real_child_is_stopped_once_the_budget_is_spent(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = recipe.steps.Run(tmp)
            ledger = budget.Ledger(run, 0.2 / 3600, show=lambda text: None, poll=0.05)
            forever = ("import signal, sys\nsignal.signal(signal.SIGINT, lambda *a: sys.exit(130))\n"
                       "while True: pass\n")
            status, seconds, by_budget = ledger.run_child("spin", "generation", [sys.executable, "-c", forever])
            self.assertEqual((status, by_budget), (130, True))
            self.assertGreaterEqual(seconds, 0.2)
            self.assertTrue(ledger.exhausted())

    def test_bookkeeping_runs_to_its_end_after_the_budget_is_spent(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = recipe.steps.Run(tmp)
            ledger = budget.Ledger(run, 0.1 / 3600, show=lambda text: None, poll=0.05)
            ledger.book("earlier", "generation", 1.0)
            burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.2: pass\nprint('counted')\n"
            lines = []
            status, _, by_budget = ledger.run_child("count", "generation", [sys.executable, "-c", burn],
                                                    on_line=lines.append, stoppable=False)
            self.assertEqual((status, by_budget, lines), (0, False, ["counted"]))
            # A stoppable child that ends on its own as it is stopped is still reaped and counted.
            status, seconds, by_budget = ledger.run_child("quick", "generation", [sys.executable, "-c", "pass"])
            self.assertEqual(ledger.step_seconds("quick"), round(seconds, 3))


class Material(unittest.TestCase):
    """Generation 0's material part: played first, with random moves and classical
    labels, in every candidate's data, counted with generation 0, and resumed like a
    generation."""

    MATERIAL = ("--material-positions", "200")

    def test_it_comes_first_and_every_candidate_trains_on_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            ledger, outcome, _ = run_recipe(tmp, 1.0, [H1_LINE, H0_LINE], generations=2, extra=self.MATERIAL)
            self.assertEqual(steps_run(ledger)[:2], ["material", "gen0"])
            commands = {step: command for step, command in ledger.commands if command[1] != "stats"}
            material = commands["material"]
            self.assertEqual(option(material, "--loop"), "200")
            self.assertEqual(option(material, "--random-move-count"), "5")
            self.assertEqual(option(material, "--random-move-maxply"), "24")
            self.assertEqual(option(material, "--use-nnue"), "false")
            self.assertNotIn("--random-opening-plies", material)
            self.assertNotIn("--adjudicate-win", material)
            self.assertIn("--random-opening-plies", commands["gen0"])
            files = [os.path.join(tmp, "data", name) for name in ("material.binpack", "gen0.binpack", "gen1.binpack")]
            self.assertEqual(commands["train0"][3:5], files[:2])
            self.assertEqual(commands["train1"][3:6], files)
            self.assertEqual([g["positions"] for g in outcome["generations"]], [1200, 2200])

    def test_an_interrupted_material_part_appends_only_what_is_missing(self):
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaises(budget.Stopped):
                run_recipe(tmp, 1.0, [], stop_at=("material", 0.25), generations=1, extra=self.MATERIAL)
            ledger, _, _ = run_recipe(tmp, 1.0, [H0_LINE], generations=1, extra=self.MATERIAL)
            generate = [command for step, command in ledger.commands if command[1] == "generate"]
            self.assertEqual([option(c, "--loop") for c in generate], ["150", str(POSITIONS)])
            self.assertIn("--append", generate[0])
            with open(os.path.join(tmp, "data", "material.binpack")) as f:
                self.assertEqual(f.read().count("x"), 200)

    def test_a_negative_count_is_a_usage_error(self):
        captured = io.StringIO()
        with contextlib.redirect_stderr(captured), self.assertRaises(SystemExit) as caught:
            recipe.parse_args(["--budget-core-hours", "1", "--material-positions", "-1"])
        self.assertEqual(caught.exception.code, 2)
        self.assertIn("--material-positions -1: must be at least 0 (0: none)", captured.getvalue())


class Resume(unittest.TestCase):
    def test_an_interrupted_training_resumes_and_nothing_finished_runs_again(self):
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaises(budget.Stopped):
                run_recipe(tmp, 1.0, [H0_LINE], stop_at=("train1", 0.5), generations=2)
            first = run_recipe.last[2]
            self.assertEqual(steps_run(first), ["gen0", "train0", "screen0", "gen1", "train1"])
            ledger, outcome, state = run_recipe(tmp, 1.0, [H0_LINE], generations=2)
            self.assertEqual(steps_run(ledger), ["train1", "screen1"])
            train = ledger.commands[0][1]
            self.assertIn("--resume", train)
            self.assertNotIn("--init-net", train)
            # 180 + 100 + 25 (half a training) + 50 + 30: nothing counted twice, nothing lost.
            self.assertEqual(ledger.spent, 385.0)
            self.assertEqual(state["invocations"], 2)
            with open(os.path.join(tmp, recipe_report.JSON_FILE)) as f:
                self.assertEqual(json.load(f)["resumed"], 1)

    def test_an_interrupted_generation_appends_only_what_is_missing(self):
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaises(budget.Stopped):
                run_recipe(tmp, 1.0, [], stop_at=("gen0", 0.4), generations=1)
            ledger, _, _ = run_recipe(tmp, 1.0, [H0_LINE], generations=1)
            generate = [command for step, command in ledger.commands if command[1] == "generate"]
            self.assertEqual(len(generate), 1)
            self.assertEqual(option(generate[0], "--loop"), "600")
            self.assertIn("--append", generate[0])
            with open(os.path.join(tmp, "data", "gen0.done")) as f:
                self.assertEqual(json.load(f)["positions"], 1000)

    def test_a_finished_run_reruns_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            run_recipe(tmp, 1.0, [H0_LINE], generations=1)
            ledger, _, state = run_recipe(tmp, 1.0, [], generations=1, extra=["--no-final-report"])
            self.assertEqual(steps_run(ledger), [])
            self.assertEqual(state["invocations"], 2)

    def test_a_generation_file_cut_in_a_write_is_set_aside_and_played_again(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "data"))
            with open(os.path.join(tmp, "data", "gen0.binpack"), "w") as f:
                f.write("xx")

            class Damaged(FakeLedger):
                def run_child(self, step, kind, command, on_line=None, charged=True, stoppable=True):
                    if command[1] == "stats" and not any(c[1][1] == "generate" for c in self.commands):
                        self.commands.append((step, command))
                        return 1, 0.0, False
                    return super().run_child(step, kind, command, on_line, charged, stoppable)

            ledger, _, _ = run_recipe(tmp, 1.0, [H0_LINE], generations=1, ledger_class=Damaged)
            generate = [command for step, command in ledger.commands if command[1] == "generate"][0]
            self.assertEqual(option(generate, "--loop"), "1000")
            self.assertNotIn("--append", generate)
            self.assertEqual(len([n for n in os.listdir(os.path.join(tmp, "data")) if ".damaged-" in n]), 1)

    def test_a_generation_cut_by_the_budget_is_reported_and_continued_by_a_larger_budget(self):
        with tempfile.TemporaryDirectory() as tmp:
            ledger, _, _ = run_recipe(tmp, 1.0, [H0_LINE], stop_at=("gen1", 0.3, "budget"))
            self.assertEqual(steps_run(ledger), ["gen0", "train0", "screen0", "gen1"])
            with open(os.path.join(tmp, recipe_report.JSON_FILE)) as f:
                data = json.load(f)
            self.assertEqual(data["unfinished_generation"], {"generation": 1, "positions": 300, "planned": 1000})
            self.assertEqual(data["positions"], 1000)
            with open(os.path.join(tmp, recipe_report.MARKDOWN_FILE)) as f:
                self.assertIn("Generation 1 is unfinished (300 of its 1,000 positions played, kept in the data folder;",
                              f.read())
            ledger, _, _ = run_recipe(tmp, 1.0, [H0_LINE], generations=2)
            generate = [command for step, command in ledger.commands if command[1] == "generate"]
            self.assertEqual([option(generate[0], "--loop"), "--append" in generate[0]], ["700", True])
            self.assertEqual(steps_run(ledger), ["gen1", "train1", "screen1"])


class Promotion(unittest.TestCase):
    def test_parse_final(self):
        self.assertEqual(recipe.parse_final(H1_LINE), {
            "games": 20, "wins": 12, "draws": 6, "losses": 2, "failures": 0,
            "elo": 182.0, "low": 80.0, "high": 290.0, "decision": "H1"})
        swept = recipe.parse_final("final: 4 games: +0 =0 -4 (A's view), Elo -inf [-inf, -inf] (95 %), pairs [2, 0, 0, 0, 0] "
                                   "(0-2 points), SPRT 0/50 LLR 0.00 [-0.20, 0.20] undecided, failures 0")
        self.assertEqual((swept["elo"], swept["decision"]), (float("-inf"), "undecided"))
        with self.assertRaises(ValueError):
            recipe.parse_final("final: nonsense")

    def test_the_rule(self):
        base = {"failures": 0, "low": -10.0, "elo": 5.0, "games": 10, "wins": 3, "draws": 4, "losses": 3}
        self.assertTrue(recipe.promote({**base, "decision": "H1"}))
        self.assertFalse(recipe.promote({**base, "decision": "H0"}))
        self.assertFalse(recipe.promote({**base, "decision": "undecided"}))
        self.assertTrue(recipe.promote({**base, "decision": "undecided", "low": 0.5}))
        self.assertFalse(recipe.promote({**base, "decision": "H1", "failures": 1}))

    def test_a_sweep_counts_half_a_game_less(self):
        swept = {"elo": float("inf"), "games": 4, "wins": 4, "draws": 0}
        # 3.5 of 4 points: 400 log10(7).
        self.assertAlmostEqual(recipe.finite_elo(swept), 338.0392, places=4)

    def test_every_candidate_trains_from_random_weights_unless_fine_tune_is_asked(self):
        with tempfile.TemporaryDirectory() as tmp:
            ledger, outcome, _ = run_recipe(tmp, 1.0, [H1_LINE, H0_LINE], generations=2)
            commands = {step: command for step, command in ledger.commands if command[1] != "stats"}
            self.assertEqual(outcome["best"], os.path.join(tmp, "cand0.nnue"))
            self.assertNotIn("--init-net", commands["train1"])
            self.assertEqual(option(commands["train1"], "--epochs"), str(recipe.FULL["scratch_epochs"]))
            self.assertEqual(option(commands["train1"], "--lr"), str(recipe.FULL["scratch_lr"]))
            self.assertEqual(option(commands["train1"], "--lambda"), "0.5")

    def test_lambda_reaches_every_training(self):
        with tempfile.TemporaryDirectory() as tmp:
            ledger, _, _ = run_recipe(tmp, 1.0, [H1_LINE, H0_LINE], generations=2, extra=("--lambda", "0.6"))
            trainings = [command for step, command in ledger.commands if step.startswith("train")]
            self.assertEqual([option(c, "--lambda") for c in trainings], ["0.6", "0.6"])

    def test_a_promoted_net_labels_the_next_generation_and_is_fine_tuned_when_asked(self):
        with tempfile.TemporaryDirectory() as tmp:
            ledger, outcome, _ = run_recipe(tmp, 1.0, [H1_LINE, H0_LINE, H1_LINE], generations=3,
                                            extra=("--fine-tune",))
            cand0 = os.path.join(tmp, "cand0.nnue")
            commands = {step: command for step, command in ledger.commands if command[1] != "stats"}
            self.assertIn("--use-nnue", commands["gen0"])
            self.assertEqual(option(commands["gen1"], "--eval-file"), cand0)
            self.assertNotIn("--init-net", commands["train0"])
            # Every candidate skips noisy positions: from random weights too (what teaches material).
            self.assertIn("--smart-fen-skipping", commands["train0"])
            self.assertEqual(option(commands["train1"], "--init-net"), cand0)
            self.assertIn("--smart-fen-skipping", commands["train1"])
            self.assertEqual(option(commands["screen0"], "--option-b"), "Use NNUE=false")
            self.assertEqual(option(commands["screen1"], "--option-b"), f"EvalFile={cand0}")
            # Candidate 1 failed its screen: cand0 still labels generation 2 and is screened against.
            self.assertEqual(option(commands["gen2"], "--eval-file"), cand0)
            self.assertEqual(option(commands["screen2"], "--option-b"), f"EvalFile={cand0}")
            self.assertEqual(outcome["best"], os.path.join(tmp, "cand2.nnue"))
            self.assertEqual(outcome["best_elo"], 364.0)
            self.assertIn(f"final:EvalFile={outcome['best']}", ledger.commands[-1][1])


class Report(unittest.TestCase):
    def test_keys_and_values(self):
        with tempfile.TemporaryDirectory() as tmp:
            run_recipe(tmp, 1.0, [H1_LINE, H0_LINE], generations=2)
            with open(os.path.join(tmp, recipe_report.JSON_FILE)) as f:
                data = json.load(f)
            self.assertEqual(data["start"], "classical")
            self.assertEqual(data["core_hours"], 0.1)
            self.assertEqual(data["positions"], 2000)
            self.assertEqual(data["final_net"], os.path.join(tmp, "cand0.nnue"))
            self.assertEqual(data["resumed"], 0)
            self.assertEqual(data["final_report"], {"estimate": 50.0, "low": 10.0, "high": 90.0})
            self.assertEqual(data["report_core_hours"], round(7 / 3600, 4))
            self.assertEqual([(g["positions"], os.path.basename(g["net"]), g["screen"]["decision"], g["promoted"],
                               g["core_hours"], g["elo_vs_classical"]) for g in data["generations"]],
                             [(1000, "cand0.nnue", "H1", True, 0.05, 182.0),
                              (2000, "cand1.nnue", "H0", False, 0.1, 182.0)])
            with open(os.path.join(tmp, recipe_report.MARKDOWN_FILE)) as f:
                text = f.read()
            self.assertIn("| 0 | 1,000 | classical | +12 =6 -2 | +182.0 [+80.0, +290.0] | H1 | yes | 0.050 | +182.0 |", text)
            self.assertIn("**+50.0 [+10.0, +90.0]**", text)

    def test_chart_points(self):
        data = {"generations": [{"core_hours": 0.05, "elo_vs_classical": 182.0},
                                {"core_hours": 0.1, "elo_vs_classical": 182.0}]}
        self.assertEqual(recipe_report.chart_points(data), [(0.0, 0.0), (0.05, 182.0), (0.1, 182.0)])


class Folders(unittest.TestCase):
    def test_a_data_folder_of_another_run_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            data = os.path.join(tmp, "data")
            first = recipe.parse_args(["--budget-core-hours", "1", "--out-dir", os.path.join(tmp, "a"), "--data-dir", data])
            recipe.open_folders(first)
            second = recipe.parse_args(["--budget-core-hours", "1", "--out-dir", os.path.join(tmp, "b"), "--data-dir", data])
            with self.assertRaises(recipe.UsageError) as caught:
                recipe.open_folders(second)
            self.assertEqual(str(caught.exception),
                             f"--data-dir {data}: holds the data of the run in {os.path.join(tmp, 'a')}; "
                             "give that --out-dir to continue it, or another --data-dir")

    def test_a_second_recipe_on_the_same_run_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "run")
            held = recipe.lock_run(out)
            with self.assertRaises(recipe.UsageError) as caught:
                recipe.lock_run(out)
            self.assertEqual(str(caught.exception),
                             f"--out-dir {out}: another recipe is working on this run ({os.path.join(out, 'recipe.lock')} "
                             "is locked); let it finish or stop it first")
            held.close()
            recipe.lock_run(out).close()  # the lock goes with its holder

    def test_a_run_keeps_its_data_folder(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "a")
            recipe.open_folders(recipe.parse_args(["--budget-core-hours", "1", "--out-dir", out, "--data-dir", os.path.join(tmp, "d1")]))
            with self.assertRaises(recipe.UsageError) as caught:
                recipe.open_folders(recipe.parse_args(["--budget-core-hours", "1", "--out-dir", out,
                                                       "--data-dir", os.path.join(tmp, "d2")]))
            self.assertEqual(str(caught.exception),
                             f"--data-dir {os.path.join(tmp, 'd2')}: the run in {out} keeps its data in {os.path.join(tmp, 'd1')}")

    def test_bad_options_are_one_line_usage_errors(self):
        for argv, message in ((["--budget-core-hours", "0"], "--budget-core-hours 0: must be above 0"),
                              (["--budget-core-hours", "1", "--threads", "0"], "--threads 0: must be at least 1"),
                              (["--budget-core-hours", "1", "--lambda", "1.5"], "--lambda 1.5: must be between 0 and 1"),
                              ([], "--budget-core-hours is required (the run's total CPU time, in core-hours)")):
            captured = io.StringIO()
            with self.assertRaises(SystemExit) as caught, contextlib.redirect_stderr(captured):
                recipe.parse_args(argv)
            self.assertEqual(caught.exception.code, 2)
            self.assertEqual(captured.getvalue().splitlines()[-1], f"python -m nnue_scripts.recipe: error: {message}")

if __name__ == "__main__":
    unittest.main()
