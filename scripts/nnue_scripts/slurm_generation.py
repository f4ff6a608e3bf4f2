"""The recipe's self-play step as a Slurm job array (`recipe --slurm-shards N`).

Generation k is split into N shards played by scripts/gensfen-slurm.sh, one array task
a shard, into DIR/gen<k>-shards/shard-IIII.bin (DIR on a file system every node
shares). Once every shard holds its records, they are joined in order into
DIR/gen<k>.binpack (`nnue-gen-sfen convert`, which keeps each game's positions chained),
the join is converted back and checked against the shards (`python -m
nnue_scripts.shard_data`: no game twice, exactly the shards' records), and the
generation gets its gen<k>.done marker as a local one does. The shard files are then
removed; their CPU-time files and task logs stay.

Resuming: the plan (shards, positions a shard, seed, label) is saved in
gen<k>-shards/plan.json before the first submission and kept by every later invocation.
The array's tasks are named after the data folder and the generation, so a recipe
restarted while they run finds them (`squeue --name`) and waits for them instead of
submitting again. Afterwards it submits only the shards that are short, and the script
continues a cut shard under a seed of its own: no game is played twice.

The budget: each task appends its generator's CPU time (user + system, measured by the
task where it ran) to shard-IIII.cpu, and while it runs keeps shard-IIII.cpu-now (its
CPU time so far, from /proc). The recipe books the sum of the finished lines as
generation CPU time (Ledger.book_measured: a running total, booked once) every poll,
and cancels the array (`scancel`: the generators stop with whole games) once what is
booked and what the running tasks report reach the budget. Slurm's own accounting
(sacct) is not used: it needs accounting storage, which a minimal cluster lacks. The
CPU time of sbatch, squeue and scancel on this machine is booked too.
"""

import hashlib
import math
import os
import shlex
import signal
import subprocess
import sys
import time

from . import budget, steps

SCRIPT = os.path.join(steps.ROOT, "scripts", "gensfen-slurm.sh")
PLAN_FILE = "plan.json"
# A .bin record (the shards' format): the script counts whole records by it too.
RECORD_BYTES = 40
# How often the array's state and CPU-time files are read while it runs (seconds).
POLL_SECONDS = 2.0
# How often the tasks refresh their CPU time so far (CPU_SNAPSHOT_SECONDS of the script).
SNAPSHOT_SECONDS = 10
# squeue failures in a row before the recipe gives up on the controller.
SQUEUE_FAILURES = 30
# sbatch options the recipe sets itself, refused in --slurm-args.
RESERVED_OPTIONS = ("--array", "-a", "--job-name", "-J", "--export", "--wait", "--parsable", "--output", "-o")


class SlurmError(Exception):
    """sbatch, squeue or scancel failed, or the array's tasks made no progress."""


def check_slurm_args(text):
    """The sbatch options of --slurm-args, split as a shell would; ValueError naming
    one the recipe sets itself."""
    words = shlex.split(text or "")
    for word in words:
        name = word.split("=", 1)[0]
        short = word[:2] if word.startswith("-") and not word.startswith("--") else None
        if name in RESERVED_OPTIONS or short in RESERVED_OPTIONS:
            raise ValueError(f"--slurm-args: {word} is set by the recipe (the array, its name, log and environment)")
    return words


def short_hash(text):
    """8 hex digits of SHA-256(text): names a data folder's arrays in squeue."""
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def run_command(command, env=None):
    """Runs a short command; returns (exit status, standard output, CPU seconds)."""
    child = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output = child.stdout.read()
    child.stdout.close()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return child.returncode, output, usage.ru_utime + usage.ru_stime


