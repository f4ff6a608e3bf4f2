"""An engine that fails in a match (nnue_scripts.match), against the scripted engine
(tests/fake_engine.py): a failure loses the game for the side that failed whatever its
colour, the run ends after it, an option an engine does not have or refuses stops the
match before its first game, and `--help` describes every option."""

import os
import stat
import subprocess
import sys
import tempfile
import unittest

import chess

from nnue_scripts import common, match
from tests.test_adjudication import FAKE_ENGINE, fake, game_args

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Seconds a subprocess may take before the test calls it stuck (each takes about 1 s).
STUCK_AFTER = 60


def failing(name):
    """A player whose engine refuses to start: it has no option Bogus."""
    return match.Player([sys.executable, FAKE_ENGINE, "0"], name, {"Bogus": "1"})


def run_python(args, cwd=None):
    env = {**os.environ, "PYTHONPATH": SCRIPTS}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=STUCK_AFTER,
                          cwd=cwd, env=env)


class FailuresLoseForTheSideThatFailed(unittest.TestCase):
    def test_black_failing_to_start_loses(self):
        game = match.play_game(0, game_args([]), [fake("A", "0"), failing("B")], [chess.STARTING_FEN])
        self.assertEqual((game["result"], game["a_score"], game["termination"], game["plies"]),
                         ("1-0", 1.0, "crash", 0))
        self.assertTrue(game["problem"].startswith("black (B) engine failure: EngineError('engine does not "
                                                   "support option Bogus"), game["problem"])

    def test_a_failing_with_black_is_a_loss_for_a(self):
        game = match.play_game(1, game_args([]), [failing("A"), fake("B", "0")], [chess.STARTING_FEN])
        self.assertEqual((game["result"], game["a_score"]), ("1-0", 0.0))
        self.assertTrue(game["problem"].startswith("black (A) engine failure"), game["problem"])

    def test_a_failing_with_white_is_a_loss_for_a(self):
        game = match.play_game(0, game_args([]), [failing("A"), fake("B", "0")], [chess.STARTING_FEN])
        self.assertEqual((game["result"], game["a_score"]), ("0-1", 0.0))
        self.assertTrue(game["problem"].startswith("white (A) engine failure"), game["problem"])

    def test_a_crash_mid_game_loses_for_the_side_to_move(self):
        game = match.play_game(1, game_args([]), [fake("A", "crash"), fake("B", "0")], [chess.STARTING_FEN])
        # Game 1: B has white and plays one move, A crashes on its first.
        self.assertEqual((game["result"], game["a_score"], game["termination"], game["plies"]),
                         ("1-0", 0.0, "crash", 1))
        self.assertTrue(game["problem"].startswith("black (A) engine failure: EngineTerminatedError"),
                        game["problem"])

    def test_the_run_ends_after_black_fails_to_start(self):
        # White's engine had started: were it left running, the interpreter would wait
        # for it at exit for ever.
        code = ("import chess; from nnue_scripts import match; "
                "from tests.test_adjudication import fake, game_args; from tests.test_match_failures import failing; "
                "print(match.play_game(0, game_args([]), [fake('A', '0'), failing('B')], [chess.STARTING_FEN])['result'])")
        done = run_python(["-c", code])
        self.assertEqual((done.returncode, done.stdout), (0, "1-0\n"), done.stderr)


class RefusedOptionsStopTheMatch(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.engine = os.path.join(folder.name, "engine")
        with open(self.engine, "w") as out:
            out.write(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE_ENGINE}" 0\n')
        os.chmod(self.engine, os.stat(self.engine).st_mode | stat.S_IXUSR)

    def match(self, *options):
        return run_python(["-m", "nnue_scripts.match", "--engine", self.engine, "--games", "2", "--nodes", "1",
                           "--book", "", *options])

    def test_a_refused_net_is_an_error_before_the_first_game(self):
        done = self.match("--option-a", "EvalFile=bad.nnue")
        self.assertEqual((done.returncode, done.stdout), (1, ""))
        self.assertEqual(done.stderr, f"match.py: error: engine A ({self.engine}) with options "
                                      "{'EvalFile': 'bad.nnue'}: the engine refused: setoption: EvalFile 'bad.nnue' "
                                      "not loaded, keeping fake.nnue\n")

    def test_an_unknown_option_is_an_error_and_the_run_ends(self):
        done = self.match("--option-b", "Bogus=1")
        self.assertEqual((done.returncode, done.stdout), (1, ""))
        self.assertTrue(done.stderr.startswith(f"match.py: error: engine B ({self.engine}) with options "
                                               "{'Bogus': '1'}: engine does not support option Bogus"), done.stderr)
        self.assertEqual(done.stderr.count("\n"), 1)

    def test_accepted_options_play(self):
        done = self.match("--option", "LoadDelay=1", "--max-plies", "4")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("final: 2 games: +0 =2 -0 (A's view)", done.stdout)

    def test_start_engine_raises_on_a_refusal(self):
        with self.assertRaises(common.OptionsRefused) as refused:
            common.start_engine([sys.executable, FAKE_ENGINE, "0"], {"EvalFile": "x.nnue"})
        self.assertEqual(str(refused.exception),
                         "the engine refused: setoption: EvalFile 'x.nnue' not loaded, keeping fake.nnue")


class Help(unittest.TestCase):
    def test_every_option_is_described_and_the_description_is_whole(self):
        parser = match.make_parser()
        self.assertTrue(parser.description.startswith("Plays a match between two UCI engines"))
        self.assertTrue(parser.description.endswith("and reports the Elo difference with its 95 % interval."))
        undescribed = [action.option_strings[0] for action in parser._actions if not action.help]
        self.assertEqual(undescribed, [])


if __name__ == "__main__":
    unittest.main()
