#!/usr/bin/env bash
# The Slurm array scripts checked on a real single-node Slurm cluster:
#
#   sudo scripts/cluster-check.sh
#
# As root it installs Debian's slurm-wlm and munge when they are missing (apt-get),
# starts munged, slurmctld and slurmd on localhost from a minimal slurm.conf in a
# temporary folder (its own ports 16817/16818 and munge socket, so a cluster already
# on the machine is not touched), and then:
#   - submits scripts/gensfen-slurm.sh as a 4-task array, cuts shard 3 short as a
#     stopped task leaves it and resubmits task 3, which must continue it, then joins the
#     shards with `nnue-gen-sfen shuffle` and checks the counts and that no game is in
#     two shards (python -m nnue_scripts.shard_data);
#   - submits scripts/gauntlet-slurm.sh as a 4-task array (our engine's classical
#     evaluation against its net, at a fixed node count so that games are repeatable),
#     cancels task 2 once it has saved a game and resubmits it, which must play only
#     the games it had not saved;
#   - checks that every game was played once, and that the report the last task wrote,
#     and --report-only's, are the report of the same games played unsplit (identical
#     files, but for the date);
#   - runs the small recipe with its generation as a 2-task array (--slurm-shards 2),
#     twice: the joined generation must hold its positions, no game twice, the tasks'
#     measured CPU time must be booked, and the second run must run nothing;
#   - where Stockfish is installed, runs the strength report (--preset strength at a fixed
#     node count, 4 games a pairing and set) as a 4-task array and checks its report
#     against an unsplit run over the same games.
# The daemons, and any job still running, are stopped on exit, whatever happens.
# Without root, or when the packages cannot be installed, it says why and exits 0
# (CI machines without them skip it); NNUE_CLUSTER_CHECK=0 skips it too. KEEP=1 keeps
# the temporary folder.
#
# It builds nnue, nnue-gen-sfen and nnue-learn (cargo build --release) and uses the scripts'
# Python environment of scripts/python_checks.sh (NNUE_PYTHON, or target/python-checks-venv,
# created as that script does).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

skip() {
  echo "cluster-check.sh: skipped: $1"
  exit 0
}
fail() {
  echo "cluster-check.sh: error: $1" >&2
  exit 1
}
say() {
  echo "cluster-check.sh: $(date -u +%T) $1"
}

[ "${NNUE_CLUSTER_CHECK:-1}" != 0 ] || skip "NNUE_CLUSTER_CHECK=0"
[ "$(id -u)" = 0 ] || skip "not root (it installs slurm-wlm and munge and starts Slurm's daemons as root)"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null ||
   ! command -v munged >/dev/null || ! command -v mungekey >/dev/null; then
  command -v apt-get >/dev/null || skip "slurm-wlm and munge are not installed and there is no apt-get"
  say "installing slurm-wlm and munge (apt-get)"
  log=$(mktemp)
  # Bounded, so that a machine without a network skips in minutes rather than hanging CI.
  apt=(env DEBIAN_FRONTEND=noninteractive apt-get -q -o Acquire::Retries=0 -o Acquire::http::Timeout=20)
  if ! timeout 300 "${apt[@]}" install -y slurm-wlm munge >"$log" 2>&1; then
    if ! { timeout 120 "${apt[@]}" update && timeout 300 "${apt[@]}" install -y slurm-wlm munge; } >>"$log" 2>&1; then
      skip "apt-get could not install slurm-wlm and munge: $(tail -n 1 "$log")"
    fi
  fi
  rm -f "$log"
fi

cargo build --release --quiet --bin nnue --bin nnue-gen-sfen --bin nnue-learn
engine="$repo/target/release/nnue"
gensfen="$repo/target/release/nnue-gen-sfen"
python="${NNUE_PYTHON:-}"
if [ -z "$python" ]; then
  venv=target/python-checks-venv
  if ! "$venv/bin/python" -c 'import chess, nnue_scripts' 2>/dev/null; then
    echo "cluster-check.sh: installing python-chess and the scripts' package into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --editable scripts
  fi
  python="$repo/$venv/bin/python"
else
  export PYTHONPATH="$repo/scripts${PYTHONPATH:+:$PYTHONPATH}"
fi

