"""A compute budget in core-hours, counted from the measured CPU time of child processes.

Every program the recipe starts runs through `Ledger.run`: the child's CPU time (user +
system, its own and that of every descendant it waited for: the engines a match starts,
the trainer's threads) comes from `os.wait4` when it ends and is added to the ledger,
which is saved (whole, renamed into place) after every child, so the count survives
Ctrl-C, SIGTERM and a reboot. Nothing is estimated.

While a child runs, its process tree's CPU time so far is read from /proc every
POLL_SECONDS (Linux; elsewhere only the final count is kept) to show the budget being
spent, and to stop the child (SIGINT, which the generator and the trainer answer by
saving whole games or a checkpoint) once the budget is spent: a budget is a limit, not a
target, overshot only by the time the child takes to stop. The CPU time of a child that
was running when the machine went down is lost: it is the one thing not counted.
"""

import os
import signal
import subprocess
import threading
import time

from . import steps

# Seconds in a core-hour.
CORE_HOUR = 3600.0
# How often a running child's CPU time is read (seconds).
POLL_SECONDS = 1.0
# How often a progress line shows the budget while a child runs (seconds).
SHOW_SECONDS = 60.0
# Exit statuses of a program stopped by SIGINT and by SIGTERM (128 + signal).
EXIT_SIGINT, EXIT_SIGTERM = 130, 143
# The ledger's file in the run folder.
LEDGER_FILE = "budget.json"


def process_tree_cpu(root):
    """CPU seconds used so far by process `root` and its live descendants, with what
    each has already collected from descendants it waited for; None where /proc cannot
    tell (not Linux, or the process is gone)."""
    try:
        ticks = os.sysconf("SC_CLK_TCK")
        table = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rpartition(")")[2].split()
            except OSError:
                continue
            # After the command's ")": state, ppid, ..., utime (14th field of the line),
            # stime, cutime, cstime.
            table[int(entry)] = (int(fields[1]), sum(int(x) for x in fields[11:15]))
    except (OSError, ValueError, IndexError):
        return None
    if root not in table:
        return None
    total, frontier = 0, [root]
    while frontier:
        pid = frontier.pop()
        total += table[pid][1]
        frontier += [child for child, (parent, _) in table.items() if parent == pid]
    return total / ticks


class Stopped(Exception):
    """The recipe was asked to stop (Ctrl-C or SIGTERM); `status` is its exit status."""

    def __init__(self, status):
        super().__init__(f"stopped (exit status {status})")
        self.status = status


