"""Splitting a run of games into N shards (`--shard I/N`), so that N machines, for
example the tasks of a Slurm array or a Kubernetes Indexed Job, play one run together.

The rule is fixed by the game itself, never by what is already saved: game index i of
series k (a gauntlet's pairing in one opening set, numbered in the unsplit run's order;
0 for a single series) belongs to shard (i + k) mod N. So the shards' games are disjoint
and together exactly the unsplit run's games, whatever order the tasks run in, a task
that is cancelled and resubmitted picks up the same games, and each series' games are
spread over all shards (plain i mod N would give a shard whole pairings when N divides
their number, so its run time would depend on which opponents it drew).

Each shard writes its saved games under OUT_DIR/shards/I-of-N/ (the same file names an
unsplit run uses in OUT_DIR), so that no two tasks ever write the same file; readers
merge the unsplit run's file with every shard's (`saved_paths`, `merge_games`). A game
saved in two files is an error rather than a choice between them.

Apart from the gauntlet so that the rule, the file layout and the merge are one
implementation for any runner that saves games by index.
"""

import glob
import os
import re

SHARDS_DIR = "shards"
SHARD_PATTERN = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")
FOLDER_PATTERN = re.compile(r"^(\d+)-of-(\d+)$")


class Shard:
    """Shard `index` of `count` (0-based); Shard(0, 1) is the whole, unsplit run."""

    def __init__(self, index, count):
        if not 0 <= index < count:
            raise ValueError(f"'{index}/{count}' is not a shard: expected I/N with 0 <= I < N, e.g. 3/16")
        self.index, self.count = index, count

    def __eq__(self, other):
        return isinstance(other, Shard) and (self.index, self.count) == (other.index, other.count)

    def __hash__(self):
        return hash((self.index, self.count))

    def __repr__(self):
        return f"Shard({self.index}, {self.count})"

    def __str__(self):
        return f"{self.index}/{self.count}"

    @property
    def whole(self):
        return self.count == 1

    def owns(self, index, series=0):
        """Whether game `index` of series number `series` is this shard's."""
        return (index + series) % self.count == self.index

    def select(self, items):
        """This shard's items of one series, a list indexed by game."""
        return [item for index, item in enumerate(items) if self.owns(index)]

    def folder(self):
        """Where the shard's files go, relative to the output folder ('' for the whole run)."""
        return "" if self.whole else os.path.join(SHARDS_DIR, f"{self.index}-of-{self.count}")


WHOLE = Shard(0, 1)


def parse_shard(text):
    """'I/N' as a Shard; ValueError with the message the generator's --shard gives."""
    found = SHARD_PATTERN.match(text or "")
    if not found:
        raise ValueError(f"'{text}' is not a shard: expected I/N with 0 <= I < N, e.g. 3/16")
    index, count = int(found.group(1)), int(found.group(2))
    if not 0 <= index < count:
        raise ValueError(f"'{text}' is not a shard: expected I/N with 0 <= I < N, e.g. 3/16")
    return Shard(index, count)


def shard_folders(out_dir):
    """The shard folders under OUT_DIR/shards (relative to OUT_DIR), sorted by count and index."""
    found = []
    for path in glob.glob(os.path.join(glob.escape(out_dir), SHARDS_DIR, "*-of-*")):
        name = os.path.basename(path)
        match = FOLDER_PATTERN.match(name)
        if match and os.path.isdir(path):
            found.append(((int(match.group(2)), int(match.group(1))), os.path.join(SHARDS_DIR, name)))
    return [folder for _, folder in sorted(found)]


def saved_paths(out_dir, relative):
    """Every file that may hold saved games for `relative` (a path under OUT_DIR): the
    unsplit run's, then each shard's, those that exist."""
    candidates = [os.path.join(out_dir, relative)]
    candidates += [os.path.join(out_dir, folder, relative) for folder in shard_folders(out_dir)]
    return [path for path in candidates if os.path.exists(path)]


def merge_games(files):
    """{index: game} from [(path, {index: game})]; ValueError naming both files when a game
    index is saved twice (two runs played the same game, so the figures would count it twice)."""
    merged, where = {}, {}
    for path, games in files:
        for index, game in games.items():
            if index in merged:
                raise ValueError(f"game {index} is saved twice, in {where[index]} and in {path}: "
                                 f"delete one of the two runs' files (was a shard run twice at once?)")
            merged[index], where[index] = game, path
    return {index: merged[index] for index in sorted(merged)}
