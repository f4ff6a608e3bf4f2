"""The study's output directory: its settings (a rerun with others is refused), the
log of every command run, the records each step saves, and running a step's command.
Every other module reads and writes the directory through it, so that resuming works
the same for every step."""

import json
import os
import shlex
import subprocess
import time

from .. import adjudication, common

ROOT = common.ROOT


class StudyError(Exception):
    """A failed step or unusable saved results: one line, exit status 1."""


def settings_differences(saved, current):
    """'key: saved X, now Y' for every key whose value differs (a missing key is
    '(none)'), sorted; empty when the two agree."""
    lines = []
    for key in sorted(set(saved) | set(current)):
        old, new = saved.get(key, "(none)"), current.get(key, "(none)")
        if old != new:
            lines.append(f"{key}: saved {json.dumps(old)}, now {json.dumps(new)}")
    return lines


class Study:
    """The output directory: settings, the command log, saved steps, progress."""

    def __init__(self, directory):
        self.dir = directory
        os.makedirs(directory, exist_ok=True)

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def log(self, entry):
        with open(self.path("log.jsonl"), "a") as f:
            f.write(json.dumps({"time": time.strftime("%Y-%m-%dT%H:%M:%S"), **entry}) + "\n")

    def check_settings(self, settings):
        """Saves the settings on the first run; refuses a directory made with others."""
        path = self.path("settings.json")
        if os.path.exists(path):
            with open(path) as f:
                saved = json.load(f)
            diffs = settings_differences(saved, settings)
            if diffs:
                hint = adjudication.resume_hint(saved, settings)
                raise StudyError(f"{self.dir} holds results made with other settings ({'; '.join(diffs)}){hint}; "
                                 "use another --out-dir or delete it")
            return
        write_json(path, settings)

    def load(self, *parts, config=None):
        """A saved step's record, or None; StudyError when its config differs."""
        path = self.path(*parts)
        if not os.path.exists(path):
            return None
        with open(path) as f:
            record = json.load(f)
        if config is not None and record.get("config") != config:
            diffs = settings_differences(record.get("config") or {}, config)
            raise StudyError(f"{path} was made with other settings ({'; '.join(diffs)}); delete it or use another --out-dir")
        return record

    def run(self, step, command, stdin=None, log_file=None, echo=None):
        """Runs a command (logged first); returns its output (stdout and stderr).
        With `log_file` the output also goes there as it comes, and lines starting with
        one of `echo` are shown."""
        self.log({"step": step, "command": command})
        print(f"[{step}] $ {shlex.join(command)}", flush=True)
        started = time.time()
        proc = subprocess.Popen(command, cwd=ROOT, text=True, stdin=subprocess.PIPE if stdin else None,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if stdin:
            proc.stdin.write(stdin)
            proc.stdin.close()
        out = []
        log = open(log_file, "a") if log_file else None
        try:
            for line in proc.stdout:
                out.append(line)
                if log:
                    log.write(line)
                    log.flush()
                if echo and line.startswith(echo):
                    print(f"[{step}] {line.rstrip()}", flush=True)
        finally:
            if log:
                log.close()
        code = proc.wait()
        text = "".join(out)
        self.log({"step": step, "exit": code, "seconds": round(time.time() - started, 1)})
        if code != 0:
            tail = "".join(out[-5:]).strip()
            raise StudyError(f"step {step} failed (exit {code}): {shlex.join(command)}\n{tail}")
        return text


def write_json(path, record):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(record, f, indent=1)
    os.replace(tmp, path)
