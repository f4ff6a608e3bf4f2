"""Resumable steps of a long job: a run folder with one `<step>.done` marker per finished
step, a log of every command, and the child environment the scripts start programs in.

Shared by the pipeline (nnue_scripts.pipeline) and the recipe (nnue_scripts.recipe), so
that both resume the same way: a step whose marker exists is never run again, and a
marker is written (whole, under its final name) only once its step has finished.
"""

import json
import math
import os
import subprocess
import sys
import time

from . import common

ROOT = common.ROOT
RELEASE = common.RELEASE
# The folder that holds this package: put on the PYTHONPATH of the scripts a step starts.
PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The log every command goes to, one JSON object a line.
LOG_FILE = "log.jsonl"


def binary(name):
    """A program of target/release (nnue, nnue-gen-sfen, nnue-learn)."""
    return os.path.join(RELEASE, name)


def child_environment():
    """This environment, with this package importable by the Python it starts."""
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": PACKAGE_PARENT + (os.pathsep + path if path else "")}


def json_clean(value):
    """`value` with every infinite or NaN float as None: JSON has no such numbers (an
    Elo of a match won or lost in full is infinite)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: json_clean(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_clean(item) for item in value]
    return value


def write_json(path, value):
    """Writes `value` as JSON to `path` through a temporary file renamed into place, so
    that a run killed at any moment leaves either the old file or the new one, never half
    of one."""
    temporary = f"{path}.tmp"
    with open(temporary, "w") as f:
        json.dump(json_clean(value), f, indent=1, allow_nan=False)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(temporary, path)


def read_json(path):
    """The JSON in `path`, or None when there is no such file."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


class Run:
    """The run directory: done markers, the command log, and command execution."""

    def __init__(self, directory, program="pipeline.py"):
        self.dir = directory
        self.program = program
        os.makedirs(directory, exist_ok=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def done(self, step):
        """The finished step's record, or None when it has not finished."""
        return read_json(self.path(f"{step}.done"))

    def finish(self, step, started, **results):
        record = {"step": step, "seconds": round(time.time() - started, 1), **results}
        write_json(self.path(f"{step}.done"), record)
        self.log({"finished": step, **record})
        return record

    def log(self, entry):
        with open(self.path(LOG_FILE), "a") as f:
            f.write(json.dumps({"time": time.strftime("%Y-%m-%dT%H:%M:%S"), **entry}) + "\n")

    def execute(self, step, command, capture=False):
        self.log({"step": step, "command": command})
        print(f"[{step}] $ {' '.join(command)}", flush=True)
        result = subprocess.run(command, cwd=ROOT, env=child_environment(), text=True, capture_output=capture)
        if result.returncode != 0:
            if capture:
                sys.stderr.write(result.stdout + result.stderr)
            sys.exit(f"{self.program}: error: step {step} failed (exit {result.returncode}): {' '.join(command)}")
        return result.stdout if capture else None
