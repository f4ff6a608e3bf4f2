"""Which engine builds may share a pairing's saved games.

At a fixed node count a game depends on what the search does, not on how fast it does
it: a build that only evaluates or updates faster plays the same moves. Such games are
keyed by each net's bench signature instead of the engine binary's digest: the node
count of `nnue bench` at the study's depth with that net, the functional fingerprint
Stockfish's developers write into every commit ("bench: N"). A faster build with the
same signatures keeps the games; one that searches differently has other signatures
and replays them. At a fixed time per move a game depends on speed as well, so those
games stay keyed by the binary's digest. Every game records the digest of the build
that played it either way.
"""

import copy


def bench_signature(bench_record):
    """'bench 10: 938412 nodes' from a bench record of the study (its depth and node
    count), or None without one."""
    if not bench_record:
        return None
    return f"bench {bench_record['config']['depth']}: {bench_record['nodes']} nodes"


def keyed_by_bench(config, signatures):
    """A copy of a pairing's config in which each entrant's engine digest (the entry of
    its command's program in "contents") is its net's bench signature; `signatures`
    maps entrant names to bench_signature's strings."""
    keyed = copy.deepcopy(config)
    for role in ("player", "opponent"):
        entrant = keyed[role]
        entrant["contents"][entrant["command"][0]] = signatures[entrant["name"]]
    return keyed
