"""Checks the shards of one generated data set (`nnue-gen-sfen generate --shard I/N`,
e.g. scripts/gensfen-slurm.sh's array) and the file they were joined into:

    python -m nnue_scripts.shard_data JOINED.bin SHARD.bin...

It fails (exit 1, one line naming the files) when a game appears twice, in two shards or
in one, or when JOINED does not hold exactly the shards' records (as many of each, in
any order: `nnue-gen-sfen shuffle` only reorders them). On success it prints the counts.

A game is a run of records whose game ply rises (the generator writes each game whole,
from its first written ply on); two shards that repeated each other's games, for example
two tasks given the same shard index, share whole games, where independent games at
most share a position now and then. `.bin` only (40-byte PackedSfenValue records, the
layout documented in the nnue-core crate): convert other formats with `nnue-gen-sfen
convert` first.
"""

import argparse
import collections
import hashlib
import sys

RECORD = 40
PLY_OFFSET = 36  # u16, little endian, after the 32-byte position, the score and the move


class DataError(Exception):
    """A file that cannot be checked, or a check that failed."""


def read_records(path):
    """The file's 40-byte records; DataError for an unreadable file or a partial record."""
    if not path.endswith(".bin"):
        raise DataError(f"{path}: not a .bin file (convert it with nnue-gen-sfen convert)")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise DataError(f"{path}: {exc.strerror}") from None
    if len(data) % RECORD:
        raise DataError(f"{path}: {len(data)} bytes is not a whole number of {RECORD}-byte records")
    return [data[i:i + RECORD] for i in range(0, len(data), RECORD)]


def games(records):
    """The records split into games: a new game starts where the game ply does not rise."""
    result, current, last_ply = [], [], None
    for record in records:
        ply = int.from_bytes(record[PLY_OFFSET:PLY_OFFSET + 2], "little")
        if current and ply <= last_ply:
            result.append(current)
            current = []
        current.append(record)
        last_ply = ply
    if current:
        result.append(current)
    return result


def check(joined, shards):
    """Checks `shards` ([(path, records)]) and `joined` ((path, records)); returns the
    summary line, or raises DataError naming the files."""
    seen = {}
    n_games = 0
    for path, records in shards:
        for game in games(records):
            digest = hashlib.sha256(b"".join(game)).digest()
            if digest in seen:
                where = "twice in " + path if seen[digest] == path else f"in {seen[digest]} and in {path}"
                raise DataError(f"a game of {len(game)} records is {where}: the shards repeat each other's games")
            seen[digest] = path
            n_games += 1
    expected = collections.Counter(r for _, records in shards for r in records)
    path, records = joined
    got = collections.Counter(records)
    if got != expected:
        extra, lost = sum((got - expected).values()), sum((expected - got).values())
        raise DataError(f"{path}: {len(records)} records, not the shards' {sum(expected.values())} "
                        f"({extra} not in any shard, {lost} of the shards' missing)")
    return (f"{len(shards)} shards, {n_games} games, none repeated; {path} holds exactly their "
            f"{len(records)} records")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m nnue_scripts.shard_data", description=__doc__.splitlines()[0])
    parser.add_argument("joined", help="the joined .bin (nnue-gen-sfen shuffle SHARDS... JOINED)")
    parser.add_argument("shards", nargs="+", help="the shards' .bin files")
    args = parser.parse_args(argv)
    try:
        summary = check((args.joined, read_records(args.joined)), [(p, read_records(p)) for p in args.shards])
    except DataError as exc:
        print(f"shard_data: error: {exc}", file=sys.stderr)
        return 1
    print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
