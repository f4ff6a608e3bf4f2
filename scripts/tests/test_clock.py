"""The match runner's forfeit rule (nnue_scripts.match.Clock), without engines: a move over
the time left by at most --time-margin ms is counted, not a forfeit, and its debt stays
on the clock."""

import argparse
import io
import unittest

import chess
import chess.pgn

from nnue_scripts import match


def clock(tc="1+0.1", margin=0.0):
    parser = argparse.ArgumentParser()
    match.add_game_arguments(parser, "test")
    return match.Clock(parser.parse_args(["--tc", tc, "--time-margin", str(margin)]))


class ClockTest(unittest.TestCase):
    def test_without_a_margin_any_overshoot_forfeits(self):
        c = clock()
        self.assertTrue(c.charge(chess.WHITE, 0.9, None))  # 0.1 left, +0.1
        self.assertFalse(c.charge(chess.WHITE, 0.21, None))  # 10 ms over

    def test_an_overshoot_within_the_margin_is_counted_and_kept_as_debt(self):
        c = clock(margin=50)
        self.assertTrue(c.charge(chess.WHITE, 1.03, None))  # 30 ms over: -0.03, then +0.1
        self.assertAlmostEqual(c.left[chess.WHITE], 0.07)
        stats = c.side_stats(chess.WHITE)
        self.assertEqual((stats["moves"], stats["overshoots"], stats["min_left_ms"]), (1, 1, -30.0))
        self.assertTrue(c.charge(chess.WHITE, 0.05, None))
        self.assertEqual(c.side_stats(chess.WHITE)["min_left_ms"], -30.0)
        # 0.12 left; 0.18 is 60 ms over, beyond the 50 ms margin.
        self.assertFalse(c.charge(chess.WHITE, 0.18, None))
        self.assertEqual(c.side_stats(chess.WHITE)["min_left_ms"], -60.0)
        self.assertEqual(c.side_stats(chess.BLACK)["moves"], 0)

    def test_debt_adds_up_and_the_engine_is_told_a_positive_clock(self):
        c = clock(tc="1+0.01", margin=50)
        self.assertTrue(c.charge(chess.BLACK, 1.04, None))  # -0.04 + 0.01 = -0.03
        limit, _ = c.limit(1)
        self.assertEqual(limit.black_clock, match.Clock.MIN_CLOCK)
        self.assertFalse(c.charge(chess.BLACK, 0.025, None))  # -0.055: over the margin
        self.assertEqual(c.side_stats(chess.BLACK)["overshoots"], 2)

    def test_every_move_is_recorded_with_the_clock_after_its_increment(self):
        c = clock(tc="1+0.1")
        c.charge(chess.WHITE, 0.25, None)
        c.charge(chess.BLACK, 0.5, None)
        self.assertEqual(len(c.history), 2)
        self.assertAlmostEqual(c.history[0][0], 0.25)
        self.assertAlmostEqual(c.history[0][1], 0.85)
        self.assertAlmostEqual(c.history[1][1], 0.6)

    def test_fixed_nodes_record_the_move_time_without_a_clock(self):
        parser = argparse.ArgumentParser()
        match.add_game_arguments(parser, "test")
        c = match.Clock(parser.parse_args(["--nodes", "1000"]))
        c.charge(chess.WHITE, 0.125, None)
        self.assertEqual(c.history, [(0.125, None)])


class PgnClockTest(unittest.TestCase):
    """The PGN carries each move's time and clock as [%emt] and [%clk], read back exactly
    (to the millisecond) by python-chess, and a score adjudication's note stays with them."""

    def game(self, times, note=None):
        parser = argparse.ArgumentParser()
        match.add_game_arguments(parser, "test")
        args = parser.parse_args(["--tc", "5+0.05"])
        board = chess.Board()
        for uci in ("e2e4", "e7e5", "g1f3"):
            board.push_uci(uci)
        text = match.make_pgn(board, chess.STARTING_FEN, "a", "b", "*", "normal", 0, args,
                              note, times)
        return chess.pgn.read_game(io.StringIO(text))

    def test_times_and_clocks_read_back(self):
        game = self.game([(0.123, 4.927), (0.2, 4.85), (1.5, 3.477)])
        nodes = list(game.mainline())
        self.assertEqual([n.emt() for n in nodes], [0.123, 0.2, 1.5])
        self.assertEqual([n.clock() for n in nodes], [4.927, 4.85, 3.477])

    def test_a_move_without_a_clock_gets_its_time_only(self):
        nodes = list(self.game([(0.5, None)] * 3).mainline())
        self.assertEqual([n.emt() for n in nodes], [0.5] * 3)
        self.assertEqual([n.clock() for n in nodes], [None] * 3)

    def test_an_adjudication_note_is_kept_beside_the_clock(self):
        end = self.game([(0.1, 4.95)] * 3, note="resign adjudication").end()
        self.assertIn("resign adjudication", end.comment)
        self.assertEqual(end.clock(), 4.95)


if __name__ == "__main__":
    unittest.main()
