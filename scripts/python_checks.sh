#!/usr/bin/env bash
# The checks that drive the real `nnue` binary through python-chess, as GUIs and bots
# do. They are kept out of `cargo test` so that the test suite needs nothing but the
# Rust toolchain; CI (.ci/run) runs this script after the tests.
#
#   scripts/python_checks.sh            match statistics (scripts/test_elo.py), the
#                                       gauntlet's rating fit and report (test_rating_fit.py,
#                                       test_gauntlet.py: no engines needed) and UCI
#                                       conformance (scripts/uci_conformance.py)
#   scripts/python_checks.sh --match    and the 20-game self-play acceptance match
#   scripts/python_checks.sh --pipeline and the small end-to-end pipeline (scripts/pipeline.py
#                                       --small: generate, train, evaluate, play)
#
# python-chess is installed into a virtual environment under target/ the first time
# (set NNUE_PYTHON to a python3 that already has it to skip that). The engine is
# built with `cargo build --release --bin nnue`.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "python_checks.sh: error: $1 (usage: scripts/python_checks.sh [--match] [--pipeline])" >&2
  exit 2
}

match=false
pipeline=false
for arg in "$@"; do
  case "$arg" in
    --match) match=true ;;
    --pipeline) pipeline=true ;;
    *) usage "unknown argument '$arg'" ;;
  esac
done

python="${NNUE_PYTHON:-}"
if [ -z "$python" ]; then
  venv=target/python-checks-venv
  if ! "$venv/bin/python" -c 'import chess' 2>/dev/null; then
    echo "python_checks.sh: installing python-chess into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet chess
  fi
  python="$venv/bin/python"
fi

cargo build --release --bin nnue
engine=target/release/nnue

"$python" scripts/test_elo.py
"$python" scripts/test_rating_fit.py
"$python" scripts/test_gauntlet.py
"$python" scripts/uci_conformance.py "$engine"

if $match; then
  # Acceptance match: no illegal move, crash or time forfeit in 20 self-play games.
  "$python" scripts/match.py --engine "$engine" --games 20 --tc 1+0.1 --concurrency 2
fi

if $pipeline; then
  # Generate a few thousand positions, train a short run, check that the engine loads
  # the net and that its evaluations correlate with the training scores, play two games.
  rm -rf target/pipeline-small
  "$python" scripts/pipeline.py --small --run-dir target/pipeline-small
fi
