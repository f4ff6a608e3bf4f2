"""Score adjudication (nnue_scripts.adjudication): when the resign and draw rules end a
game and with what result, fed move by move as the engines report their scores; the
options of match, gauntlet and study; how the settings are recorded, so that results
saved before adjudication existed still resume with it off; and games played through
match.play_game against a scripted engine (tests/fake_engine.py)."""

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

import chess
import chess.engine
import chess.pgn

from nnue_scripts import adjudication, gauntlet, match
from nnue_scripts.study import cli, report, rundir, settings, tournament
from nnue_scripts.adjudication import DRAW_TERMINATION, RESIGN_TERMINATION, Adjudicator, Rules

WHITE, BLACK = chess.WHITE, chess.BLACK
FAKE_ENGINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_engine.py")


def cp(value):
    return chess.engine.Cp(value)


def feed(rules, moves, first_move_number=1):
    """Feeds (side, score from that side's own view, or None) moves, white first from
    `first_move_number`; returns (the 0-based ply that ended the game, the Verdict) or
    (None, None)."""
    adjudicator = Adjudicator(rules)
    for ply, (side, score) in enumerate(moves):
        pov = None if score is None else chess.engine.PovScore(score, side)
        full_moves = first_move_number + (ply + 1) // 2 - 1  # board.fullmove_number - 1 after the move
        verdict = adjudicator.update(pov, full_moves)
        if verdict:
            return ply, verdict
    return None, None


def both(white_view, plies, first=WHITE):
    """`plies` moves of alternating sides whose engines both see white at `white_view`
    (a Score from white's view): each reports it from its own view."""
    sides = [first if i % 2 == 0 else not first for i in range(plies)]
    return [(side, white_view if side == WHITE else -white_view) for side in sides]


RESIGN = Rules(resign_score=1000, resign_moves=3)
DRAW = Rules(draw_moves=8, draw_score=10, draw_after=40)


class ResignRule(unittest.TestCase):
    def test_a_win_for_white_after_three_moves_of_each_side(self):
        ply, verdict = feed(RESIGN, both(cp(1000), 20))
        self.assertEqual(ply, 5)  # the sixth ply: three moves each
        self.assertEqual((verdict.result, verdict.termination), ("1-0", RESIGN_TERMINATION))
        self.assertIn("white wins", verdict.note)

    def test_a_win_for_black(self):
        ply, verdict = feed(RESIGN, both(cp(-2500), 20))
        self.assertEqual((ply, verdict.result), (5, "0-1"))

    def test_the_threshold_is_inclusive(self):
        self.assertIsNone(feed(RESIGN, both(cp(999), 40))[0])

    def test_one_engine_disagreeing_is_no_resignation(self):
        # White's engine sees itself +1500, black's sees an equal game.
        moves = [(WHITE, cp(1500)) if i % 2 == 0 else (BLACK, cp(0)) for i in range(40)]
        self.assertEqual(feed(RESIGN, moves), (None, None))
        # Both confident of their own side: they do not agree on who is ahead.
        moves = [(WHITE, cp(1500)) if i % 2 == 0 else (BLACK, cp(1500)) for i in range(40)]
        self.assertEqual(feed(RESIGN, moves), (None, None))

    def test_a_move_without_a_score_restarts_the_count(self):
        moves = both(cp(1200), 5) + [(BLACK, None)] + both(cp(1200), 20)
        ply, verdict = feed(RESIGN, moves)
        self.assertEqual((ply, verdict.result), (5 + 1 + 5, "1-0"))

    def test_a_change_of_the_side_ahead_restarts_the_count(self):
        moves = both(cp(1200), 4) + both(cp(-1200), 20)
        ply, verdict = feed(RESIGN, moves)
        self.assertEqual((ply, verdict.result), (4 + 5, "0-1"))

    def test_mate_scores_are_beyond_any_threshold(self):
        rules = Rules(resign_score=30000, resign_moves=2)
        # White mates: white's engine reports mate in n, black's engine mated in n.
        moves = [(WHITE, chess.engine.Mate(7)), (BLACK, chess.engine.Mate(-6)),
                 (WHITE, chess.engine.Mate(6)), (BLACK, chess.engine.Mate(-5))]
        ply, verdict = feed(rules, moves)
        self.assertEqual((ply, verdict.result), (3, "1-0"))
        self.assertEqual(adjudication.centipawns(chess.engine.Mate(0)), float("-inf"))  # mated
        self.assertEqual(adjudication.centipawns(chess.engine.MateGiven), float("inf"))
        self.assertEqual(adjudication.centipawns(cp(-35)), -35)

    def test_black_to_move_first(self):
        ply, verdict = feed(RESIGN, both(cp(-1000), 20, first=BLACK))
        self.assertEqual((ply, verdict.result), (5, "0-1"))


