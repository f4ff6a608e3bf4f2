#!/usr/bin/env bash
# Generation speed matrix for docs/BENCHMARKS.md: positions/s of
# `nnue-gen-sfen generate` at depth 6, depth 8 and 5000 nodes per move, on 1 and 2
# threads, with the classical evaluation and with a HalfKP 256x2-32-32 net.
#
#   cargo build --release -p nnue-gensfen -p nnue-learner
#   ./target/release/nnue-learn random-net --out /tmp/halfkp.nnue
#   scripts/bench-gensfen.sh ./target/release/nnue-gen-sfen /tmp/halfkp.nnue
#
# Prints one markdown table row per run: wall-clock rate, CPU time and positions
# per CPU second (per-thread speed even on a busy machine), and the load average
# before the run.
set -euo pipefail

GENSFEN="${1:?usage: bench-gensfen.sh NNUE-GEN-SFEN NET.nnue}"
NET="${2:?usage: bench-gensfen.sh NNUE-GEN-SFEN NET.nnue}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

run() {
    local eval="$1" limit="$2" threads="$3" count="$4"
    shift 4
    local load
    load="$(cut -d' ' -f1 /proc/loadavg)"
    local line cpu
    # /usr/bin/time appends "CPU <user+sys seconds>" to the output.
    line="$(/usr/bin/time -f 'CPU %U %S' "$GENSFEN" generate --loop "$count" \
        --threads "$threads" --seed 1 --output-file-name "$OUT/bench.bin" --force \
        "$@" 2>&1)"
    cpu="$(grep '^CPU ' <<<"$line" | awk '{print $2 + $3}')"
    line="$(grep ' positions in ' <<<"$line")"
    # "N positions in T s (R positions/s) -> FILE"
    local rate secs
    rate="$(sed -E 's/.*\(([0-9]+) positions\/s\).*/\1/' <<<"$line")"
    secs="$(sed -E 's/.* in ([0-9.]+) s .*/\1/' <<<"$line")"
    local per_cpu
    per_cpu="$(awk -v n="$count" -v c="$cpu" 'BEGIN { printf "%.0f", n / c }')"
    echo "| $eval | $limit | $threads | $count | $secs | **$rate** | $cpu | $per_cpu | $load |"
}

echo "| evaluation | limit | threads | positions | seconds | positions/s | CPU s | positions per CPU s | load before |"
echo "|---|---|---|---|---|---|---|---|---|"
for threads in 1 2; do
    run classical "depth 6" "$threads" $((6000 * threads)) --depth 6
    run classical "depth 8" "$threads" $((2000 * threads)) --depth 8
    run classical "5000 nodes" "$threads" $((3000 * threads)) --nodes 5000
done
for threads in 1 2; do
    run "HalfKP 256 (random)" "depth 6" "$threads" $((500 * threads)) --depth 6 --eval-file "$NET"
    run "HalfKP 256 (random)" "depth 8" "$threads" $((100 * threads)) --depth 8 --eval-file "$NET"
    run "HalfKP 256 (random)" "5000 nodes" "$threads" $((1500 * threads)) --nodes 5000 --eval-file "$NET"
done
