"""The study's games and ratings: each pairing's saved games (refused when played
with other settings), the games still missing played through nnue_scripts.match, and
every net rated relative to All by a joint maximum-likelihood fit."""

import argparse
import json
import os

from .. import adjudication, common, rating_fit
from .conditions import condition_label, is_fixed_node, movetime_of, nodes_of
from .entries import ANCHOR, ANCHOR_STATUS, net_name, split_name, tournament_pairings
from .identity import bench_signature, keyed_by_bench
from .programs import binary, engine_sha256
from .rundir import StudyError, settings_differences, write_json

# The engine in every game: one thread, 16 MiB of hash.
ENGINE_OPTIONS = {"Threads": "1", "Hash": "16"}
# The field of a saved game naming the engine build that played it.
ENGINE_DIGEST = "engine_sha256"


def game_args(args, condition):
    """The match settings of one condition (what nnue_scripts.match's play_game reads)."""
    return argparse.Namespace(tc="1+0", movestogo=0, movetime=movetime_of(condition),
                              movetime_margin=args.movetime_margin, time_margin=0.0, nodes=nodes_of(condition),
                              book=args.book, book_seed=0, max_plies=args.max_plies,
                              event=f"nnue study {condition}", concurrency=args.concurrency,
                              **{key: getattr(args, key) for key in adjudication.KEYS})


def load_pairing(path, config, legacy=None, legacy_engine=None, rewrite=True):
    """The saved games of a pairing ({index: game}); StudyError when they were played
    with other settings (nets, options, condition, book, engine). A file saved under
    `legacy` (the same pairing keyed by this build's digest, before fixed-node games
    were keyed by bench signatures) is accepted and, with `rewrite`, saved again under
    `config`, each game recording `legacy_engine` as the build that played it."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        saved = json.load(f)
    games = {game["index"]: game for game in saved.get("games", [])}
    if saved.get("config") == config:
        return games
    if legacy is not None and saved.get("config") == legacy:
        for game in games.values():
            game.setdefault(ENGINE_DIGEST, legacy_engine)
        if rewrite:
            write_json(path, {"config": config, "games": [games[i] for i in sorted(games)]})
        return games
    diffs = settings_differences(flatten(saved.get("config") or {}), flatten(config))
    hint = adjudication.resume_hint(saved.get("config") or {}, config)
    raise StudyError(f"{path} holds games played with other settings ({'; '.join(diffs)}){hint}; "
                     "delete it or use another --out-dir")


def flatten(record, prefix=""):
    """{'a': {'b': 1}} as {'a.b': 1}, so that a difference names the field."""
    flat = {}
    for key, value in record.items():
        if isinstance(value, dict):
            flat.update(flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def pairing_configs(gargs, condition, entrants, trainings, benches, pairings, book):
    """{(A, B): (config, legacy)}: what a pairing's saved games must have been played
    with, and the older form of it that this build's own games may still carry (None
    where there is none). At a fixed node count the engine is named by each net's bench
    signature (nnue_scripts.study.identity); a pairing whose nets have no bench record
    (--report-only after another build) is left out."""
    from .. import gauntlet

    names = {net_name(*key): key for key in trainings}
    configs = {}
    for a, b in pairings:
        config = gauntlet.pairing_config(gargs, entrants[a], entrants[b], book)
        config["nets"] = {a: trainings[names[a]]["sha256"], b: trainings[names[b]]["sha256"]}
        if not is_fixed_node(condition):
            configs[(a, b)] = (config, None)
            continue
        signatures = {name: bench_signature(benches.get(names[name])) for name in (a, b)}
        if None not in signatures.values():
            configs[(a, b)] = (keyed_by_bench(config, signatures), config)
    return configs


def play_tournament(study, args, trainings, benches, condition):
    """Plays the missing games of one condition; returns [(A, B, wins, draws, losses)],
    the number of failed games and the games each adjudication rule ended
    ({"resign": n, "draw": m}). `benches` maps (spec, seed) to bench records."""
    from .. import entrants as entrant_specs, gauntlet, match  # python-chess is needed from here on

    gargs = game_args(args, condition)
    book = common.load_book(args.book)
    directory = study.path("games", condition)
    os.makedirs(directory, exist_ok=True)
    entrants = {}
    for (spec, seed), record in trainings.items():
        name = net_name(spec, seed)
        entrants[name] = entrant_specs.Entrant(name, [binary("nnue")], "uci", {**ENGINE_OPTIONS, "EvalFile": record["net"]})
    pairings = [p for p in tournament_pairings(args.sets, args.seeds) if p[0] in entrants and p[1] in entrants]
    configs = pairing_configs(gargs, condition, entrants, trainings, benches, pairings, args.book)
    pairings = [p for p in pairings if p in configs]
    saved, paths, jobs = {}, {}, []
    for key in pairings:
        paths[key] = gauntlet.pairing_path(directory, entrants[key[0]], entrants[key[1]], ".json")
        saved[key] = load_pairing(paths[key], *configs[key], engine_sha256(), rewrite=not args.report_only)
        if args.replay_failed and not args.report_only:
            saved[key] = without_failures(saved[key], condition, key)
    for index in range(0 if args.report_only else args.games):
        for key in pairings:
            if index not in saved[key]:
                jobs.append((index, (entrants[key[0]].player(), entrants[key[1]].player()), book, key))
    total = sum(len(g) for g in saved.values())
    print(f"[games {condition}] {len(pairings)} pairings, {len(jobs)} games to play, {total} saved", flush=True)
    study.log({"step": f"games {condition}", "pairings": pairings, "to_play": len(jobs), "saved": total})
    progress = gauntlet.Progress(len(jobs))

    def on_game(game):
        key = game["tag"]
        saved[key][game["index"]] = {**gauntlet.saved_game(game), ENGINE_DIGEST: engine_sha256()}
        gauntlet.save_pairing(paths[key], configs[key][0], saved[key])
        print(f"{progress.line()} [{condition}] {key[0]} vs {key[1]} {match.game_line(game)}", flush=True)

    if jobs:
        match.run_games(gargs, None, jobs, on_game)
    return tally_condition(saved, args.games)


def without_failures(games, condition, key):
    """The saved games less those that failed (a crash, an illegal move, a loss on time),
    which are then played again (--replay-failed); each dropped game is named."""
    kept = {}
    for index, game in games.items():
        if game.get("problem"):
            print(f"[games {condition}] {key[0]} vs {key[1]} game {index}: played again ({game['problem']})", flush=True)
        else:
            kept[index] = game
    return kept


def tally_condition(saved, games):
    """([(A, B, wins, draws, losses)], failed games, adjudication counts) of a
    condition's saved games, the first `games` of each pairing."""
    from ..gauntlet_results import tally

    results, failures, counted = [], 0, []
    for (a, b), pairing in saved.items():
        played = {i: g for i, g in pairing.items() if i < games}
        wins, draws, losses, failed = tally(played)
        failures += failed
        counted += played.values()
        results.append((a, b, wins, draws, losses))
    return results, failures, adjudication.counts(counted)