class DrawRule(unittest.TestCase):
    def test_a_draw_once_forty_moves_are_played(self):
        ply, verdict = feed(DRAW, both(cp(0), 200))
        # 80 plies make 40 full moves; the streak of 16 plies is long since complete.
        self.assertEqual(ply, 79)
        self.assertEqual((verdict.result, verdict.termination), ("1/2-1/2", DRAW_TERMINATION))

    def test_eight_moves_of_each_side_within_the_score(self):
        moves = both(cp(50), 100) + both(cp(-10), 40)
        ply, verdict = feed(DRAW, moves)
        self.assertEqual((ply, verdict.result), (100 + 15, "1/2-1/2"))

    def test_one_engine_outside_the_score_restarts_the_count(self):
        # Plies 90..98 within, black's engine at 11 cp on ply 99, within again from 100.
        moves = both(cp(50), 90) + both(cp(0), 9) + [(BLACK, cp(11))] + both(cp(0), 40)
        self.assertEqual(feed(DRAW, moves)[0], 100 + 15)

    def test_a_missing_score_restarts_the_count(self):
        moves = both(cp(50), 90) + both(cp(0), 9) + [(BLACK, None)] + both(cp(0), 40)
        self.assertEqual(feed(DRAW, moves)[0], 100 + 15)

    def test_a_mate_score_is_never_a_draw(self):
        self.assertIsNone(feed(DRAW, both(chess.engine.Mate(20), 200))[0])

    def test_the_opening_move_number_counts(self):
        # An opening at move 38: two moves of each side within the score at move 40.
        rules = Rules(draw_moves=2, draw_score=10, draw_after=40)
        ply, _ = feed(rules, both(cp(3), 20), first_move_number=38)
        self.assertEqual(ply, 5)  # after black's move 40, full moves 40

    def test_both_rules_together(self):
        rules = Rules(**adjudication.ON)
        self.assertEqual(feed(rules, both(cp(0), 200))[1].termination, DRAW_TERMINATION)
        self.assertEqual(feed(rules, both(cp(0), 30) + both(cp(1000), 20))[1].termination, RESIGN_TERMINATION)


class RulesAndOptions(unittest.TestCase):
    def parse(self, argv, defaults=None):
        parser = argparse.ArgumentParser()
        adjudication.add_arguments(parser, defaults)
        args = parser.parse_args(argv)
        adjudication.check_arguments(parser, args)
        return args

    def test_off_rules_adjudicate_nothing_and_record_nothing(self):
        rules = Rules()
        self.assertFalse(rules.enabled)
        self.assertIsNone(rules.record())
        self.assertEqual(feed(rules, both(cp(5000), 100)), (None, None))
        self.assertEqual(feed(rules, both(cp(0), 200)), (None, None))
        # Argument sets made before adjudication existed read as off.
        self.assertIsNone(Rules.from_args(argparse.Namespace(tc="1+0")).record())

    def test_the_record_holds_the_rules_that_are_on(self):
        self.assertEqual(Rules.from_args(self.parse(["--resign-score", "800"])).record(),
                         {"resign": {"score": 800, "moves": 3}})
        self.assertEqual(Rules.from_args(self.parse([], adjudication.ON)).record(),
                         {"resign": {"score": 1000, "moves": 3}, "draw": {"score": 10, "moves": 8, "after": 40}})
        # A rule's parameters do not matter while it is off.
        self.assertIsNone(Rules.from_args(self.parse(["--draw-score", "5", "--resign-moves", "9"])).record())

    def test_unusable_values_are_usage_errors(self):
        for argv in (["--resign-score", "-1"], ["--draw-moves", "-2"], ["--resign-score", "100", "--resign-moves", "0"],
                     ["--resign-score", "10", "--draw-moves", "4", "--draw-score", "10"]):
            with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit, msg=argv) as exit:
                self.parse(argv)
            self.assertEqual(exit.exception.code, 2)

    def test_match_and_gauntlet_default_off_study_and_the_strength_preset_on(self):
        parser = argparse.ArgumentParser()
        match.add_game_arguments(parser, "test")
        self.assertFalse(Rules.from_args(parser.parse_args([])).enabled)
        self.assertFalse(Rules.from_args(gauntlet.parse_args([])[1]).enabled)
        strength = gauntlet.parse_args(["--preset", "strength"])[1]
        self.assertEqual(Rules.from_args(strength).record(), Rules(**adjudication.ON).record())
        off = gauntlet.parse_args(["--preset", "strength", "--resign-score", "0", "--draw-moves", "0"])[1]
        self.assertIsNone(Rules.from_args(off).record())
        small = cli.parse_args(["--small", "--out-dir", "unused"])
        on = Rules(**adjudication.ON).record()
        self.assertEqual(Rules.from_args(small).record(), on)
        self.assertEqual(Rules.from_args(tournament.game_args(small, "nodes300")).record(), on)

    def test_counts(self):
        games = [{"termination": t} for t in (RESIGN_TERMINATION, "normal", DRAW_TERMINATION, RESIGN_TERMINATION,
                                              "adjudication")]
        self.assertEqual(adjudication.counts(games), {"resign": 2, "draw": 1})
        tally = match.Tally(None)
        for game in games:
            tally.add({"index": 0, "a_score": 0.5, "problem": None, **game})
        self.assertEqual(tally.adjudicated, {"resign": 2, "draw": 1})


