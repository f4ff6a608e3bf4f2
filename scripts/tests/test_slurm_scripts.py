"""Checks the Slurm array scripts (scripts/gensfen-slurm.sh, scripts/gauntlet-slurm.sh)
without Slurm: each is run by bash with the variables Slurm sets for an array task and
a stand-in for the program it starts, which prints its arguments. So the shard each task
gets, and the refusals that keep a resubmitted task from taking the wrong shard, are
checked in every test run (scripts/cluster-check.sh runs them on a real Slurm)."""

import os
import signal
import stat
import subprocess
import sys
import tempfile
import time
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

    def run_script(self, name, task, first, last, count, shards=None, args=(), out="out", positions=None, env=None):
        extra, env = env or {}, {"PATH": os.environ["PATH"], "SLURM_ARRAY_TASK_ID": str(task), "SLURM_ARRAY_TASK_MIN": str(first),
               "SLURM_ARRAY_TASK_MAX": str(last), "SLURM_ARRAY_TASK_COUNT": str(count),
               "GENSFEN": self.echo, "PYTHON": self.echo, "OUT_DIR": os.path.join(self.dir.name, out),
               "SLURM_CPUS_PER_TASK": "2"}
        if shards is not None:
            env["SHARDS"] = str(shards)
        if positions is not None:
            env["POSITIONS"] = str(positions)
        env.update(extra)
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
        # The refused task wrote nothing: the CPU-time files are those of tasks 0 and 2.
        self.assertEqual(sorted(os.listdir(os.path.dirname(marker))),
                         ["shard-0000.cpu", "shard-0002.cpu", "shards.txt"])

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

    def test_the_generation_settings_reach_the_generator(self):
        env = {"EVAL_FILE": "/nets/best net.nnue", "USE_NNUE": "false",
               "GENSFEN_OPTIONS": "--random-opening-plies 8-9  --adjudicate-win 1000:8"}
        status, words, _ = self.run_script("gensfen-slurm.sh", 1, 0, 1, 2, env=env)
        self.assertEqual(status, 0)
        out = os.path.join(self.dir.name, "out", "shard-0001.bin")
        self.assertEqual(words, ["generate", "--shard", "1/2", "--seed", "1", "--loop", "10000000", "--depth", "8",
                                 "--threads", "2", "--random-opening-plies", "8-9", "--adjudicate-win", "1000:8",
                                 "--eval-file", "/nets/best net.nnue", "--use-nnue", "false",
                                 "--output-file-name", out, "--force"])

    def fake_generator(self, body):
        """A stand-in generator: a Python program running `body` (its output path in `out`)."""
        path = os.path.join(self.dir.name, "fake-gensfen")
        with open(path, "w") as f:
            f.write(f"#!{sys.executable}\nimport signal, sys, time\nout = sys.argv[sys.argv.index('--output-file-name') + 1]\n"
                    f"{body}\n")
        os.chmod(path, stat.S_IRWXU)
        return path

    def test_each_run_of_a_task_appends_its_measured_cpu_time(self):
        # Burns 0.1 s of CPU time, then writes 3 records.
        generator = self.fake_generator(
            "start = time.process_time()\nwhile time.process_time() - start < 0.1:\n    pass\n"
            "open(out, 'ab').write(bytes(120))")
        env = {"GENSFEN": generator, "SLURM_ARRAY_JOB_ID": "77", "CPU_SNAPSHOT_SECONDS": "0.05"}
        status, _, err = self.run_script("gensfen-slurm.sh", 0, 0, 1, 2, positions=5, env=env)
        self.assertEqual((status, err), (0, ""))
        cpu = os.path.join(self.dir.name, "out", "shard-0000.cpu")
        status, _, _ = self.run_script("gensfen-slurm.sh", 0, 0, 1, 2, positions=5, env=env)
        self.assertEqual(status, 0)
        with open(cpu) as f:
            lines = [line.split() for line in f]
        # One line a run: seconds, records before it, its exit status, the task.
        self.assertEqual([line[1:] for line in lines], [["0", "0", "77_0"], ["3", "0", "77_0"]])
        for line in lines:
            self.assertGreaterEqual(float(line[0]), 0.1)
            self.assertLess(float(line[0]), 5.0)
        # The running count is gone once the line is written.
        self.assertFalse(os.path.exists(cpu + "-now"))

    def test_a_stopped_task_passes_term_on_and_keeps_its_exit_status(self):
        # Writes a record, then waits for TERM, writes one more and exits as the generator does.
        generator = self.fake_generator(
            "def stop(*_):\n    open(out, 'ab').write(bytes(40))\n    sys.exit(143)\n"
            "signal.signal(signal.SIGTERM, stop)\nopen(out, 'ab').write(bytes(40))\ntime.sleep(30)")
        env = {**os.environ, "SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "1",
               "SLURM_ARRAY_TASK_COUNT": "2", "GENSFEN": generator, "OUT_DIR": os.path.join(self.dir.name, "out"),
               "POSITIONS": "9", "CPU_SNAPSHOT_SECONDS": "0.05"}
        task = subprocess.Popen(["bash", os.path.join(SCRIPTS, "gensfen-slurm.sh")], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        shard = os.path.join(self.dir.name, "out", "shard-0001.bin")
        deadline = time.monotonic() + 20
        while not (os.path.exists(shard) and os.path.exists(shard[:-4] + ".cpu-now")):
            self.assertLess(time.monotonic(), deadline, "the stand-in generator did not start")
            time.sleep(0.05)
        task.send_signal(signal.SIGTERM)  # to the script alone, as --signal=B:TERM does
        self.assertEqual(task.wait(timeout=20), 143)
        task.stdout.close()
        task.stderr.close()
        self.assertEqual(os.path.getsize(shard), 80)
        with open(shard[:-4] + ".cpu") as f:
            self.assertEqual(f.read().split()[1:], ["0", "143", "job_1"])

    def test_not_an_array_task(self):
        result = subprocess.run(["bash", os.path.join(SCRIPTS, "gauntlet-slurm.sh")], env={"PATH": os.environ["PATH"]},
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stderr.strip(),
                         "gauntlet-slurm.sh: error: not an array task: submit with sbatch --array=0-(N-1)")


if __name__ == "__main__":
    unittest.main()
