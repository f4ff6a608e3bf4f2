#!/usr/bin/env bash
# The checks that drive the real `nnue` binary through python-chess, as GUIs and bots
# do. They are kept out of `cargo test` so that the test suite needs nothing but the
# Rust toolchain; CI (.ci/run) runs this script after the tests.
#
#   scripts/python_checks.sh            the scripts' unit tests (python -m unittest
#                                       discover -s scripts: match statistics, shared
#                                       helpers, the gauntlet's rating fit and report; no
#                                       other engine needed) and UCI conformance
#                                       (python -m nnue_scripts.uci_conformance)
#   scripts/python_checks.sh --match    and the 12-game self-play acceptance match
#   scripts/python_checks.sh --pipeline and the small end-to-end pipeline
#                                       (python -m nnue_scripts.pipeline --small: generate,
#                                       train, evaluate, play)
#   scripts/python_checks.sh --recipe   and the small recipe (python -m nnue_scripts.recipe
#                                       --small: self-play from the classical evaluation,
#                                       training, SPRT screens, a stand-in strength report),
#                                       run twice: the second run must resume and repeat nothing
#   scripts/python_checks.sh --study    and the small feature-set study
#                                       (python -m nnue_scripts.study --small: two sets and PQR on
#                                       the shipped sample, trained, measured, rated by a
#                                       few games; docs/STUDY.md)
#
# The scripts' package (scripts/pyproject.toml, nnue-scripts) and python-chess are
# installed into a virtual environment under target/ the first time (`pip install -e
# scripts`; set NNUE_PYTHON to a python3 that already has python-chess to skip that: the
# package is then taken from scripts/). The engine is built with
# `cargo build --release --bin nnue --bin nnue-learn` (and `--bin nnue-gen-sfen` too for
# --study and --pipeline).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "python_checks.sh: error: $1 (usage: scripts/python_checks.sh [--match] [--pipeline] [--recipe] [--study])" >&2
  exit 2
}

match=false
pipeline=false
study=false
recipe=false
for arg in "$@"; do
  case "$arg" in
    --match) match=true ;;
    --pipeline) pipeline=true ;;
    --study) study=true ;;
    --recipe) recipe=true ;;
    *) usage "unknown argument '$arg'" ;;
  esac
done

python="${NNUE_PYTHON:-}"
if [ -z "$python" ]; then
  venv=target/python-checks-venv
  # An editable install: the venv runs the package from scripts/, so edits need no reinstall.
  if ! "$venv/bin/python" -c 'import chess, nnue_scripts' 2>/dev/null; then
    echo "python_checks.sh: installing python-chess and the scripts' package into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --editable scripts
  fi
  python="$venv/bin/python"
else
  export PYTHONPATH="$PWD/scripts${PYTHONPATH:+:$PYTHONPATH}"
fi

if $study || $pipeline || $recipe; then
  # The unit tests' end-to-end cases (external games) need the generator as well.
  cargo build --release --bin nnue --bin nnue-learn --bin nnue-gen-sfen
else
  # nnue-learn for the raw-net check (a net trained, exported raw, compared with nnue).
  cargo build --release --bin nnue --bin nnue-learn
fi
engine=target/release/nnue

"$python" -m unittest discover --start-directory scripts
"$python" -m nnue_scripts.uci_conformance "$engine"

if $match; then
  # Acceptance match: no illegal move, crash or time forfeit in 12 self-play games (20
  # until the suite neared its 10 minutes: they took 150 s, a quarter of CI). A game both
  # sides score within 10 cp for 8 moves each after move 40 is adjudicated a draw, since
  # self-play draws shuffle on to move 80 and beyond.
  "$python" -m nnue_scripts.match --engine "$engine" --games 12 --tc 1+0.1 --concurrency 2 --draw-moves 8
fi

if $pipeline; then
  # Generate a few thousand positions, train a short run, check that the engine loads
  # the net and that its evaluations correlate with the training scores, play two games.
  rm -rf target/pipeline-small
  "$python" -m nnue_scripts.pipeline --small --run-dir target/pipeline-small
fi

if $recipe; then
  # Two generations of a few thousand positions each, two tiny trainings, SPRT screens of
  # a few 300-node games and the stand-in report (seconds). The same command again must
  # find every step done: no generation, training or screen runs twice.
  rm -rf target/recipe-small
  "$python" -m nnue_scripts.recipe --small --no-build
  "$python" -m nnue_scripts.recipe --small --no-build
  "$python" - <<'PY'
import json, sys
runs, invocation = {}, 0
for line in open("target/recipe-small/log.jsonl"):
    entry = json.loads(line)
    invocation = entry.get("invocation", invocation)
    if "command" in entry and entry.get("kind") in ("generation", "training", "screen"):
        runs.setdefault(invocation, []).append(entry["step"])
report = json.load(open("target/recipe-small/recipe.json"))
if report["resumed"] != 1 or 2 in runs or len(report["generations"]) != 2:
    sys.exit(f"python_checks.sh: the small recipe's second run repeated work or lost count: {runs}, resumed {report['resumed']}")
PY
fi

if $study; then
  # Train All and All+H+V on the shipped sample (2 epochs), measure their features and
  # search speed, play 4 games a condition (300 nodes, 50 ms a move), rate them, write
  # the table, JSON and chart: the study's whole path in seconds (says nothing about strength).
  rm -rf target/study-small
  "$python" -m nnue_scripts.study --small --no-build --out-dir target/study-small
  # The report of a finished run, written again from the saved steps alone: it must list
  # every pairing's games and no note of a run in progress.
  "$python" -m nnue_scripts.study --small --no-build --out-dir target/study-small --report-only \
    > target/study-small/report-only.txt
  if grep -q "a run in progress" target/study-small/report-only.txt; then
    echo "python_checks.sh: study --report-only calls the finished small run unfinished" >&2
    exit 1
  fi
fi
