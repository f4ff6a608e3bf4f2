"""Checks nnue_scripts.shard_data, the check of a generated data set's shards and their
join, on made-up 40-byte records: games are told apart by their rising game ply, a game
found in two shards or twice in one fails, and so does a joined file that lost, gained
or duplicated a record."""

import contextlib
import io
import os
import tempfile
import unittest

from nnue_scripts import shard_data


def record(game, ply):
    """A 40-byte record of `game` at `ply` (the position bytes say which game it is)."""
    return game.to_bytes(4, "little") * 8 + b"\0" * 4 + ply.to_bytes(2, "little") + b"\0\0"


def game(number, first=16, length=3):
    return [record(number, ply) for ply in range(first, first + length)]


class ShardDataTest(unittest.TestCase):
    def test_games_split_where_the_ply_does_not_rise(self):
        records = game(1) + game(2, first=20, length=2) + game(3, first=16, length=1)
        # Game 2 starts at ply 20 after game 1's ply 18: one run; game 3 starts again at 16.
        self.assertEqual([len(g) for g in shard_data.games(records)], [5, 1])
        self.assertEqual(shard_data.games([]), [])

    def test_disjoint_shards_and_an_exact_join_pass(self):
        a, b = game(1) + game(2), game(3)
        joined = list(reversed(a + b))
        summary = shard_data.check(("j.bin", joined), [("a.bin", a), ("b.bin", b)])
        self.assertEqual(summary, "2 shards, 3 games, none repeated; j.bin holds exactly their 9 records")

    def test_repeated_games_fail_naming_the_files(self):
        cases = (([("a.bin", game(1)), ("b.bin", game(2) + game(1))], "a game of 3 records is in a.bin and in b.bin"),
                 ([("a.bin", game(1) + game(1))], "a game of 3 records is twice in a.bin"))
        for shards, message in cases:
            with self.assertRaises(shard_data.DataError) as caught:
                shard_data.check(("j.bin", []), shards)
            self.assertEqual(str(caught.exception), message + ": the shards repeat each other's games")

    def test_a_join_that_differs_fails(self):
        shards = [("a.bin", game(1)), ("b.bin", game(2))]
        for joined, message in ((game(1) + game(2)[:2], "5 records, not the shards' 6 (0 not in any shard, 1 of the shards' missing)"),
                                (game(1) + game(2) + game(2)[:1], "7 records, not the shards' 6 (1 not in any shard, 0 of the shards' missing)")):
            with self.assertRaises(shard_data.DataError) as caught:
                shard_data.check(("j.bin", joined), shards)
            self.assertEqual(str(caught.exception), "j.bin: " + message)

    def test_the_command_reads_files_and_refuses_bad_ones(self):
        with tempfile.TemporaryDirectory() as directory:
            paths = {}
            for name, data in (("a.bin", game(1)), ("b.bin", game(2)), ("j.bin", game(2) + game(1))):
                paths[name] = os.path.join(directory, name)
                with open(paths[name], "wb") as f:
                    f.write(b"".join(data))
            with contextlib.redirect_stdout(io.StringIO()) as out:
                self.assertEqual(shard_data.main([paths["j.bin"], paths["a.bin"], paths["b.bin"]]), 0)
            self.assertIn("2 shards, 2 games, none repeated", out.getvalue())
            with open(paths["b.bin"], "ab") as f:
                f.write(b"x" * 7)
            with contextlib.redirect_stderr(io.StringIO()) as err:
                self.assertEqual(shard_data.main([paths["j.bin"], paths["a.bin"], paths["b.bin"]]), 1)
            self.assertEqual(err.getvalue(), f"shard_data: error: {paths['b.bin']}: 127 bytes is not a whole number "
                                             f"of 40-byte records\n")
            with contextlib.redirect_stderr(io.StringIO()) as err:
                self.assertEqual(shard_data.main([paths["j.bin"], os.path.join(directory, "a.plain")]), 1)
            self.assertIn("a.plain: not a .bin file", err.getvalue())


if __name__ == "__main__":
    unittest.main()