t0=$(date +%s)
work=$(mktemp -d /tmp/nnue-cluster.XXXXXX)
chmod 711 "$work"
pids=()
cleanup() {
  status=$?
  set +e
  if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ]; then
    scancel --quiet --partition=check 2>/dev/null
  fi
  # Only the daemons this script started, by their process ids; slurmd first, so that
  # the jobs' processes go with it.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill "${pids[i]}" 2>/dev/null
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null
  done
  if [ "$status" != 0 ]; then
    for f in "$work"/log/*; do
      [ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }
    done >&2
  fi
  if [ "${KEEP:-0}" = 1 ]; then
    echo "cluster-check.sh: kept $work" >&2
  else
    rm -rf "$work"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$work/munge" "$work/etc" "$work/state" "$work/spool" "$work/log" "$work/gen" "$work/gauntlet"
chmod 711 "$work/munge"
mungekey --create --keyfile="$work/munge/munge.key"
socket="$work/munge/munge.socket"
munged --foreground --force --socket="$socket" --key-file="$work/munge/munge.key" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/log/munged.log" --seed-file="$work/munge/munged.seed" \
    >>"$work/log/munged.log" 2>&1 &
pids+=($!)

host=$(hostname -s)
export SLURM_CONF="$work/etc/slurm.conf"
# One node with 4 CPUs (more than a small machine has: SlurmdParameters=config_overrides),
# so that the 4 tasks of an array run at once; no cgroups, no accounting.
cat >"$SLURM_CONF" <<EOF
ClusterName=nnuecheck
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
KillWait=5
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=4 RealMemory=2048 State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
for _ in $(seq 50); do
  [ -S "$socket" ] && break
  sleep 0.1
done
[ -S "$socket" ] || fail "munged did not start ($work/log/munged.log)"
slurmctld -D -i -f "$SLURM_CONF" >"$work/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$work/log/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  sinfo --noheader --states=idle 2>/dev/null | grep -q check && break
  sleep 0.2
done
sinfo --noheader --states=idle 2>/dev/null | grep -q check || fail "the node did not come up (sinfo: $(sinfo 2>&1 | tail -n 1))"
say "single-node cluster up ($(sinfo --version))"

# Waits until none of the given jobs is pending or running (at most $2 seconds).
wait_jobs() {
  local jobs="$1" limit="$2" start
  start=$(date +%s)
  while [ -n "$(squeue --noheader --jobs="$jobs" 2>/dev/null)" ]; do
    [ $(($(date +%s) - start)) -lt "$limit" ] || fail "jobs $jobs still running after ${limit}s: $(squeue --jobs="$jobs" | tail -n +2 | head -n 5)"
    sleep 0.5
  done
}

# Saved gauntlet games in a folder's pairing files.
count_games() {
  "$python" -c '
import json, os, sys
total = 0
for root, _, files in os.walk(sys.argv[1]):
    for name in files:
        if name.endswith(".json") and name != "gauntlet.json":
            with open(os.path.join(root, name)) as f:
                total += len(json.load(f)["games"])
print(total)' "$1"
}

# --- the generator's array --------------------------------------------------------------
positions=3000
gen_job=$(sbatch --parsable --array=0-3 --cpus-per-task=1 --mem=256M --time=10 \
    --output="$work/log/gensfen-%A_%a.log" \
    --export="ALL,SEED=7,POSITIONS=$positions,DEPTH=3,OUT_DIR=$work/gen,GENSFEN=$gensfen" \
    scripts/gensfen-slurm.sh)

# --- the gauntlet's array ---------------------------------------------------------------
# 2 opening sets x 16 games = 32 games, 8 a task; one game at a time in each task.
gauntlet_args=(--engine "$engine" --player "classical:Use NNUE=false,Threads=1,Hash=16"
               --opponent "net:$engine:Threads=1,Hash=16" --anchor net=2000
               --book "$repo/data/openings.epd" --book "$repo/data/openings-random.epd"
               --games 16 --nodes 6000 --max-plies 160 --concurrency 1)
games=32
gauntlet_job=$(sbatch --parsable --array=0-3 --cpus-per-task=1 --mem=256M --time=10 \
    --output="$work/log/gauntlet-%A_%a.log" --export="ALL,PYTHON=$python" \
    scripts/gauntlet-slurm.sh "${gauntlet_args[@]}" --out-dir "$work/gauntlet")
say "submitted the generator's array (job $gen_job) and the gauntlet's (job $gauntlet_job)"

# Cancel task 2 once it has saved a game, then resubmit it alone.
shard2="$work/gauntlet/shards/2-of-4"
start=$(date +%s)
until [ -d "$shard2" ] && [ "$(count_games "$shard2")" -ge 1 ]; do
  [ $(($(date +%s) - start)) -lt 120 ] || fail "gauntlet task 2 saved no game in 120 s"
  [ -n "$(squeue --noheader --jobs="${gauntlet_job}_2" 2>/dev/null)" ] || fail "gauntlet task 2 ended before it could be cancelled"
  sleep 0.2
done
scancel "${gauntlet_job}_2"
wait_jobs "${gauntlet_job}_2" 60
kept=$(count_games "$shard2")
[ "$kept" -lt $((games / 4)) ] || fail "gauntlet task 2 had finished its $((games / 4)) games before it was cancelled"
grep -q "stopped by SIGTERM; finished games are saved" "$work"/log/gauntlet-"${gauntlet_job}"_2.log ||
  fail "cancelled task 2 did not stop on SIGTERM ($(tail -n 1 "$work"/log/gauntlet-"${gauntlet_job}"_2.log))"
resubmitted=$(sbatch --parsable --array=2 --cpus-per-task=1 --mem=256M --time=10 \
    --output="$work/log/gauntlet-%A_%a.log" --export="ALL,PYTHON=$python,SHARDS=4" \
    scripts/gauntlet-slurm.sh "${gauntlet_args[@]}" --out-dir "$work/gauntlet")
say "cancelled gauntlet task 2 with $kept of its $((games / 4)) games saved; resubmitted it (job $resubmitted)"

# Meanwhile, the same games unsplit, outside Slurm.
"$python" -m nnue_scripts.gauntlet "${gauntlet_args[@]}" --concurrency 2 --out-dir "$work/unsplit" \
    >"$work/log/unsplit.log" 2>&1 || fail "the unsplit gauntlet failed ($work/log/unsplit.log)"
say "unsplit gauntlet done"

wait_jobs "$gen_job,$gauntlet_job,$resubmitted" 300

# A generator task stopped part way and resubmitted: shard 3 cut to its first 1,234
# records (a stopped generator leaves whole records, docs/GENSFEN.md), then task 3
# submitted alone; it must keep them and generate the other 1,766 under a seed of its own.
gen_shard3="$work/gen/shard-0003.bin"
[ -f "$gen_shard3" ] || fail "generator task 3 wrote no $gen_shard3 ($(tail -n 1 "$work/log/gensfen-${gen_job}_3.log"))"
truncate -s $((1234 * 40)) "$gen_shard3"
gen_resubmitted=$(sbatch --parsable --array=3 --cpus-per-task=1 --mem=256M --time=10 \
    --output="$work/log/gensfen-%A_%a.log" \
    --export="ALL,SHARDS=4,SEED=7,POSITIONS=$positions,DEPTH=3,OUT_DIR=$work/gen,GENSFEN=$gensfen" \
    scripts/gensfen-slurm.sh)
wait_jobs "$gen_resubmitted" 60
grep -q "holds 1234 records: generating the other $((positions - 1234)) with seed 7+1234" \
    "$work/log/gensfen-${gen_resubmitted}_3.log" ||
  fail "resubmitted generator task 3 did not continue its shard: $(head -n 1 "$work/log/gensfen-${gen_resubmitted}_3.log")"

# Each task's end (kept by slurmctld for MinJobAge seconds; there is no accounting).
states=$(for job in "$gen_job" "$gauntlet_job" "$resubmitted" "$gen_resubmitted"; do
  scontrol --oneliner show job "$job" | sed -E 's/.*ArrayJobId=([0-9]+) ArrayTaskId=([0-9]+).* JobState=([A-Z_]+).* ExitCode=([0-9:]+).*/\1_\2 \3 \4/'
