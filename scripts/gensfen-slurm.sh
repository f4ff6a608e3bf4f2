#!/usr/bin/env bash
# Slurm job array: each array task generates one shard of one data set with
# `nnue-gen-sfen generate --shard I/N` into OUT_DIR/shard-IIII.bin.
#
# Submit (16 shards of 10M positions each, depth 8, 8 threads per task):
#   sbatch --array=0-15 scripts/gensfen-slurm.sh
# Settings come from the environment (sbatch --export=ALL,DEPTH=6,...):
#   SEED (shared by all shards), POSITIONS (per shard), DEPTH, OUT_DIR, GENSFEN,
#   SHARDS (the array's size N; by default the size of an array submitted as 0-(N-1)).
#
# Join the shards, then check that no game is in two shards and that the join holds
# exactly their records (python -m nnue_scripts.shard_data, in the scripts' environment):
#   nnue-gen-sfen shuffle shards/shard-*.bin data.bin --seed "$SEED"
#   python -m nnue_scripts.shard_data data.bin shards/shard-*.bin
#
# Pre-emption: Slurm's TERM (sent 120 s before the time limit, or on scancel) stops
# the generator cleanly with whole records. A task that is requeued (--requeue) or
# resubmitted reruns its shard from scratch (--force): the shard's seed depends only on
# SEED and the index, so it never repeats another shard's games, and with --threads 1
# it is byte for byte the same. Resubmit one task of an N-task array with its index and
# N, since a one-task array cannot know N:
#   sbatch --array=5 --export=ALL,SHARDS=16 scripts/gensfen-slurm.sh
#SBATCH --job-name=gensfen
#SBATCH --cpus-per-task=8
#SBATCH --mem=4G
#SBATCH --time=24:00:00
#SBATCH --output=gensfen-%A_%a.log
#SBATCH --requeue
#SBATCH --signal=B:TERM@120

set -euo pipefail

fail() {
  echo "gensfen-slurm.sh: error: $1" >&2
  exit 2
}

[ -n "${SLURM_ARRAY_TASK_ID:-}" ] || fail "not an array task: submit with sbatch --array=0-(N-1)"
# N: SHARDS, or the size of an array that is exactly 0..N-1 with N > 1. A task resubmitted
# alone (sbatch --array=5) is an array of one, which says nothing of N: it must be told
# SHARDS.
if [ -n "${SHARDS:-}" ]; then
  shards="$SHARDS"
elif [ "${SLURM_ARRAY_TASK_MIN:-}" = 0 ] && [ "${SLURM_ARRAY_TASK_COUNT:-0}" -gt 1 ] &&
     [ "${SLURM_ARRAY_TASK_MAX:-}" = "$((SLURM_ARRAY_TASK_COUNT - 1))" ]; then
  shards="$SLURM_ARRAY_TASK_COUNT"
else
  fail "array ${SLURM_ARRAY_TASK_MIN:-?}-${SLURM_ARRAY_TASK_MAX:-?} is not 0-(N-1): give the number of shards, sbatch --export=ALL,SHARDS=N"
fi
case "$shards" in
  '' | *[!0-9]*) fail "SHARDS='$shards' is not a number" ;;
esac
[ "$SLURM_ARRAY_TASK_ID" -lt "$shards" ] || fail "task $SLURM_ARRAY_TASK_ID is not a shard of $shards (SHARDS)"
SEED="${SEED:-1}"
POSITIONS="${POSITIONS:-10000000}"
DEPTH="${DEPTH:-8}"
OUT_DIR="${OUT_DIR:-shards}"
GENSFEN="${GENSFEN:-nnue-gen-sfen}"
THREADS="${SLURM_CPUS_PER_TASK:-1}"

mkdir -p "$OUT_DIR"
# Every task of one data set must split it the same way: the first task records N and SEED.
marker="$OUT_DIR/shards.txt"
tmp="$OUT_DIR/.shards.$SLURM_ARRAY_TASK_ID.$$"
echo "shards=$shards seed=$SEED" >"$tmp"
if ! ln "$tmp" "$marker" 2>/dev/null && ! cmp -s "$tmp" "$marker"; then
  rm -f "$tmp"
  fail "$marker says '$(cat "$marker")', not 'shards=$shards seed=$SEED': another data set is in $OUT_DIR"
fi
rm -f "$tmp"
out="$OUT_DIR/shard-$(printf '%04d' "$SLURM_ARRAY_TASK_ID").bin"

# exec: Slurm's TERM reaches the generator, which stops cleanly with whole records
# and prints its summary.
exec "$GENSFEN" generate \
    --shard "$SLURM_ARRAY_TASK_ID/$shards" \
    --seed "$SEED" \
    --loop "$POSITIONS" \
    --depth "$DEPTH" \
    --threads "$THREADS" \
    --output-file-name "$out" \
    --force
