"""Checks the Slurm array scripts (scripts/gensfen-slurm.sh, scripts/gauntlet-slurm.sh)
without Slurm: each is run by bash with the variables Slurm sets for an array task and
a stand-in for the program it starts, which prints its arguments. So the shard each task
gets, and the refusals that keep a resubmitted task from taking the wrong shard, are
checked in every test run (scripts/cluster-check.sh runs them on a real Slurm)."""

import os
import stat
import subprocess
import tempfile
import unittest

from nnue_scripts import common

SCRIPTS = os.path.join(common.ROOT, "scripts")


class SlurmScriptTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.echo = os.path.join(self.dir.name, "echo-args")
        with open(self.echo, "w") as f:
            f.write('#!/bin/sh\nprintf "%s\\n" "$@"\n')
        os.chmod(self.echo, stat.S_IRWXU)

    def tearDown(self):
        self.dir.cleanup()

    def run_script(self, name, task, first, last, count, shards=None, args=(), out="out", positions=None):
        env = {"PATH": os.environ["PATH"], "SLURM_ARRAY_TASK_ID": str(task), "SLURM_ARRAY_TASK_MIN": str(first),
               "SLURM_ARRAY_TASK_MAX": str(last), "SLURM_ARRAY_TASK_COUNT": str(count),
               "GENSFEN": self.echo, "PYTHON": self.echo, "OUT_DIR": os.path.join(self.dir.name, out),
               "SLURM_CPUS_PER_TASK": "2"}
        if shards is not None:
            env["SHARDS"] = str(shards)
        if positions is not None:
            env["POSITIONS"] = str(positions)
        result = subprocess.run(["bash", os.path.join(SCRIPTS, name), *args], env=env, capture_output=True, text=True)
        return result.returncode, result.stdout.splitlines(), result.stderr.strip()

    def test_a_task_of_a_whole_array_takes_its_shard(self):
        status, words, _ = self.run_script("gensfen-slurm.sh", 3, 0, 15, 16)
        self.assertEqual(status, 0)
        self.assertEqual(words[:3], ["generate", "--shard", "3/16"])
        self.assertEqual(words[words.index("--output-file-name") + 1],
                         os.path.join(self.dir.name, "out", "shard-0003.bin"))
        self.assertEqual(words[words.index("--threads") + 1], "2")
        status, words, _ = self.run_script("gauntlet-slurm.sh", 1, 0, 3, 4, args=["--preset", "strength"])
        self.assertEqual(status, 0)
        self.assertEqual(words, ["-m", "nnue_scripts.gauntlet", "--concurrency", "2", "--preset", "strength",
                                 "--shard", "1/4"])

    def test_a_resubmitted_task_must_be_told_the_number_of_shards(self):
        for name in ("gensfen-slurm.sh", "gauntlet-slurm.sh"):
            # sbatch --array=5 and sbatch --array=0: arrays of one task.
            for task in (5, 0):
                status, words, err = self.run_script(name, task, task, task, 1)
                self.assertEqual((status, words), (2, []), name)
                self.assertEqual(err, f"{name}: error: array {task}-{task} is not 0-(N-1): give the number of "
                                      f"shards, sbatch --export=ALL,SHARDS=N")
            status, words, _ = self.run_script(name, 5, 5, 5, 1, shards=16)
            self.assertEqual(status, 0, name)
            self.assertIn("5/16", words)
        status, _, err = self.run_script("gensfen-slurm.sh", 16, 16, 16, 1, shards=16)
        self.assertEqual((status, err), (2, "gensfen-slurm.sh: error: task 16 is not a shard of 16 (SHARDS)"))
        status, _, err = self.run_script("gensfen-slurm.sh", 1, 1, 1, 1, shards="x")
        self.assertEqual((status, err), (2, "gensfen-slurm.sh: error: SHARDS='x' is not a number"))

    def test_every_task_of_a_data_set_splits_it_the_same_way(self):
        self.assertEqual(self.run_script("gensfen-slurm.sh", 0, 0, 3, 4)[0], 0)
        marker = os.path.join(self.dir.name, "out", "shards.txt")
        with open(marker) as f:
            self.assertEqual(f.read(), "shards=4 seed=1\n")
        self.assertEqual(self.run_script("gensfen-slurm.sh", 2, 2, 2, 1, shards=4)[0], 0)
        status, words, err = self.run_script("gensfen-slurm.sh", 2, 2, 2, 1, shards=8)
        self.assertEqual((status, words), (2, []))
        self.assertEqual(err, f"gensfen-slurm.sh: error: {marker} says 'shards=4 seed=1', not 'shards=8 seed=1': "
                              f"another data set is in {os.path.join(self.dir.name, 'out')}")
        self.assertEqual(sorted(os.listdir(os.path.dirname(marker))), ["shards.txt"])

    def test_a_stopped_shard_keeps_its_records_and_continues_under_its_own_seed(self):
        out = os.path.join(self.dir.name, "out")
        shard = os.path.join(out, "shard-0002.bin")
        status, words, _ = self.run_script("gensfen-slurm.sh", 2, 0, 3, 4, positions=12)
        self.assertEqual(status, 0)
        self.assertEqual([words[words.index(o) + 1] for o in ("--seed", "--loop")], ["1", "12"])
        self.assertEqual(words[-1], "--force")
        with open(shard, "wb") as f:
            f.write(b"r" * 40 * 5 + b"xyz")  # 5 records and the start of a sixth
        status, words, err = self.run_script("gensfen-slurm.sh", 2, 0, 3, 4, positions=12)
        self.assertEqual(status, 0)
        self.assertEqual(err, f"gensfen-slurm.sh: {shard}: dropping a partial last record (3 bytes)")
        self.assertEqual(os.path.getsize(shard), 200)
        self.assertEqual(words[0], f"gensfen-slurm.sh: {shard} holds 5 records: generating the other 7 with seed 1+5")
        self.assertEqual([words[words.index(o) + 1] for o in ("--shard", "--seed", "--loop")], ["2/4", "1+5", "7"])
        self.assertEqual(words[-1], "--append")
        with open(shard, "ab") as f:
            f.write(b"r" * 40 * 7)
        status, words, err = self.run_script("gensfen-slurm.sh", 2, 0, 3, 4, positions=12)
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(words, [f"gensfen-slurm.sh: {shard} already holds 12 records (POSITIONS=12): nothing to do"])

    def test_not_an_array_task(self):
        result = subprocess.run(["bash", os.path.join(SCRIPTS, "gauntlet-slurm.sh")], env={"PATH": os.environ["PATH"]},
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr.strip(),
                         "gauntlet-slurm.sh: error: not an array task: submit with sbatch --array=0-(N-1)")


if __name__ == "__main__":
    unittest.main()