done | sort)
expected=$(printf '%s\n' "${gen_job}_0 COMPLETED 0:0" "${gen_job}_1 COMPLETED 0:0" "${gen_job}_2 COMPLETED 0:0" \
  "${gen_job}_3 COMPLETED 0:0" "${gauntlet_job}_0 COMPLETED 0:0" "${gauntlet_job}_1 COMPLETED 0:0" \
  "${gauntlet_job}_2 CANCELLED 143:0" "${gauntlet_job}_3 COMPLETED 0:0" "${resubmitted}_2 COMPLETED 0:0" \
  "${gen_resubmitted}_3 COMPLETED 0:0" | sort)
[ "$states" = "$expected" ] || fail "the tasks ended as: ${states//$'\n'/, }; expected: ${expected//$'\n'/, }"

# --- the generator: join and check ------------------------------------------------------
for i in 0 1 2 3; do
  shard="$work/gen/shard-000$i.bin"
  [ -f "$shard" ] || fail "generator task $i wrote no $shard ($(tail -n 1 "$work/log/gensfen-${gen_job}_$i.log"))"
  size=$(stat -c %s "$shard")
  [ "$size" = $((positions * 40)) ] || fail "$shard: $size bytes, not $positions records"
done
"$gensfen" shuffle "$work"/gen/shard-*.bin "$work/data.bin" --seed 7 >"$work/log/shuffle.log" 2>&1 ||
  fail "nnue-gen-sfen shuffle failed ($(tail -n 1 "$work/log/shuffle.log"))"
