#!/usr/bin/env bash
# Slurm job array: each array task generates one shard of one data set with
# `nnue-gen-sfen generate --shard I/N`; join the shards afterwards with
#   nnue-gen-sfen shuffle shards/shard-*.bin data.bin --seed "$SEED"
#
# Submit (16 shards of 10M positions each, depth 8, 8 threads per task):
#   sbatch --array=0-15 scripts/gensfen-slurm.sh
# Settings come from the environment (sbatch --export=ALL,DEPTH=6,...):
#   SEED (shared by all shards), POSITIONS (per shard), DEPTH, OUT_DIR, GENSFEN.
#
# A task that is preempted or killed can be resubmitted: it reruns its shard from
# scratch (--force), and a shard with the same seed and index is reproducible
# with --threads 1.
#SBATCH --job-name=gensfen
#SBATCH --cpus-per-task=8
#SBATCH --mem=4G
#SBATCH --time=24:00:00
#SBATCH --output=gensfen-%A_%a.log
#SBATCH --signal=B:TERM@120

set -euo pipefail

: "${SLURM_ARRAY_TASK_ID:?submit with sbatch --array=0-(N-1)}"
: "${SLURM_ARRAY_TASK_COUNT:?submit with sbatch --array=0-(N-1)}"
SEED="${SEED:-1}"
POSITIONS="${POSITIONS:-10000000}"
DEPTH="${DEPTH:-8}"
OUT_DIR="${OUT_DIR:-shards}"
GENSFEN="${GENSFEN:-nnue-gen-sfen}"
THREADS="${SLURM_CPUS_PER_TASK:-1}"

mkdir -p "$OUT_DIR"
out="$OUT_DIR/shard-$(printf '%04d' "$SLURM_ARRAY_TASK_ID").bin"

# exec: Slurm's TERM (sent 120 s before the time limit) reaches the generator,
# which stops cleanly with whole records and prints its summary.
exec "$GENSFEN" generate \
    --shard "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" \
    --seed "$SEED" \
    --loop "$POSITIONS" \
    --depth "$DEPTH" \
    --threads "$THREADS" \
    --output-file-name "$out" \
    --force