class SlurmCommands:
    """sbatch, squeue and scancel, with the CPU time they used (the unit tests replace
    this class with one that runs the script itself)."""

    def __init__(self):
        self.cpu_seconds = 0.0
        self.squeue_failures = 0

    def _run(self, command, env=None):
        try:
            status, output, seconds = run_command(command, env)
        except OSError as exc:
            raise SlurmError(f"{command[0]}: {exc.strerror} (is Slurm installed here?)") from None
        self.cpu_seconds += seconds
        return status, output

    def submit(self, command, env):
        """Submits `command` (an sbatch command line); returns the job id."""
        status, output = self._run(command, env)
        if status != 0:
            raise SlurmError(f"sbatch failed (exit status {status}): {output.strip()}")
        return output.strip().split(";")[0]

    def live(self, name):
        """The ids of the array tasks named `name` still pending or running."""
        status, output = self._run(["squeue", "--noheader", f"--name={name}", "--format=%i"])
        if status != 0:
            self.squeue_failures += 1
            if self.squeue_failures >= SQUEUE_FAILURES:
                raise SlurmError(f"squeue failed {SQUEUE_FAILURES} times in a row: {output.strip()}")
            return ["unknown"]
        self.squeue_failures = 0
        return output.split()

    def cancel(self, name):
        """Cancels the tasks named `name` (Slurm sends them TERM: whole games are kept)."""
        self._run(["scancel", f"--name={name}"])