gen_summary=$("$python" -m nnue_scripts.shard_data "$work/data.bin" "$work"/gen/shard-*.bin) ||
  fail "the generator's shards do not check"
say "generator: task 3 resubmitted continued its shard after 1234 records; $gen_summary"

# --- the gauntlet: every game once, and the unsplit run's report -------------------------
grep -q "^$((games / 4 - kept)) games to play (shard 2/4" "$work"/log/gauntlet-"${resubmitted}"_2.log ||
  fail "resubmitted task 2 did not play exactly its $((games / 4 - kept)) unsaved games: $(grep 'games to play' "$work"/log/gauntlet-"${resubmitted}"_2.log)"
for i in 0 1 2 3; do
  n=$(count_games "$work/gauntlet/shards/$i-of-4")
  [ "$n" = $((games / 4)) ] || fail "gauntlet shard $i saved $n games, not $((games / 4))"
done
[ -f "$work/gauntlet/gauntlet.md" ] || fail "no task wrote $work/gauntlet/gauntlet.md"
"$python" -m nnue_scripts.gauntlet "${gauntlet_args[@]}" --out-dir "$work/gauntlet" --report-only \
    --output "$work/gauntlet/report-only.md" >"$work/log/report-only.log" 2>&1 ||
  fail "--report-only failed ($(tail -n 1 "$work/log/report-only.log"))"
undated() {
  sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}/DATE/g' "$1"
}
for name in gauntlet.md gauntlet.json report-only.md report-only.json; do
  unsplit="unsplit/gauntlet.${name##*.}"
  if ! diff <(undated "$work/gauntlet/$name") <(undated "$work/$unsplit") >"$work/log/diff.txt"; then
    fail "gauntlet/$name differs from the unsplit run's $unsplit: $(head -n 5 "$work/log/diff.txt")"
  fi
done
say "gauntlet: $games games in 4 shards, each played once (task 2 resumed after $kept); the report is the unsplit run's"
grep -m 1 "^\*\*Rating of classical" "$work/gauntlet/gauntlet.md"

# --- the recipe's generation as a Slurm array -------------------------------------------
# The small recipe, one generation (3,000 positions at depth 2) played by a 2-task array
# (--slurm-shards 2), trained and screened; then the same command again, which must run
# nothing. Its joined gen0.binpack must hold the 3,000 positions, none of its games twice.
recipe_args=(--small --no-build --generations 1 --no-final-report --slurm-shards 2
             --slurm-args "--cpus-per-task=1 --mem=256M --time=10" --out-dir "$work/recipe")
for run in first again; do
  "$python" -m nnue_scripts.recipe "${recipe_args[@]}" >"$work/log/recipe-$run.log" 2>&1 ||
    fail "the recipe with --slurm-shards 2 failed ($(tail -n 1 "$work/log/recipe-$run.log"))"
done
"$gensfen" convert "$work/recipe/data/gen0.binpack" "$work/recipe-gen0.bin" >"$work/log/recipe-convert.log" 2>&1 ||
  fail "cannot convert the recipe's gen0.binpack ($(tail -n 1 "$work/log/recipe-convert.log"))"
