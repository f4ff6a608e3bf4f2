"""Publishes a recipe run into the repository: its final net as nets/recipe-DATE.nnue and
its report as docs/results/recipe.json, recipe.md and recipe.png.

    python -m nnue_scripts.recipe_publish RUN [--date YYYY-MM-DD] [--unfinished]

The run folder's report names files by their paths on the machine that ran it; the
published report names the net by its path in the repository and the candidates by
their names in the run folder (RUN/candK.nnue), so it reads the same on any checkout. A
run whose budget is not yet spent is refused unless --unfinished is given; then only the
report is written (marked unfinished) and no net is copied, since its best net is not
the run's final one. Every file is written whole and renamed into place; a net already
published under the same name is kept when its bytes are the same and refused otherwise,
so a published net is never silently replaced.
"""

import argparse
import datetime
import json
import os
import re
import shutil
import sys

from . import common, recipe_report, steps

PROGRAM = "recipe_publish.py"
# Where the published files go, relative to the repository root.
NETS_DIR = "nets"
RESULTS_DIR = os.path.join("docs", "results")
# The run folder's name in the published report.
RUN_NAME = "RUN"
DATE_PATTERN = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# A training step's name in RUN/log.jsonl: train<K>.
TRAIN_STEP = re.compile(r"^train(\d+)$")


class PublishError(Exception):
    """A run that cannot be published as asked: one line, exit status 2."""