class SlurmGeneration:
    """Generation k of a recipe played by a Slurm array (see the module's text)."""

    def __init__(self, recipe, k, slurm=None):
        self.recipe, self.k = recipe, k
        self.args, self.ledger = recipe.args, recipe.ledger
        self.step = f"gen{k}"
        self.folder = recipe.data_path(f"gen{k}-shards")
        self.slurm = slurm or SlurmCommands()
        self.stop_signal = None

    # --- files ---------------------------------------------------------------------------

    def shard(self, i):
        return os.path.join(self.folder, f"shard-{i:04d}.bin")

    def records(self, i):
        path = self.shard(i)
        return os.path.getsize(path) // RECORD_BYTES if os.path.exists(path) else 0

    def cpu_files(self, plan, suffix):
        return [os.path.join(self.folder, f"shard-{i:04d}.{suffix}") for i in range(plan["shards"])]

    def finished_cpu(self, plan):
        """The CPU seconds of every finished task run: the first field of each line of
        the shards' .cpu files."""
        total = 0.0
        for path in self.cpu_files(plan, "cpu"):
            if not os.path.exists(path):
                continue
            with open(path) as f:
                for number, line in enumerate(f, 1):
                    try:
                        total += float(line.split()[0]) if line.strip() else 0.0
                    except ValueError:
                        raise SlurmError(f"{path}, line {number}: {line.strip()!r} does not start with CPU seconds") from None
        return total

    def running_cpu(self, plan):
        """The CPU seconds so far of the tasks running now (their .cpu-now files)."""
        total = 0.0
        for path in self.cpu_files(plan, "cpu-now"):
            try:
                with open(path) as f:
                    total += float(f.read().split()[0])
            except (OSError, ValueError, IndexError):
                pass  # not there, or being replaced
        return total

    def book_cpu(self, plan):
        """Books the tasks' finished CPU time not booked yet, and sbatch's, squeue's and
        scancel's."""
        self.ledger.book_measured(self.step, "generation", f"{self.step}-slurm-tasks", self.finished_cpu(plan))
        if self.slurm.cpu_seconds:
            self.ledger.book(self.step, "generation", self.slurm.cpu_seconds)
            self.slurm.cpu_seconds = 0.0

    def book_lost_tasks(self, plan):
        """A .cpu-now file left while no task runs is the last count of a task killed hard
        (SIGKILL, a node lost): it becomes a line of its .cpu file, so that its measured
        CPU time (up to its last snapshot) is booked."""
        for now, cpu in zip(self.cpu_files(plan, "cpu-now"), self.cpu_files(plan, "cpu")):
            if os.path.exists(now):
                with open(now) as f:
                    seconds = (f.read().split() or ["0"])[0]
                with open(cpu, "a") as f:
                    f.write(f"{seconds} ? killed lost\n")
                os.remove(now)

    # --- the plan and the array ----------------------------------------------------------

    def plan(self, positions, label, options):
        """The saved plan, or a new one of --slurm-shards shards for `positions`."""
        path = os.path.join(self.folder, PLAN_FILE)
        saved = steps.read_json(path)
        if saved:
            if saved["shards"] != self.args.slurm_shards:
                self.recipe.show(f"generation {self.k}: keeps its plan of {saved['shards']} Slurm shards "
                                 f"(--slurm-shards applies to generations not started yet)")
            return saved
        shards = self.args.slurm_shards
        os.makedirs(self.folder, exist_ok=True)
        plan = {"shards": shards, "per_shard": math.ceil(positions / shards), "seed": f"{self.args.seed}-gen{self.k}",
                "label": label, "depth": self.args.depth, "options": options,
                "name": f"recipe-{self.step}-{short_hash(self.args.data_dir)}"}
        steps.write_json(path, plan)
        return plan

    def environment(self, plan):
        """The script's settings, in the environment sbatch passes on (--export=ALL)."""
        settings = {
            "SHARDS": str(plan["shards"]), "SEED": plan["seed"], "POSITIONS": str(plan["per_shard"]),
            "DEPTH": str(plan["depth"]), "OUT_DIR": self.folder, "GENSFEN": steps.binary("nnue-gen-sfen"),
            "GENSFEN_OPTIONS": " ".join(plan["options"]), "CPU_SNAPSHOT_SECONDS": str(SNAPSHOT_SECONDS),
            # The classical evaluation, never the embedded net, until a net is promoted.
            "EVAL_FILE": plan["label"] or "", "USE_NNUE": "" if plan["label"] else "false",
        }
        return settings, {**steps.child_environment(), **settings}

    def submit(self, plan, missing):
        settings, env = self.environment(plan)
        command = ["sbatch", "--parsable", f"--array={','.join(str(i) for i in missing)}", f"--job-name={plan['name']}",
                   f"--output={os.path.join(self.folder, 'slurm-%A_%a.log')}", "--export=ALL",
                   *check_slurm_args(self.args.slurm_args), SCRIPT]
        self.recipe.run.log({"step": self.step, "kind": "generation", "command": command, "environment": settings})
        print(f"[{self.step}] $ {' '.join(command)}", flush=True)
        job = self.slurm.submit(command, env)
        self.recipe.run.log({"step": self.step, "submitted": job, "shards": missing})
        self.recipe.show(f"generation {self.k}: submitted shards {','.join(map(str, missing))} of {plan['shards']} "
                         f"as Slurm job {job} ({plan['per_shard']:,} positions a shard)")

    def wait(self, plan):
        """Waits until no task of the array is pending or running, booking their CPU time
        as it is reported; cancels them once the budget is spent, or on Ctrl-C or SIGTERM
        (then raises budget.Stopped once they have ended). Returns True when the budget
        stopped them."""
        previous = {sig: signal.signal(sig, self._remember) for sig in (signal.SIGINT, signal.SIGTERM)}
        by_budget = cancelled = False
        last_shown = time.monotonic()
        try:
            while self.slurm.live(plan["name"]):
                self.book_cpu(plan)
                running = self.running_cpu(plan)
                if not cancelled and (self.stop_signal or self.ledger.spent + running >= self.ledger.budget):
                    by_budget = self.stop_signal is None
                    self.recipe.show(f"[{self.step}] {'the budget is spent' if by_budget else 'stopping'}: "
                                     f"cancelling the array's tasks (scancel)")
                    self.slurm.cancel(plan["name"])
                    cancelled = True
                if time.monotonic() - last_shown >= budget.SHOW_SECONDS:
                    last_shown = time.monotonic()
                    have = sum(self.records(i) for i in range(plan["shards"]))
                    self.recipe.show(f"[{self.step}] {have:,} of {plan['shards'] * plan['per_shard']:,} positions; "
                                     f"{self.ledger.describe(running)}")
                time.sleep(POLL_SECONDS)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        self.book_cpu(plan)
        if self.stop_signal is not None:
            raise budget.Stopped(budget.EXIT_SIGINT if self.stop_signal == signal.SIGINT else budget.EXIT_SIGTERM)
        return by_budget

    def _remember(self, signum, frame):
        self.stop_signal = self.stop_signal or signum

    def failure(self, plan, missing):
        """A SlurmError naming the shards that made no progress and their logs' last lines."""
        # Oldest first (job ids do not sort as text): the last of a shard's is its latest.
        logs = sorted((name for name in os.listdir(self.folder) if name.startswith("slurm-")),
                      key=lambda name: os.path.getmtime(os.path.join(self.folder, name)))
        tails = []
        for i in missing:
            mine = [name for name in logs if name.endswith(f"_{i}.log")]
            if mine:
                with open(os.path.join(self.folder, mine[-1])) as f:
                    lines = f.read().strip().splitlines() or ["(empty)"]
                tails.append(f"{mine[-1]}: {lines[-1]}")
        return SlurmError(f"generation {self.k}: shards {','.join(map(str, missing))} gained no records in their "
                          f"last submission; " + ("; ".join(tails) or "no task log"))

    # --- the step ------------------------------------------------------------------------

    def play(self, positions, label, options):
        """Plays the generation's shards (only those short of their records); returns
        the plan when every shard is whole, or None when the budget stopped the array."""
        plan = self.plan(positions, label, options)
        self.book_cpu(plan)
        if self.slurm.live(plan["name"]):
            self.recipe.show(f"generation {self.k}: waiting for the array's tasks of an earlier invocation")
            if self.wait(plan):
                return None
        while True:
            missing = [i for i in range(plan["shards"]) if self.records(i) < plan["per_shard"]]
            if not missing:
                return plan
            if self.ledger.exhausted():
                return None
            self.book_lost_tasks(plan)
            self.book_cpu(plan)
            before = {i: self.records(i) for i in missing}
            self.submit(plan, missing)
            if self.wait(plan):
                return None
            if all(self.records(i) <= before[i] for i in missing):
                raise self.failure(plan, [i for i in missing if self.records(i) < plan["per_shard"]])

    def check_child(self, command, on_line=None):
        """Runs a program of the join (booked as generation CPU time); SlurmError when it fails."""
        lines = []

        def keep(line):
            lines.append(line)
            (on_line or print)(line)

        status, _, _ = self.ledger.run_child(self.step, "generation", command, on_line=keep, stoppable=False)
        if status != 0:
            raise SlurmError(f"generation {self.k}: {' '.join(command)} failed (exit status {status}): "
                             f"{lines[-1] if lines else ''}")
        return lines

    def join(self, plan):
        """Joins the shards in order into DIR/gen<k>.binpack (each game's positions stay
        chained) and checks the join, converted back, against them; returns
        shard_data's summary line."""
        joined = os.path.join(self.folder, "joined.binpack")
        check = os.path.join(self.folder, "joined-check.bin")
        gensfen = steps.binary("nnue-gen-sfen")
        for i in range(plan["shards"]):
            self.check_child([gensfen, "convert", self.shard(i), joined, "--append" if i else "--force"])
        self.check_child([gensfen, "convert", joined, check, "--force"])
        summary = self.check_child([sys.executable, "-m", "nnue_scripts.shard_data", check,
                                    *[self.shard(i) for i in range(plan["shards"])]])
        os.replace(joined, self.recipe.data_path(f"{self.step}.binpack"))
        os.remove(check)
        return summary[-1] if summary else ""

    def generate(self, positions, label, options):
        """The whole step: plays the shards, joins and checks them. Returns the details
        for the generation's marker ({"shards", "per_shard", "check"}) with the
        positions played, or None when the budget stopped the array (after writing
        gen<k>.progress, as a local generation does)."""
        plan = self.play(positions, label, options)
        if plan is None:
            plan = steps.read_json(os.path.join(self.folder, PLAN_FILE))
            have = sum(self.records(i) for i in range(plan["shards"]))
            steps.write_json(self.recipe.data_path(f"{self.step}.progress"),
                             {"positions": have, "planned": plan["shards"] * plan["per_shard"]})
            return None
        planned = plan["shards"] * plan["per_shard"]
        summary = self.join(plan)
        return {"shards": plan["shards"], "per_shard": plan["per_shard"], "planned": planned, "check": summary,
                "job_name": plan["name"]}

    def clean(self):
        """Removes the shard files once the generation is done (its .binpack holds them)."""
        for name in os.listdir(self.folder):
            if name.startswith("shard-") and name.endswith(".bin"):
                os.remove(os.path.join(self.folder, name))