recipe_summary=$("$python" - "$work/recipe" "$work/recipe-gen0.bin" <<'PY'
import hashlib, json, os, sys
from nnue_scripts import shard_data
run, joined = sys.argv[1:]
done = json.load(open(os.path.join(run, "data", "gen0.done")))
games = shard_data.games(shard_data.read_records(joined))
digests = {hashlib.sha256(b"".join(game)).digest() for game in games}
records = sum(len(game) for game in games)
if done["positions"] != 3000 or records != 3000 or done["slurm"]["shards"] != 2:
    sys.exit(f"gen0: {done['positions']} positions in its marker, {records} in gen0.binpack, "
             f"{done['slurm']['shards']} shards; expected 3000, 3000, 2")
if len(digests) != len(games):
    sys.exit(f"gen0.binpack: {len(games) - len(digests)} of its {len(games)} games are repeats")
runs, invocation = {}, 0
for line in open(os.path.join(run, "log.jsonl")):
    entry = json.loads(line)
    invocation = entry.get("invocation", invocation)
    if "command" in entry and entry.get("kind") in ("generation", "training", "screen"):
        runs.setdefault(invocation, []).append(entry["command"][0])
if 2 in runs or runs[1].count("sbatch") != 1:
    sys.exit(f"the programs each invocation ran: {runs}; expected one sbatch in the first, nothing in the second")
ledger = json.load(open(os.path.join(run, "budget.json")))
tasks = ledger["measured"]["gen0-slurm-tasks"]
if not 0 < tasks <= ledger["by_step"]["gen0"]:
    sys.exit(f"budget.json: the tasks' {tasks} CPU seconds are not booked under gen0 ({ledger['by_step']})")
print(f"{records} positions in {len(games)} games, none repeated; the tasks' {tasks:.1f} CPU seconds booked "
      f"({ledger['by_step']['gen0']:.1f} with the join); the second run ran nothing")
PY
) || fail "the recipe's Slurm generation does not check"
say "recipe --slurm-shards 2: $recipe_summary"

# --- the strength report, where Stockfish is installed -----------------------------------
# --preset strength at a fixed node count (Glaurung, Toga II and Phalanx do not stop at
# one), 4 games a pairing and set, as a 4-task array. Stockfish's limited strength is not
# repeatable, so the same games cannot be replayed: they are copied into one folder as an
# unsplit run saves them, where a plain run plays nothing and writes its report.
if command -v stockfish >/dev/null || [ -x /usr/games/stockfish ]; then
  strength_args=(--preset strength --engine "$engine" --nodes 4000 --games 4)
  strength_job=$(sbatch --parsable --array=0-3 --cpus-per-task=1 --mem=512M --time=10 \
      --output="$work/log/strength-%A_%a.log" --export="ALL,PYTHON=$python" \
      scripts/gauntlet-slurm.sh "${strength_args[@]}" --out-dir "$work/strength")
  wait_jobs "$strength_job" 300
  [ -f "$work/strength/gauntlet.md" ] || fail "no strength task wrote $work/strength/gauntlet.md"
  "$python" - "$work/strength" "$work/strength-unsplit" <<'PY' || fail "cannot copy the strength report's games"
import json, os, sys
from nnue_scripts import shards
source, dest = sys.argv[1:]
for root, _, files in os.walk(os.path.join(source, shards.SHARDS_DIR)):
    for name in files:
        if not name.endswith(".json"):
            continue
        relative = os.path.relpath(os.path.join(root, name), source).split(os.sep, 2)[2]
        target = os.path.join(dest, relative)
        with open(os.path.join(root, name)) as f:
            record = json.load(f)
        if os.path.exists(target):
            with open(target) as f:
                merged = json.load(f)
            record["games"] = sorted(merged["games"] + record["games"], key=lambda g: g["index"])
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w") as f:
            json.dump(record, f, indent=1)
PY
  "$python" -m nnue_scripts.gauntlet "${strength_args[@]}" --out-dir "$work/strength-unsplit" \
      >"$work/log/strength-unsplit.log" 2>&1 || fail "the unsplit strength report failed ($work/log/strength-unsplit.log)"
  strength_games=$(sed -n 's/^\([0-9]*\) games, 4 per pairing.*/\1/p' "$work/strength/gauntlet.md")
  grep -q "^0 games to play, $strength_games saved" "$work/log/strength-unsplit.log" ||
    fail "the unsplit strength run did not find the $strength_games games saved: $(head -n 3 "$work/log/strength-unsplit.log")"
  for name in gauntlet.md gauntlet.json; do
    diff <(undated "$work/strength/$name") <(undated "$work/strength-unsplit/$name") >"$work/log/diff.txt" ||
      fail "strength/$name differs from the unsplit run's: $(head -n 5 "$work/log/diff.txt")"
  done
  say "strength report: $strength_games games in 4 shards; the report is the unsplit run's of the same games"
  grep "^- \*\*" "$work/strength/gauntlet.md" | head -n 1
else
  say "no Stockfish (apt-get install stockfish): the strength report's array is not checked"
fi
say "passed in $(($(date +%s) - t0)) s after the packages and the build"
