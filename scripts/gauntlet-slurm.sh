#!/usr/bin/env bash
# Slurm job array: the tasks of an N-task array play one gauntlet together, task I
# playing shard I/N of its games (python -m nnue_scripts.gauntlet --shard I/N; the
# rule and the files are in nnue_scripts.shards) into one --out-dir on a shared file
# system. The task that finds every game saved writes OUT_DIR/gauntlet.md and .json,
# the report an unsplit run of the same games writes.
#
# Submit the strength report as 8 tasks of 2 cores (run where the scripts' Python
# environment is active and the engines are installed on every node; the arguments
# after the script are the gauntlet's):
#   sbatch --array=0-7 scripts/gauntlet-slurm.sh --preset strength --out-dir "$PWD/target/strength"
# Settings from the environment (sbatch --export=ALL,...): PYTHON (default python3),
# SHARDS (the array's size N; by default the size of an array submitted as 0-(N-1)).
# Each task plays --concurrency games at once, by default its --cpus-per-task.
#
# Pre-emption: with --requeue and --signal, Slurm sends TERM before it stops a task; the
# gauntlet stops as on Ctrl-C, keeping every finished game. A requeued or resubmitted
# task plays only its games that are not saved. Resubmit one task of an N-task array
# with its index and N (a one-task array cannot know N):
#   sbatch --array=5 --export=ALL,SHARDS=8 scripts/gauntlet-slurm.sh --preset strength --out-dir ...
# A report from the games saved so far, or once the tasks are done:
#   python -m nnue_scripts.gauntlet --preset strength --out-dir ... --report-only
#SBATCH --job-name=gauntlet
#SBATCH --cpus-per-task=2
#SBATCH --mem=2G
#SBATCH --time=12:00:00
#SBATCH --output=gauntlet-%A_%a.log
#SBATCH --requeue
#SBATCH --signal=B:TERM@60

set -euo pipefail

fail() {
  echo "gauntlet-slurm.sh: error: $1" >&2
  exit 2
}

[ -n "${SLURM_ARRAY_TASK_ID:-}" ] || fail "not an array task: submit with sbatch --array=0-(N-1)"
# N: SHARDS, or the size of an array that is exactly 0..N-1 with N > 1. A task resubmitted
# alone (sbatch --array=5) is an array of one: taking N = 1 from it would make it play
# every game, so it must be told SHARDS.
if [ -n "${SHARDS:-}" ]; then
  shards="$SHARDS"
elif [ "${SLURM_ARRAY_TASK_MIN:-}" = 0 ] && [ "${SLURM_ARRAY_TASK_COUNT:-0}" -gt 1 ] &&
     [ "${SLURM_ARRAY_TASK_MAX:-}" = "$((SLURM_ARRAY_TASK_COUNT - 1))" ]; then
  shards="$SLURM_ARRAY_TASK_COUNT"
else
  fail "array ${SLURM_ARRAY_TASK_MIN:-?}-${SLURM_ARRAY_TASK_MAX:-?} is not 0-(N-1): give the number of shards, sbatch --export=ALL,SHARDS=N"
fi
PYTHON="${PYTHON:-python3}"

# exec: Slurm's TERM reaches the gauntlet itself. Options after "$@" are the task's
# own; --concurrency before it, so that an explicit one wins.
exec "$PYTHON" -m nnue_scripts.gauntlet --concurrency "${SLURM_CPUS_PER_TASK:-1}" "$@" \
    --shard "$SLURM_ARRAY_TASK_ID/$shards"
