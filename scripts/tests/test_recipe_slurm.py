"""Checks the recipe's generation as a Slurm array (nnue_scripts.slurm_generation)
without Slurm: a stand-in for sbatch/squeue/scancel runs the real
scripts/gensfen-slurm.sh for each task of a submitted array, with a stand-in generator
whose records name their seed, shard and game (so a game played twice shows as a
duplicate to nnue_scripts.shard_data, which runs for real). The ledger is the real one:
the CPU time booked is what the tasks' CPU-time files and the join's programs measured.
scripts/cluster-check.sh runs the same code on a real Slurm."""

import contextlib
import io
import os
import stat
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

from nnue_scripts import budget, recipe, slurm_generation, steps

# A stand-in nnue-gen-sfen: `generate` writes --loop records in games of 4 (each record
# a digest of seed, shard and game, then its ply; FAKE_STOP_AFTER=N stops it after N
# records with exit status 143, as a cancelled task's generator ends), `convert`
# copies bytes (appending with --append), `stats` counts 40-byte records. Every
# `generate` command is logged to FAKE_LOG.
FAKE_GENSFEN = r'''
import hashlib, os, sys
args = sys.argv[1:]
def opt(name):
    return args[args.index(name) + 1]
if args[0] == "generate":
    with open(os.environ["FAKE_LOG"], "a") as f:
        f.write(" ".join(args) + "\n")
    loop, out = int(opt("--loop")), opt("--output-file-name")
    n = min(loop, int(os.environ.get("FAKE_STOP_AFTER", loop)))
    with open(out, "ab") as f:
        for j in range(n):
            game = hashlib.sha256(f"{opt('--seed')}|{opt('--shard')}|{j // 4}".encode()).digest()
            f.write(game + bytes(4) + (j % 4).to_bytes(2, "little") + bytes(2))
    sys.exit(143 if n < loop else 0)
elif args[0] == "convert":
    with open(args[1], "rb") as f:
        data = f.read()
    with open(args[2], "ab" if "--append" in args else "wb") as f:
        f.write(data)
elif args[0] == "stats":
    print(f"records: {os.path.getsize(args[1]) // 40}")
'''


class FakeSlurm:
    """sbatch, squeue and scancel: `submit` runs the script for each task of the array
    at once (with `task_env(i)` added to task i's environment); `live` answers from
    `running`, a list of answers popped one a call (then: nothing runs); `cancel`
    records the call and ends every running task."""

    def __init__(self):
        self.cpu_seconds = 0.0
        self.submitted, self.cancelled, self.running = [], 0, []
        self.task_env = lambda i: {}

    def submit(self, command, env):
        array = next(word for word in command if word.startswith("--array="))[len("--array="):]
        job = str(100 + len(self.submitted))
        self.submitted.append([int(i) for i in array.split(",")])
        output = next(word for word in command if word.startswith("--output="))[len("--output="):]
        for i in self.submitted[-1]:
            task = {**env, "SLURM_ARRAY_JOB_ID": job, "SLURM_ARRAY_TASK_ID": str(i), "SLURM_ARRAY_TASK_MIN": str(i),
                    "SLURM_ARRAY_TASK_MAX": str(i), "SLURM_ARRAY_TASK_COUNT": "1", **self.task_env(i)}
            with open(output.replace("%A", job).replace("%a", str(i)), "w") as log:
                subprocess.run(["bash", command[-1]], env=task, stdout=log, stderr=subprocess.STDOUT, check=False)
        return job

    def live(self, name):
        return self.running.pop(0) if self.running else []

    def cancel(self, name):
        self.cancelled += 1
        self.running = []