def relative_ratings(results, sets, seeds):
    """Ratings relative to All from one condition's results, a list of (net A, net B,
    wins, draws, losses) in A's view. Returns {"pooled": {spec: Rating}, "per_seed":
    {(spec, seed): Rating}}: pooled fits a set's seeds' games as one player with All
    anchored at 0; per seed, every seed's All net is anchored at 0."""
    per_seed_anchor = {net_name(ANCHOR, seed): 0.0 for seed in seeds}
    per_seed = {}
    if results:
        fitted = rating_fit.fit(results, per_seed_anchor).ratings
        for name, rating in fitted.items():
            per_seed[split_name(name, sets, seeds)] = rating
    pooled_results = [(split_name(a, sets, seeds)[0], split_name(b, sets, seeds)[0], w, d, l)
                      for a, b, w, d, l in results]
    pooled = rating_fit.fit(pooled_results, {ANCHOR: 0.0}).ratings if results else {}
    for seed in seeds:
        per_seed[(ANCHOR, seed)] = rating_fit.Rating(ANCHOR_STATUS, 0.0, 0.0, 0.0)
    pooled[ANCHOR] = rating_fit.Rating(ANCHOR_STATUS, 0.0, 0.0, 0.0)
    return {"pooled": pooled, "per_seed": per_seed}


def progress_notes(sets, seeds, games, results):
    """For a report of a run in progress (--report-only): per condition whose games are
    not all played, how many of them are."""
    planned = len(tournament_pairings(sets, seeds)) * games
    notes = []
    for condition, rows in results.items():
        played = sum(w + d + l for _, _, w, d, l in rows)
        if played < planned:
            notes.append(f"a run in progress: {condition_label(condition)}, {played:,} of {planned:,} games "
                         "played; its ratings are on those games")
    return notes