class OlderResultsResume(unittest.TestCase):
    """Results saved before adjudication existed carry no adjudication key: they resume
    with both rules off and are refused, with the flags that resume them, with either on."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def test_a_gauntlet_pairing(self):
        player = gauntlet.parse_player("classical:Use NNUE=false", "nnue")
        opponent = gauntlet.parse_opponent("toga2:/usr/games/toga2")
        off = gauntlet.parse_args(["--games", "2"])[1]
        old_config = gauntlet.pairing_config(off, player, opponent)
        self.assertNotIn("adjudication", old_config)
        path = os.path.join(self.dir.name, "classical--toga2.json")
        gauntlet.save_pairing(path, old_config, {0: {"index": 0, "a_score": 1.0}})
        self.assertEqual(list(gauntlet.load_pairing(path, gauntlet.pairing_config(off, player, opponent))), [0])
        on = gauntlet.parse_args(["--games", "2", "--resign-score", "1000"])[1]
        with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit):
            gauntlet.load_pairing(path, gauntlet.pairing_config(on, player, opponent))
        self.assertIn("rerun with --resign-score 0 --draw-moves 0 to resume them", err.getvalue())

    def test_a_study_directory(self):
        args = cli.parse_args(["--small", "--out-dir", self.dir.name])
        on = settings.settings_of(args)
        self.assertEqual(on["adjudication"], Rules(**adjudication.ON).record())
        old = {k: v for k, v in on.items() if k != "adjudication"}  # as saved before this option existed
        with open(os.path.join(self.dir.name, "settings.json"), "w") as f:
            json.dump(old, f)
        directory = rundir.Study(self.dir.name)
        with self.assertRaises(rundir.StudyError) as refused:
            directory.check_settings(on)
        self.assertIn('adjudication: saved "(none)"', str(refused.exception))
        self.assertIn("--resign-score 0 --draw-moves 0", str(refused.exception))
        off = cli.parse_args(["--small", "--out-dir", self.dir.name, "--resign-score", "0", "--draw-moves", "0"])
        directory.check_settings(settings.settings_of(off))  # resumes
        # Another threshold is another setting, named field by field in a pairing.
        saved_config = {"max_plies": 60, "adjudication": {"resign": {"score": 1000, "moves": 3}}}
        path = os.path.join(self.dir.name, "pairing.json")
        with open(path, "w") as f:
            json.dump({"config": saved_config, "games": []}, f)
        with self.assertRaises(rundir.StudyError) as refused:
            tournament.load_pairing(path, {"max_plies": 60, "adjudication": {"resign": {"score": 800, "moves": 3}}})
        self.assertIn("adjudication.resign.score: saved 1000, now 800", str(refused.exception))
        self.assertNotIn("to resume them", str(refused.exception))
        self.assertEqual(tournament.load_pairing(path, saved_config), {})

    def test_the_hint_only_when_adjudication_is_the_only_difference(self):
        self.assertEqual(adjudication.resume_hint({"a": 1}, {"a": 1, "adjudication": {}}).count("--draw-moves 0"), 1)
        self.assertEqual(adjudication.resume_hint({"a": 1}, {"a": 2, "adjudication": {}}), "")
        self.assertEqual(adjudication.resume_hint({"a": 1, "adjudication": {}}, {"a": 1}), "")


class Reports(unittest.TestCase):
    def test_the_gauntlet_report_counts_the_adjudicated_games(self):
        args = gauntlet.parse_args(["--games", "4", "--resign-score", "1000"])[1]
        player, sf = gauntlet.parse_player("nnue", "nnue"), gauntlet.parse_opponent("sf:stockfish")
        ends = (RESIGN_TERMINATION, "normal", RESIGN_TERMINATION, "adjudication")
        saved = {("nnue", "sf"): {i: {"index": i, "result": "1-0", "a_score": 1.0, "termination": end, "problem": None}
                                  for i, end in enumerate(ends)}}
        rows = gauntlet.pairing_rows([player], [sf], saved)
        sets = [gauntlet.OpeningSet("openings", "", ["f"])]
        extra = gauntlet.report_data(args, [player], [sf], saved, sets, rows, None)
        self.assertEqual(extra["adjudicated"], {"resign": 2, "draw": 0})
        report = gauntlet.markdown(args, [player], [sf], rows, {}, [], extra)
        self.assertIn("Score adjudication: a win when both engines score one side at least 1000 cp ahead for 3 moves "
                      "each. Games ended 2 by resign adjudication, 0 by draw adjudication.", report)
        off = gauntlet.parse_args([])[1]
        self.assertNotIn("Score adjudication", gauntlet.markdown(off, [player], [sf], rows, {}, []))

    def test_the_study_report_counts_per_condition(self):
        args = cli.parse_args(["--small", "--out-dir", "unused"])
        counts = {"nodes300": {"resign": 1, "draw": 0}, "movetime0.05": {"resign": 0, "draw": 2}}
        text = report.adjudication_text(args, counts)
        self.assertTrue(text.startswith("Score adjudication: a win when both engines score one side at least 1000 cp"))
        self.assertTrue(text.endswith("(300 nodes: 1 by resign adjudication, 0 by draw adjudication; "
                                      "50 ms: 0 by resign adjudication, 2 by draw adjudication)."))
        off = cli.parse_args(["--small", "--out-dir", "unused", "--resign-score", "0", "--draw-moves", "0"])
        self.assertEqual(report.adjudication_text(off, {}), "No score adjudication.")


def game_args(argv):
    parser = argparse.ArgumentParser()
    match.add_game_arguments(parser, "adjudication test")
    args = parser.parse_args(["--nodes", "1", "--book", "", *argv])
    match.check_game_arguments(parser, args)
    return args


def fake(name, spec):
    return match.Player([sys.executable, FAKE_ENGINE, spec], name, {})


class PlayedGames(unittest.TestCase):
    """Whole games through match.play_game against the scripted engine (about 0.3 s each)."""

    def test_both_engines_agree_white_wins(self):
        game = match.play_game(0, game_args(["--resign-score", "1000"]), [fake("A", "1500"), fake("B", "1500")],
                               [chess.STARTING_FEN])
        self.assertEqual((game["result"], game["termination"], game["plies"]), ("1-0", RESIGN_TERMINATION, 6))
        self.assertEqual(game["a_score"], 1.0)  # game 0: A has white
        pgn = chess.pgn.read_game(io.StringIO(game["pgn"]))
        self.assertEqual(pgn.headers["Termination"], "adjudication")
        self.assertIn("white wins by score adjudication", pgn.end().comment)

    def test_a_dead_draw_and_a_disagreement(self):
        args = game_args(["--draw-moves", "2", "--draw-after", "3", "--resign-score", "1000"])
        game = match.play_game(1, args, [fake("A", "4"), fake("B", "-4")], [chess.STARTING_FEN])
        self.assertEqual((game["result"], game["termination"], game["plies"]), ("1/2-1/2", DRAW_TERMINATION, 6))
        # One engine sees white winning, the other a level game: played to --max-plies.
        args = game_args(["--resign-score", "1000", "--max-plies", "12"])
        game = match.play_game(0, args, [fake("A", "1500"), fake("B", "0")], [chess.STARTING_FEN])
        self.assertEqual((game["termination"], game["plies"]), ("adjudication", 12))

    def test_the_clock_starts_once_the_engine_has_loaded_its_options(self):
        # Each engine takes 0.6 s over its options (a net's loading): with 50 ms a move
        # and 0.2 s of allowed latency, charging that to the first move would forfeit it.
        parser = argparse.ArgumentParser()
        match.add_game_arguments(parser, "loading test")
        args = parser.parse_args(["--movetime", "0.05", "--movetime-margin", "0.2", "--book", "", "--max-plies", "2"])
        match.check_game_arguments(parser, args)
        slow = [match.Player([sys.executable, FAKE_ENGINE, "0"], name, {"LoadDelay": 600}) for name in "AB"]
        game = match.play_game(0, args, slow, [chess.STARTING_FEN])
        self.assertIsNone(game["problem"])
        self.assertEqual(game["plies"], 2)
        self.assertLess(game["a_clock"]["seconds"], 0.25)

    def test_off_by_default(self):
        game = match.play_game(0, game_args(["--max-plies", "8"]), [fake("A", "1500"), fake("B", "1500")],
                               [chess.STARTING_FEN])
        self.assertEqual((game["result"], game["termination"], game["plies"]), ("1/2-1/2", "adjudication", 8))


if __name__ == "__main__":
    unittest.main()