def parse_args(argv=None):
    parser = argparse.ArgumentParser(prog=f"python -m nnue_scripts.{PROGRAM[:-3]}",
                                     description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("run", help="the recipe's run folder (its --out-dir), holding recipe.json")
    parser.add_argument("--date", default=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
                        help="the date in the net's name, YYYY-MM-DD (default: today, UTC)")
    parser.add_argument("--root", default=common.ROOT, help="the repository to publish into (default: this checkout)")
    parser.add_argument("--unfinished", action="store_true",
                        help="publish the report of a run whose budget is not spent yet (no net is copied)")
    return parser.parse_args(argv)


def read_report(run):
    """RUN/recipe.json as a dict."""
    path = os.path.join(run, recipe_report.JSON_FILE)
    data = common.load_json(path, PublishError, f" (is {run} a recipe's run folder?)")
    for key in ("start", "core_hours", "positions", "final_net", "generations", "budget_spent"):
        if key not in data:
            raise PublishError(f"{path}: no key {key!r} (not a recipe report)")
    return data


def log_entries(run):
    """The entries of RUN/log.jsonl, in order (none when the run has no log)."""
    path = os.path.join(run, steps.LOG_FILE)
    entries = []
    try:
        with open(path) as f:
            for number, line in enumerate(f, 1):
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise PublishError(f"{path}: line {number}: not JSON ({exc.msg})") from exc
                if isinstance(entry, dict):
                    entries.append(entry)
    except FileNotFoundError:
        pass
    return entries


def threads_by_invocation(entries):
    """--threads of each invocation, in order, from the log's start entries (a run
    continued on another machine can change it)."""
    return [entry["start"].get("threads") for entry in entries if isinstance(entry.get("start"), dict)]


def training_lambdas(entries, run):
    """Each candidate's λ (the trainer's --lambda) by generation, from the last training
    command the log (`entries`, RUN/log.jsonl's) records for it: the command is the one
    record every version of the recipe kept, and a run can change its λ part way."""
    lambdas = {}
    for entry in entries:
        step, command = entry.get("step"), entry.get("command")
        train = TRAIN_STEP.match(step) if isinstance(step, str) else None
        if train and isinstance(command, list) and "--lambda" in command:
            at = command.index("--lambda") + 1
            try:
                lambdas[int(train.group(1))] = float(command[at])
            except (IndexError, ValueError) as exc:
                raise PublishError(f"{os.path.join(run, steps.LOG_FILE)}: {step}: a training command "
                                   "without a number after --lambda") from exc
    return lambdas


def threads_text(threads, fallback):
    """The threads the run used, for the report's sentence: "2", or "2 and 16"."""
    counts = sorted({t for t in threads if isinstance(t, int)}) or [fallback]
    return " and ".join(str(t) for t in counts)


def trained_from(run, generation):
    """How candidate `generation` was trained, from RUN/train<k>.done: "random weights",
    "RUN/candJ.nnue" (fine-tuned from it), or None when the marker is missing."""
    marker = os.path.join(run, f"train{generation}.done")
    if not os.path.exists(marker):
        return None
    init_net = common.load_json(marker, PublishError).get("init_net")
    return run_path(init_net) if init_net else "random weights"


def run_path(path):
    """A file of the run folder as the published report names it (RUN/name)."""
    return None if path is None else f"{RUN_NAME}/{os.path.basename(path)}"


def copy_net(source, destination):
    """Copies the final net into nets/, keeping an identical copy and refusing to replace
    a different one."""
    if not os.path.isfile(source):
        raise PublishError(f"{source}: the run's final net is missing")
    if os.path.exists(destination):
        if common.file_sha256(destination) == common.file_sha256(source):
            return
        raise PublishError(f"{destination}: a different net is already published under this name "
                           "(choose another --date or remove it)")
    temporary = destination + ".tmp"
    shutil.copyfile(source, temporary)
    os.replace(temporary, destination)


def published_data(data, run, net_name, unfinished):
    """The report with the repository's paths: the final net in nets/ (or, unfinished,
    its name in the run folder) and each candidate as RUN/candK.nnue."""
    published = dict(data)
    best = data["final_net"]
    if best is not None and not unfinished:
        published["final_net"] = f"{NETS_DIR}/{net_name}"
        published["final_net_sha256"] = common.file_sha256(os.path.join(run, os.path.basename(best)))
    else:
        published["final_net"] = run_path(best)
    entries = log_entries(run)
    lambdas = training_lambdas(entries, run)
    published["generations"] = [dict(g, net=run_path(g.get("net")), trained_from=trained_from(run, g["generation"]),
                                     score_weight=lambdas.get(g["generation"]))
                                for g in data["generations"]]
    published["unfinished"] = unfinished
    published["threads_by_invocation"] = threads_by_invocation(entries)
    published["threads"] = threads_text(published["threads_by_invocation"], data.get("threads"))
    return published


def publish(run, root, date, unfinished=False):
    """Writes the published files; returns their paths."""
    if not DATE_PATTERN.match(date):
        raise PublishError(f"--date {date!r}: not YYYY-MM-DD")
    data = read_report(run)
    if not data["budget_spent"] and not unfinished:
        raise PublishError(f"{os.path.join(run, recipe_report.JSON_FILE)}: the run has not spent its budget "
                           f"({data['core_hours']:.3f} of {data['budget_core_hours']:g} core-hours); "
                           "finish it, or publish its report alone with --unfinished")
    if data["final_net"] is None and not unfinished:
        raise PublishError(f"{os.path.join(run, recipe_report.JSON_FILE)}: the run promoted no net: nothing to publish")
    net_name = f"recipe-{date}.nnue"
    results = os.path.join(root, RESULTS_DIR)
    os.makedirs(results, exist_ok=True)
    written = []
    if not unfinished:
        destination = os.path.join(root, NETS_DIR, net_name)
        copy_net(os.path.join(run, os.path.basename(data["final_net"])), destination)
        written.append(destination)
    published = published_data(data, run, net_name, unfinished)
    chart = os.path.join(results, recipe_report.CHART_FILE)
    note = recipe_report.draw_chart(published, chart)
    published["chart"] = note or recipe_report.CHART_FILE
    json_path = os.path.join(results, recipe_report.JSON_FILE)
    steps.write_json(json_path, published)
    markdown_path = os.path.join(results, recipe_report.MARKDOWN_FILE)
    recipe_report.write_markdown(markdown_path, published)
    written += [json_path, markdown_path] + ([] if note else [chart])
    return written


def main(argv=None):
    args = parse_args(argv)
    try:
        written = publish(args.run, args.root, args.date, args.unfinished)
    except PublishError as exc:
        print(f"{PROGRAM}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"{PROGRAM}: error: {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
