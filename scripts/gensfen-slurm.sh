#!/usr/bin/env bash
# Slurm job array: each array task generates one shard of one data set with
# `nnue-gen-sfen generate --shard I/N` into OUT_DIR/shard-IIII.bin.
#
# Submit (16 shards of 10M positions each, depth 8, 8 threads per task):
#   sbatch --array=0-15 scripts/gensfen-slurm.sh
# Settings come from the environment (sbatch --export=ALL,DEPTH=6,...):
#   SEED (shared by all shards), POSITIONS (per shard), DEPTH, OUT_DIR, GENSFEN,
#   SHARDS (the array's size N; by default the size of an array submitted as 0-(N-1)),
#   and, each left out when unset (the generator's defaults): EVAL_FILE (label with
#   this net: --eval-file), USE_NNUE (--use-nnue VALUE; false: the classical
#   evaluation, never the embedded net), GENSFEN_OPTIONS (more generator options,
#   split at spaces, e.g. "--random-opening-plies 8-9 --adjudicate-win 1000:8"),
#   CPU_SNAPSHOT_SECONDS (default 10, below).
#
# CPU time: when the generator ends, however it ends but a hard kill, the task appends
# a line `SECONDS RECORDS_BEFORE EXIT_STATUS JOB_TASK` to OUT_DIR/shard-IIII.cpu: the
# user + system CPU time of the programs it ran (bash's `times`, the generator's
# threads included), measured where it ran. Read and summed, these lines are the
# array's CPU time without Slurm's accounting (sacct needs accounting storage). While
# the generator runs, OUT_DIR/shard-IIII.cpu-now holds its CPU time so far (from
# /proc, every CPU_SNAPSHOT_SECONDS); it is removed once the line is written, so one
# that stays is the last count of a task that was killed hard.
#
# Join the shards, then check that no game is in two shards and that the join holds
# exactly their records (python -m nnue_scripts.shard_data, in the scripts' environment):
#   nnue-gen-sfen shuffle shards/shard-*.bin data.bin --seed "$SEED"
#   python -m nnue_scripts.shard_data data.bin shards/shard-*.bin
#
# Pre-emption: Slurm's TERM (sent 120 s before the time limit, or on scancel) stops
# the generator cleanly with whole records (the script passes it on). A task that is
# requeued (--requeue) or resubmitted keeps them and generates the rest of its shard
# with the seed SEED+K (K records kept), which repeats no game of the first part or of
# another shard (a shard's streams depend on the seed and its index). A shard run in
# one go is byte for byte reproducible with --threads 1. Resubmit one task of an N-task
# array with its index and N, since a one-task array cannot know N:
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

# A shard stopped earlier (pre-empted, cancelled, out of time) keeps its whole records and
# continues with the rest under a seed of its own, SEED+K after K records, so that the
# continuation repeats neither its first part's games nor another shard's.
seed="$SEED"
mode=--force
count="$POSITIONS"
records=0
if [ -s "$out" ]; then
  size=$(stat -c %s "$out")
  records=$((size / 40))
  if [ $((records * 40)) != "$size" ]; then
    # Only a hard kill (SIGKILL, power loss) in the middle of a write leaves a partial record.
    echo "gensfen-slurm.sh: $out: dropping a partial last record ($((size - records * 40)) bytes)" >&2
    truncate -s $((records * 40)) "$out"
  fi
  if [ "$records" -ge "$POSITIONS" ]; then
    echo "gensfen-slurm.sh: $out already holds $records records (POSITIONS=$POSITIONS): nothing to do"
    exit 0
  fi
  if [ "$records" -gt 0 ]; then
    echo "gensfen-slurm.sh: $out holds $records records: generating the other $((POSITIONS - records)) with seed $SEED+$records"
    seed="$SEED+$records"
    mode=--append
    count=$((POSITIONS - records))
  fi
fi

extra=()
[ -z "${EVAL_FILE:-}" ] || extra+=(--eval-file "$EVAL_FILE")
[ -z "${USE_NNUE:-}" ] || extra+=(--use-nnue "$USE_NNUE")
read -r -a options <<<"${GENSFEN_OPTIONS:-}"
cpu_file="${out%.bin}.cpu"
snapshot_seconds="${CPU_SNAPSHOT_SECONDS:-10}"

# Writes the CPU time so far of process $1 (user + system of all its threads, from
# /proc) to $cpu_file-now every $snapshot_seconds, whole (renamed into place).
snapshot_cpu() {
  local pid="$1" ticks stat fields sleeper=
  ticks=$(getconf CLK_TCK)
  trap '[ -z "$sleeper" ] || kill "$sleeper" 2>/dev/null; exit 0' TERM
  while stat=$(cat "/proc/$pid/stat" 2>/dev/null); do
    # After the command's ")": state, ppid, ..., utime (the 12th), stime.
    read -r -a fields <<<"${stat##*) }"
    awk -v t="$((fields[11] + fields[12]))" -v hz="$ticks" 'BEGIN { printf "%.2f\n", t / hz }' >"$cpu_file-now.tmp" &&
      mv -f "$cpu_file-now.tmp" "$cpu_file-now"
    sleep "$snapshot_seconds" &
    sleeper=$!
    wait "$sleeper"
  done
}

# The generator runs as a child, not exec'd, so that the script can measure its CPU
# time when it ends; Slurm's TERM (to the script alone with --signal=B:..., to every
# process on scancel) reaches it either way: the script passes TERM and INT on as TERM
# (a second TERM does nothing more; a second INT would stop the generator at once). The
# trap is set first: a signal that comes before the generator has started stops it as
# soon as it has.
stop=
child=
trap 'stop=1; [ -z "$child" ] || kill -TERM "$child" 2>/dev/null' TERM INT
"$GENSFEN" generate \
    --shard "$SLURM_ARRAY_TASK_ID/$shards" \
    --seed "$seed" \
    --loop "$count" \
    --depth "$DEPTH" \
    --threads "$THREADS" \
    "${options[@]}" \
    "${extra[@]}" \
    --output-file-name "$out" \
    "$mode" &
child=$!
[ -z "$stop" ] || kill -TERM "$child" 2>/dev/null
snapshot_cpu "$child" &
snapshot=$!
while :; do
  status=0
  wait "$child" || status=$?
  # A trapped signal ends `wait` early (status > 128) while the generator still runs.
  kill -0 "$child" 2>/dev/null || break
done
trap - TERM INT
kill "$snapshot" 2>/dev/null || true
wait "$snapshot" 2>/dev/null || true
# `times` in this shell (not a subshell, whose counts start at 0): the second line is
# the user and system time of the children it waited for, e.g. "1m2.500s 0m0.250s".
times >"$cpu_file.times"
seconds=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { gsub(",", ".", $i); split($i, t, "m"); sub("s", "", t[2]);
                                                   s += t[1] * 60 + t[2] } printf "%.3f", s }' "$cpu_file.times")
rm -f "$cpu_file.times"
echo "$seconds $records $status ${SLURM_ARRAY_JOB_ID:-job}_$SLURM_ARRAY_TASK_ID" >>"$cpu_file"
# (.tmp: a snapshot stopped between writing and renaming.)
rm -f "$cpu_file-now" "$cpu_file-now.tmp"
exit "$status"