class SlurmGeneration(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.fake = os.path.join(self.tmp.name, "nnue-gen-sfen")
        with open(self.fake, "w") as f:
            f.write(f"#!{sys.executable} -S\n{FAKE_GENSFEN}")
        os.chmod(self.fake, stat.S_IRWXU)
        self.generate_log = os.path.join(self.tmp.name, "generate.log")
        os.environ["FAKE_LOG"] = self.generate_log
        self.addCleanup(os.environ.pop, "FAKE_LOG", None)
        patches = [mock.patch.object(steps, "binary", lambda name: self.fake),
                   mock.patch.object(slurm_generation, "POLL_SECONDS", 0.01),
                   contextlib.redirect_stdout(io.StringIO())]
        for patch in patches:
            patch.__enter__()
            self.addCleanup(patch.__exit__, None, None, None)
        self.out = os.path.join(self.tmp.name, "run")
        self.data = os.path.join(self.out, "data")
        self.slurm = FakeSlurm()

    def tearDown(self):
        self.tmp.cleanup()

    def recipe(self, hours=1.0, shards=2):
        args = recipe.parse_args(["--small", "--budget-core-hours", str(hours), "--out-dir", self.out,
                                  "--positions", "10", "--slurm-shards", str(shards), "--no-build",
                                  "--slurm-args", "--partition=check --cpus-per-task=1"])
        run, _ = recipe.open_folders(args)
        the_recipe = recipe.Recipe(args, run, budget.Ledger(run, hours, show=lambda text: None))
        the_recipe.slurm = self.slurm
        return the_recipe

    def shards_folder(self):
        return os.path.join(self.data, "gen0-shards")

    def generated(self):
        with open(self.generate_log) as f:
            return [line.split() for line in f]

    def cpu_lines(self):
        lines = []
        for i in (0, 1):
            path = os.path.join(self.shards_folder(), f"shard-000{i}.cpu")
            if os.path.exists(path):
                with open(path) as f:
                    lines += [(i, *line.split()) for line in f]
        return lines

    def test_shards_are_played_joined_checked_and_booked(self):
        the_recipe = self.recipe()
        marker = the_recipe.generate(0, 10, None)
        self.assertEqual(self.slurm.submitted, [[0, 1]])
        # 10 positions in 2 shards of 5, in 2 games each (4 + 1 records).
        self.assertEqual(marker["positions"], 10)
        self.assertEqual(marker["slurm"]["check"], f"2 shards, 4 games, none repeated; "
                                                   f"{self.shards_folder()}/joined-check.bin holds exactly their 10 records")
        self.assertEqual(marker["file"], os.path.join(self.data, "gen0.binpack"))
        self.assertEqual(os.path.getsize(marker["file"]), 400)
        # The classical evaluation, the recipe's generation options, the seed of the generation.
        for words, shard in zip(self.generated(), ("0/2", "1/2")):
            self.assertEqual(words[words.index("--shard") + 1], shard)
            self.assertEqual(words[words.index("--seed") + 1], "recipe-gen0")
            self.assertEqual(words[words.index("--use-nnue") + 1], "false")
            self.assertNotIn("--eval-file", words)
            self.assertEqual(words[words.index("--opening-check-depth") + 1], "2")
            self.assertEqual(words[words.index("--adjudicate-draw") + 1], "10:10:40")
        # Booked: exactly the tasks' measured lines, then the join's programs on top.
        tasks = sum(float(line[1]) for line in self.cpu_lines())
        self.assertEqual([line[2:4] for line in self.cpu_lines()], [("0", "0"), ("0", "0")])
        self.assertEqual(the_recipe.ledger.measured, {"gen0-slurm-tasks": round(tasks, 3)})
        self.assertGreater(the_recipe.ledger.step_seconds("gen0"), tasks)
        self.assertEqual(marker["cpu_seconds"], round(the_recipe.ledger.step_seconds("gen0"), 1))
        # The shards are gone once joined; their CPU-time files and logs stay.
        self.assertEqual(sorted(name for name in os.listdir(self.shards_folder()) if name.startswith("shard-")),
                         ["shard-0000.cpu", "shard-0001.cpu"])

    def test_a_cut_shard_is_resubmitted_alone_and_continued_with_new_games(self):
        the_recipe = self.recipe()
        # Task 1's generator is cancelled after 3 records in the first submission.
        self.slurm.task_env = lambda i: {"FAKE_STOP_AFTER": "3"} if i == 1 and not os.path.exists(
            os.path.join(self.shards_folder(), "shard-0001.bin")) else {}
        marker = the_recipe.generate(0, 10, "/nets/cand0.nnue")
        self.assertEqual(self.slurm.submitted, [[0, 1], [1]])
        continued = self.generated()[-1]
        self.assertEqual([continued[continued.index(o) + 1] for o in ("--shard", "--seed", "--loop")],
                         ["1/2", "recipe-gen0+3", "2"])
        self.assertEqual(continued[continued.index("--eval-file") + 1], "/nets/cand0.nnue")
        self.assertNotIn("--use-nnue", continued)
        self.assertEqual(marker["positions"], 10)
        self.assertTrue(marker["slurm"]["check"].startswith("2 shards, 4 games, none repeated"))
        self.assertEqual(sorted((line[0], line[3]) for line in self.cpu_lines()), [(0, "0"), (1, "0"), (1, "143")])

    def test_a_restart_waits_for_the_running_array_and_submits_nothing_again(self):
        the_recipe = self.recipe()
        self.slurm.task_env = lambda i: {"FAKE_STOP_AFTER": "0"} if i == 1 else {}
        # A first invocation: shard 1's task ends at once without a record, shard 0's
        # is whole; the recipe fails, saying which shard and why.
        with self.assertRaisesRegex(slurm_generation.SlurmError, "shards 1 gained no records in their last submission; "
                                                                 "slurm-101_1.log: \\(empty\\)"):
            the_recipe.generate(0, 10, None)
        # Shard 1 is then played by a task still running when the recipe starts again
        # (an earlier submission): the recipe waits for it and submits nothing.
        self.slurm.task_env = lambda i: {}
        self.slurm.submitted = []
        generation = slurm_generation.SlurmGeneration(the_recipe, 0, self.slurm)
        plan = steps.read_json(os.path.join(self.shards_folder(), slurm_generation.PLAN_FILE))
        self.slurm.submit(["sbatch", "--array=1", f"--output={self.shards_folder()}/slurm-%A_%a.log",
                           slurm_generation.SCRIPT], generation.environment(plan)[1])
        self.slurm.submitted, self.slurm.running = [], [["103_1"], ["103_1"]]
        marker = self.recipe().generate(0, 10, None)
        self.assertEqual((self.slurm.submitted, self.slurm.running), ([], []))
        self.assertEqual(marker["positions"], 10)

    def test_the_budget_cancels_the_array_and_books_a_task_killed_hard(self):
        the_recipe = self.recipe(hours=100 / budget.CORE_HOUR)
        os.makedirs(self.shards_folder())
        # A task killed hard in an earlier submission left its last CPU count: 30 s.
        with open(os.path.join(self.shards_folder(), "shard-0000.cpu-now"), "w") as f:
            f.write("30.00\n")
        # The array's tasks report 80 s so far while they run: 110 s, over the budget.
        original = self.slurm.submit

        def submit(command, env):
            job = original(command, env)
            with open(os.path.join(self.shards_folder(), "shard-0001.cpu-now"), "w") as f:
                f.write("80.00\n")
            self.slurm.running = [["101_1"]] * 5
            return job

        self.slurm.submit = submit
        self.slurm.task_env = lambda i: {"FAKE_STOP_AFTER": "2"}
        self.assertIsNone(the_recipe.generate(0, 10, None))
        self.assertEqual(self.slurm.cancelled, 1)
        self.assertEqual(steps.read_json(os.path.join(self.data, "gen0.progress")), {"positions": 4, "planned": 10})
        self.assertIn((0, "30.00", "?", "killed", "lost"), self.cpu_lines())
        self.assertGreaterEqual(the_recipe.ledger.measured["gen0-slurm-tasks"], 30.0)
        self.assertFalse(os.path.exists(os.path.join(self.data, "gen0.done")))

    def test_a_bad_cpu_time_line_is_an_error_naming_its_file_and_line(self):
        the_recipe = self.recipe()
        os.makedirs(self.shards_folder())
        path = os.path.join(self.shards_folder(), "shard-0001.cpu")
        with open(path, "w") as f:
            f.write("1.5 0 0 7_1\nabc 0 0 7_1\n")
        generation = slurm_generation.SlurmGeneration(the_recipe, 0, self.slurm)
        with self.assertRaises(slurm_generation.SlurmError) as raised:
            generation.finished_cpu({"shards": 2})
        self.assertEqual(str(raised.exception), f"{path}, line 2: 'abc 0 0 7_1' does not start with CPU seconds")

    def test_options_the_recipe_sets_are_refused_in_slurm_args(self):
        for words in ("--array=0-3", "--job-name x", "-J x", "--export=NONE", "-o log", "--output=x"):
            with self.assertRaisesRegex(ValueError, "is set by the recipe"):
                slurm_generation.check_slurm_args(words)
        self.assertEqual(slurm_generation.check_slurm_args('--partition=a --comment "two words"'),
                         ["--partition=a", "--comment", "two words"])


if __name__ == "__main__":
    unittest.main()