class Ledger:
    """The run's budget (core-hours) and what its children have spent, kept in
    RUN/budget.json: {"spent_core_seconds", "by_kind": {kind: seconds}}. `run` starts a
    child, stops it once the budget is spent, and books its measured CPU time."""

    def __init__(self, run, budget_core_hours, show=print, poll=POLL_SECONDS):
        self.run = run
        self.budget = budget_core_hours * CORE_HOUR
        self.show = show
        self.poll = poll
        saved = steps.read_json(run.path(LEDGER_FILE)) or {}
        self.spent = float(saved.get("spent_core_seconds", 0.0))
        self.by_kind = dict(saved.get("by_kind", {}))
        self.by_step = dict(saved.get("by_step", {}))
        # CPU time of children paid outside the budget (the final strength report).
        self.outside = float(saved.get("outside_core_seconds", 0.0))
        # Running totals of CPU time measured elsewhere (a Slurm array's tasks), by
        # source: what `book_measured` has booked of each.
        self.measured = dict(saved.get("measured", {}))
        self.stop_signal = None

    def left(self):
        """Core-seconds left (0 once spent)."""
        return max(self.budget - self.spent, 0.0)

    def exhausted(self):
        return self.spent >= self.budget

    def describe(self, extra=0.0):
        spent = (self.spent + extra) / CORE_HOUR
        left = max(self.budget - self.spent - extra, 0.0) / CORE_HOUR
        return (f"budget {spent:.3f} of {self.budget / CORE_HOUR:g} core-hours spent "
                f"({self.spent + extra:.0f} core-seconds), {left:.3f} left")

    def book(self, step, kind, seconds, charged=True):
        """Adds `seconds` of CPU time spent by `step` (a `kind` of child) and saves the
        ledger; uncharged time (the final report) is kept apart from the budget."""
        if charged:
            self.spent += seconds
            self.by_kind[kind] = round(self.by_kind.get(kind, 0.0) + seconds, 3)
            self.by_step[step] = round(self.by_step.get(step, 0.0) + seconds, 3)
        else:
            self.outside += seconds
        steps.write_json(self.run.path(LEDGER_FILE), {
            "budget_core_hours": self.budget / CORE_HOUR,
            "spent_core_seconds": round(self.spent, 3),
            "outside_core_seconds": round(self.outside, 3),
            "by_kind": self.by_kind,
            "by_step": self.by_step,
            "measured": self.measured,
        })

    def book_measured(self, step, kind, source, total):
        """Books CPU time measured outside this process tree and reported as a running
        total (the CPU-time lines a Slurm array's tasks write, summed): the part of
        `total` not yet booked under `source`. The total and the ledger are saved in
        one write, so a restarted recipe never books the same seconds twice. Returns
        the seconds booked now."""
        new = total - self.measured.get(source, 0.0)
        if new <= 0:
            return 0.0
        self.measured[source] = round(total, 3)
        self.book(step, kind, new)
        return new

    def step_seconds(self, step):
        """CPU seconds booked for `step` so far, over every invocation."""
        return self.by_step.get(step, 0.0)

    def run_child(self, step, kind, command, on_line=None, charged=True, stoppable=True):
        """Runs `command` (logged in RUN/log.jsonl), passing each line of its standard
        output to `on_line` (default: printed), and books its CPU time under `kind`
        (apart from the budget when `charged` is false: the final report). Stops it
        with SIGINT once the budget is spent (when charged and `stoppable`: a step's
        bookkeeping, such as counting what a stopped generation wrote, runs to its end). Returns (exit status,
        CPU seconds, stopped_by_budget). Raises Stopped after the child has ended when
        the recipe itself got Ctrl-C or SIGTERM (forwarded to the child)."""
        self.run.log({"step": step, "kind": kind, "command": command})
        print(f"[{step}] $ {' '.join(command)}", flush=True)
        child = subprocess.Popen(command, cwd=steps.ROOT, env=steps.child_environment(), text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, bufsize=1,
                                 # Its own session: a Ctrl-C at the terminal reaches only the recipe,
                                 # which passes it on once (a second SIGINT stops the generator at once).
                                 start_new_session=True)
        reader = threading.Thread(target=self._relay, args=(child.stdout, on_line or print), daemon=True)
        reader.start()
        previous = {sig: signal.signal(sig, self._forward(child)) for sig in (signal.SIGINT, signal.SIGTERM)}
        by_budget, last_shown = False, time.monotonic()
        try:
            while True:
                pid, status, usage = os.wait4(child.pid, os.WNOHANG)
                if pid:
                    break
                time.sleep(self.poll)
                so_far = process_tree_cpu(child.pid) or 0.0
                if charged and stoppable and not by_budget and self.spent + so_far >= self.budget:
                    by_budget = True
                    self.show(f"[{step}] the budget is spent: stopping {os.path.basename(command[0])} (SIGINT)")
                    signal_child(child.pid, signal.SIGINT)
                if time.monotonic() - last_shown >= SHOW_SECONDS:
                    last_shown = time.monotonic()
                    self.show(f"[{step}] {self.describe(so_far if charged else 0.0)}")
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        reader.join()
        child.stdout.close()
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = usage.ru_utime + usage.ru_stime
        self.book(step, kind, seconds, charged)
        self.run.log({"step": step, "kind": kind, "exit": child.returncode, "cpu_seconds": round(seconds, 3),
                      "charged": charged, "stopped_by_budget": by_budget})
        if self.stop_signal is not None:
            raise Stopped(EXIT_SIGINT if self.stop_signal == signal.SIGINT else EXIT_SIGTERM)
        return child.returncode, seconds, by_budget

    @staticmethod
    def _relay(stream, on_line):
        for line in stream:
            on_line(line.rstrip("\n"))

    def _forward(self, child):
        """A signal handler that passes Ctrl-C or SIGTERM on to the child (which saves its
        work and exits) and remembers it, so that the recipe stops once the child has."""
        def handler(signum, frame):
            self.stop_signal = signum
            signal_child(child.pid, signum)
        return handler


def signal_child(pid, signum):
    """Sends `signum` to a child that only os.wait4 reaps (Popen.send_signal would reap
    an ended child itself, and its CPU time with it); an ended child (a zombie until
    reaped) ignores it."""
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass
