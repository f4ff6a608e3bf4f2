#!/usr/bin/env bash
# Runs every cargo-fuzz target of fuzz/ for N seconds each (default 60).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Installs cargo-fuzz if it is missing. The toolchain is stable-only, so
# RUSTC_BOOTSTRAP=1 lets cargo fuzz pass its -Z sanitizer flags. CI runs the
# equivalent property tests instead: crates/core/tests/packed_proptest.rs,
# data_plain.rs, foreign_proptest.rs, halfka_proptest.rs;
# crates/engine/tests/net_proptest.rs; crates/learner/tests/checkpoint_proptest.rs,
# halfka_checkpoint_proptest.rs, init_net_proptest.rs;
# crates/gensfen/tests/book_proptest.rs.
#
# The targets of multi-megabyte files (load_halfka_network, load_engine_net,
# load_checkpoint, load_halfka_checkpoint, load_init_net) build a valid file at
# start-up (the checkpoints by a tiny training run on tests/data) and read an
# input whose first byte is odd as a list of changes to it, so their seeds in
# fuzz/seeds/ are a few bytes long.
set -euo pipefail

cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true

if ! command -v cargo-fuzz >/dev/null 2>&1; then
    echo "installing cargo-fuzz" >&2
    cargo install cargo-fuzz --locked
fi

export RUSTC_BOOTSTRAP=1
if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo fuzz list --fuzz-dir fuzz)
fi

for target in "${targets[@]}"; do
    echo "== fuzzing $target for ${seconds}s" >&2
    mkdir -p "fuzz/corpus/$target"
    # Committed seeds (e.g. a tiny valid .nnue) let the fuzzer reach deep code.
    seeds=()
    if [ -d "fuzz/seeds/$target" ]; then seeds=("fuzz/seeds/$target"); fi
    cargo fuzz run --fuzz-dir fuzz "$target" "fuzz/corpus/$target" "${seeds[@]}" -- \
        -max_total_time="$seconds" -max_len=4096
done
