"""What each set costs: the feature counts on the data's games (`nnue-learn
features`) and each net's speed in the engine (`nnue bench` and `evalbench`)."""

import json
import os
import re
import sys

from .entries import feature_set_of, net_name, slug
from .programs import PROGRAM, binary, engine_sha256
from .rundir import StudyError, write_json


def measure_features(study, args, spec):
    """`nnue-learn features --json` for one set, or None when the command is missing."""
    config = {"set": spec, "data": os.path.abspath(args.feature_data), "count": args.feature_count}
    record = study.load("features", f"{slug(spec)}.json", config=config)
    if record or args.report_only:
        return record and record["figures"]
    os.makedirs(study.path("features"), exist_ok=True)
    command = [binary("nnue-learn"), "features", "--feature-set", feature_set_of(spec), "--data", args.feature_data,
               "--count", str(args.feature_count), "--json"]
    try:
        text = study.run(f"features {slug(spec)}", command)
    except StudyError as exc:
        if "unrecognized subcommand" in str(exc) or "exit 2" in str(exc):
            print(f"{PROGRAM}: warning: nnue-learn has no working `features` command here; "
                  f"the feature counts of {spec} are left out", file=sys.stderr)
            return None
        raise
    figures = json.loads(text[text.index("{"):])
    write_json(study.path("features", f"{slug(spec)}.json"), {"config": config, "figures": figures})
    return figures


BENCH_NPS = re.compile(r"^Nodes/second\s*:\s*(\d+)", re.M)
BENCH_NODES = re.compile(r"^Nodes searched\s*:\s*(\d+)", re.M)
EVAL_BENCH_RATE = re.compile(r"^Evaluations/second\s*:\s*(\d+)", re.M)


def bench_figures(text, net):
    """(nodes, nodes/s, evaluations/s) from the output of `nnue` bench and evalbench,
    after checking that the engine said it uses `net`; StudyError otherwise."""
    if "info string error" in text or f"NNUE evaluation using {net}" not in text:
        lines = [line for line in text.splitlines() if line.startswith("info string")]
        raise StudyError(f"the engine did not load {net}: {' | '.join(lines) or 'no info string'}")
    nps, nodes, evals = BENCH_NPS.search(text), BENCH_NODES.search(text), EVAL_BENCH_RATE.search(text)
    if not nps or not nodes or not evals:
        raise StudyError(f"no bench figures in the engine's output for {net}")
    return int(nodes.group(1)), int(nps.group(1)), int(evals.group(1))


def bench_net(study, args, spec, seed, train_record):
    """Speed of one net: `nnue` in UCI mode, EvalFile, then `bench` (the search's
    nodes/s) and `evalbench` (evaluations/s, each after its incremental update). A
    record made by another engine build, or at other depths, is measured again: speed
    belongs to the build that plays the games."""
    name = net_name(spec, seed)
    config = {"net_sha256": train_record["sha256"], "engine_sha256": engine_sha256(),
              "depth": args.bench_depth, "eval_depth": args.eval_bench_depth}
    saved = study.load("bench", f"{name}.json")
    if saved and saved.get("config") == config:
        return saved
    if args.report_only:
        return None
    os.makedirs(study.path("bench"), exist_ok=True)
    net = train_record["net"]
    stdin = (f"setoption name EvalFile value {net}\nisready\nbench {args.bench_depth}\n"
             f"evalbench {args.eval_bench_depth}\nquit\n")
    text = study.run(f"bench {name}", [binary("nnue")], stdin=stdin)
    nodes, nps, evals = bench_figures(text, net)
    record = {"config": config, "nodes": nodes, "nodes_per_second": nps, "evaluations_per_second": evals}
    print(f"[bench {name}] {nodes} nodes, {nps} nodes/s, {evals} evaluations/s", flush=True)
    write_json(study.path("bench", f"{name}.json"), record)
    return record
