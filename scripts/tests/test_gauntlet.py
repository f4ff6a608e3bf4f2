"""Checks nnue_scripts.gauntlet and its parts without engines: player and opponent
specifications (entrants), the saved pairings that make a gauntlet resumable (gauntlet),
and the numbers and the report built from results (gauntlet_results, gauntlet_report).
(Playing needs the Debian engines, which CI machines do not have.)"""

import argparse
import contextlib
import io
import json
import os
import tempfile
import unittest

from nnue_scripts import common
from nnue_scripts import entrants
from nnue_scripts import gauntlet
from nnue_scripts import gauntlet_report
from nnue_scripts import gauntlet_results
from nnue_scripts import opponents
from nnue_scripts import rating_fit


def parse(argv):
    return gauntlet.parse_args(argv)[1]


class SpecTest(unittest.TestCase):
    def test_player_options(self):
        player = entrants.parse_player("nnue:EvalFile=nets/x.nnue, Use NNUE = true", "target/release/nnue")
        self.assertEqual(player.name, "nnue")
        self.assertEqual(player.command, ["target/release/nnue"])
        self.assertEqual(player.options, {"EvalFile": "nets/x.nnue", "Use NNUE": "true"})
        self.assertEqual(entrants.parse_player("plain", "e").options, {})

    def test_xboard_opponent_with_arguments(self):
        opponent = entrants.parse_opponent("phalanx:/usr/games/phalanx -b- -l-:xboard")
        self.assertEqual(opponent.command, ["/usr/games/phalanx", "-b-", "-l-"])
        self.assertEqual(opponent.protocol, "xboard")
        self.assertIsNone(opponent.anchor)

    def test_strength_limited_stockfish_is_an_anchor(self):
        opponent = entrants.parse_opponent("sf1500:stockfish:UCI_LimitStrength=true,UCI_Elo=1500,Hash=16")
        self.assertEqual(opponent.protocol, "uci")
        self.assertEqual(opponent.anchor, 1500.0)
        self.assertEqual(opponent.options["Hash"], "16")
        self.assertIsNone(entrants.parse_opponent("sf:stockfish:UCI_Elo=1500").anchor)

    def test_bad_specifications_are_usage_errors(self):
        for spec in ("noname", "a/b:stockfish", "sf:stockfish:Hash", "sf::uci", "x:'unclosed"):
            with self.assertRaises(entrants.UsageError, msg=spec):
                entrants.parse_opponent(spec)
        with self.assertRaises(entrants.UsageError):
            entrants.parse_sf_elos("1350,strong")
        with self.assertRaises(entrants.UsageError):
            entrants.parse_anchor("toga2=strong")

    def test_the_default_clock_is_the_gauntlet_one(self):
        self.assertEqual(parse([]).tc, gauntlet.DEFAULT_TC)
        self.assertEqual(parse(["--tc", "1+0.01"]).tc, "1+0.01")


    def test_a_player_can_run_another_build(self):
        args = parse(["--player", "new", "--player", "old", "--player-engine", "old=/builds/old/nnue",
                      "--opponent", "sf:stockfish"])
        players, _ = gauntlet.build_entrants(None, args, [])
        self.assertEqual([(p.name, p.command) for p in players],
                         [("new", [args.engine]), ("old", ["/builds/old/nnue"])])
        for bad in (["--player-engine", "nobody=/x"], ["--player-engine", "old"]):
            args = parse(["--player", "old", "--opponent", "sf:stockfish", *bad])
            with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
                gauntlet.build_entrants(argparse.ArgumentParser(), args, [])

    def test_the_strength_preset(self):
        args = parse(["--preset", "strength"])
        self.assertEqual((args.tc, args.games, args.time_margin, args.sf_elo), ("5+0.05", 34, 200.0, "2100,2400,2700"))
        self.assertEqual(opponents.parse_debian(args.debian_engines), ("glaurung", "toga2", "ethereal"))
        self.assertEqual([os.path.basename(b) for b in args.book], ["openings.epd", "openings-random.epd"])
        # The earlier opponents stay reachable by name, with everything else the same.
        old = parse(["--preset", "strength-2025"])
        self.assertEqual((old.tc, old.games, old.sf_elo), ("5+0.05", 34, "1800,2100,2400"))
        self.assertEqual(opponents.parse_debian(old.debian_engines), ("glaurung", "toga2", "phalanx"))
        self.assertEqual(old.player, [gauntlet.STRENGTH_REFERENCE, "default-net"])
        with self.assertRaises(entrants.UsageError):
            opponents.parse_debian("glaurung,crafty")
        self.assertEqual(args.player, [gauntlet.STRENGTH_REFERENCE, "default-net"])
        self.assertTrue(args.out_dir.endswith(os.path.join("target", "strength")))
        # Flags override the preset; candidates replace the default net, classical stays.
        args = parse(["--preset", "strength", "--games", "2", "--tc", "1+0.01", "--player", "c3:EvalFile=c3.nnue",
                      "--book", "a.epd"])
        self.assertEqual((args.games, args.tc, args.book), (2, "1+0.01", ["a.epd"]))
        self.assertEqual(args.player, [gauntlet.STRENGTH_REFERENCE, "c3:EvalFile=c3.nnue"])
        # Without the preset: one book and no margin, as before.
        args = parse([])
        self.assertEqual((len(args.book), args.time_margin, args.player), (1, 0.0, []))


def game(index, a_score, problem=None, forfeit=None, a_clock=None, b_clock=None):
    result = {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}[a_score]
    return {"index": index, "result": result, "a_score": a_score, "termination": "normal", "problem": problem,
            "plies": 40, "forfeit": forfeit, "a_clock": a_clock, "b_clock": b_clock}


class PairingFileTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.args = parse(["--games", "4", "--tc", "1+0.01"])
        self.player = entrants.parse_player("classical:Use NNUE=false", "nnue")
        self.opponent = entrants.parse_opponent("toga2:/usr/games/toga2:OwnBook=false")
        self.path = gauntlet.pairing_path(self.dir.name, self.player, self.opponent, ".json")
        self.config = gauntlet.pairing_config(self.args, self.player, self.opponent)

    def tearDown(self):
        self.dir.cleanup()

    def test_saved_games_come_back(self):
        self.assertEqual(gauntlet.load_pairing(self.path, self.config), {})
        games = {2: game(2, 0.5), 0: game(0, 1.0)}
        gauntlet.save_pairing(self.path, self.config, games)
        self.assertEqual(self.path, os.path.join(self.dir.name, "classical--toga2.json"))
        self.assertEqual(gauntlet.load_pairing(self.path, self.config), games)
        with open(self.path) as f:
            self.assertEqual([g["index"] for g in json.load(f)["games"]], [0, 2])

    def test_other_settings_are_refused(self):
        gauntlet.save_pairing(self.path, self.config, {0: game(0, 1.0)})
        other = gauntlet.pairing_config(parse(["--tc", "10+0.1"]), self.player, self.opponent)
        with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit) as exit:
            gauntlet.load_pairing(self.path, other)
        self.assertEqual(exit.exception.code, 1)
        self.assertIn("classical--toga2.json: saved with other settings", err.getvalue())

    def test_a_rebuilt_engine_at_the_same_path_is_refused(self):
        engine = os.path.join(self.dir.name, "engine")
        with open(engine, "wb") as f:
            f.write(b"first build")
        player = entrants.Entrant("classical", [engine], options={"Use NNUE": "false"})
        config = gauntlet.pairing_config(self.args, player, self.opponent)
        self.assertEqual(config["player"]["contents"], {engine: common.file_sha256(engine)})
        gauntlet.save_pairing(self.path, config, {0: game(0, 1.0)})
        with open(engine, "wb") as f:
            f.write(b"second build")
        rebuilt = gauntlet.pairing_config(self.args, player, self.opponent)
        with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit):
            gauntlet.load_pairing(self.path, rebuilt)
        self.assertIn("its binary or net contents", err.getvalue())

    # A one-line book, and the same line edited.
    E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
    START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"

    def book_config(self, lines, name):
        book = os.path.join(self.dir.name, name)
        with open(book, "w") as f:
            f.write(lines)
        return gauntlet.pairing_config(parse(["--book", book]), self.player, self.opponent)

    def test_the_same_book_elsewhere_resumes_and_an_edited_one_is_refused(self):
        saved = self.book_config(self.E4, "a.epd")
        gauntlet.save_pairing(self.path, saved, {0: game(0, 1.0)})
        # Another checkout: the same bytes under another path.
        moved = self.book_config(self.E4, "b.epd")
        self.assertNotEqual(moved["book"], saved["book"])
        self.assertEqual(list(gauntlet.load_pairing(self.path, moved)), [0])
        # The same path, other bytes.
        edited = self.book_config(self.START, "a.epd")
        with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit):
            gauntlet.load_pairing(self.path, edited)
        self.assertIn("saved with other settings", err.getvalue())

    def test_a_pairing_saved_before_the_book_hash_matches_on_its_path(self):
        current = self.book_config(self.E4, "a.epd")
        old = {k: v for k, v in current.items() if k != gauntlet.BOOK_HASH}
        gauntlet.save_pairing(self.path, old, {0: game(0, 1.0)})
        self.assertEqual(list(gauntlet.load_pairing(self.path, current)), [0])
        moved = self.book_config(self.E4, "b.epd")
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            gauntlet.load_pairing(self.path, moved)

    def test_a_damaged_file_is_an_error_naming_it(self):
        with open(self.path, "w") as f:
            f.write('{"config": ')
        with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit):
            gauntlet.load_pairing(self.path, self.config)
        self.assertIn(f"gauntlet.py: error: {self.path}: cannot read the saved pairing", err.getvalue())


class ReportTest(unittest.TestCase):
    def test_tables_and_ratings_follow_the_results(self):
        args = parse(["--games", "4", "--tc", "1+0.01"])
        player = entrants.parse_player("nnue", "nnue")
        sf = entrants.parse_opponent("sf1800:stockfish:UCI_LimitStrength=true,UCI_Elo=1800")
        glaurung = entrants.parse_opponent("glaurung:glaurung")
        saved = {
            ("nnue", "sf1800"): {i: game(i, s) for i, s in enumerate((1.0, 0.5, 0.0, 1.0))},
            ("nnue", "glaurung"): {i: game(i, s, "crash" if i == 3 else None) for i, s in enumerate((0.0, 0.0, 0.5, 0.0))},
        }
        rows = gauntlet_results.pairing_rows([player], [sf, glaurung], saved)
        self.assertEqual([(r["wins"], r["draws"], r["losses"], r["failures"]) for r in rows], [(2, 1, 1, 0), (0, 1, 3, 1)])
        ratings = gauntlet_results.fit(rows, [sf, glaurung])
        expected = rating_fit.fit_ratings([("nnue", "sf1800", 2, 1, 1), ("nnue", "glaurung", 0, 1, 3)], {"sf1800": 1800})
        self.assertAlmostEqual(ratings["nnue"].estimate, expected["nnue"].estimate, places=9)
        report = gauntlet_report.markdown(args, [player], [sf, glaurung], rows, ratings, ["toga2 not found"])
        self.assertIn("# Gauntlet at 1+0.01", report)
        self.assertIn("| sf1800 | 1800 (anchor) | 4 | 2 | 1 | 1 | 62.5% | +89 [", report)
        self.assertIn(f"| glaurung | {gauntlet_report.format_rating(ratings['glaurung'])} | 4 | 0 | 1 | 3 | 12.5% | -338 [", report)
        self.assertIn(f"**Rating of nnue: {gauntlet_report.format_rating(ratings['nnue'])}**", report)
        self.assertIn("- toga2 not found", report)

    def test_sets_pairs_differences_and_clock(self):
        args = parse(["--games", "4", "--tc", "1+0.01", "--time-margin", "150",
                      "--book", os.path.join(common.ROOT, "a.epd"), "--book", os.path.join(common.ROOT, "b.epd")])
        classical = entrants.parse_player("classical:Use NNUE=false", "nnue")
        net = entrants.parse_player("net", "nnue")
        sf = entrants.parse_opponent("sf1800:stockfish:UCI_LimitStrength=true,UCI_Elo=1800")
        toga = entrants.parse_opponent("toga2:toga2")
        slow = {"moves": 30, "seconds": 1.0, "min_left_ms": -80.0, "overshoots": 2}
        fine = {"moves": 30, "seconds": 1.0, "min_left_ms": 12.0, "overshoots": 0}
        scores = {
            ("classical", "sf1800"): ((1.0, 0.5, 0.0, 1.0), (0.5, 0.5, 1.0, 0.0)),
            ("classical", "toga2"): ((0.5, 0.5, 0.0, 1.0), (0.0, 0.5, 1.0, 1.0)),
            ("net", "sf1800"): ((1.0, 1.0, 0.5, 1.0), (1.0, 0.5, 0.0, 1.0)),
            ("net", "toga2"): ((1.0, 0.0, 0.5, 0.5), (1.0, 1.0, 0.0, 0.5)),
        }
        saved = {}
        for (player, opponent), per_set in scores.items():
            for name, results in zip(("a", "b"), per_set):
                saved[(name, player, opponent)] = {
                    i: game(i, s, a_clock=fine, b_clock=slow if opponent == "toga2" else fine) for i, s in enumerate(results)
                }
        # toga2 lost one game on time (beyond the margin).
        saved[("b", "net", "toga2")][0].update(forfeit="b", problem="black lost on time")
        sets = [gauntlet.OpeningSet("a", "a.epd", ["f"] * 10), gauntlet.OpeningSet("b", "b.epd", ["f"] * 10)]
        players, opponents = [classical, net], [sf, toga]
        rows = gauntlet_results.pairing_rows(players, opponents, saved)
        # classical vs sf1800: pairs 1.5, 1 (set a) and 1, 1 (set b).
        self.assertEqual(rows[0]["pairs"], [0, 0, 3, 1, 0])
        self.assertEqual((rows[0]["wins"], rows[0]["draws"], rows[0]["losses"]), (3, 3, 2))
        # net vs toga2: pairs 1, 1 and 2, 0.5.
        self.assertEqual(rows[3]["pairs"], [0, 1, 2, 0, 1])
        self.assertEqual(rows[3]["failures"], 1)
        only_a = gauntlet_results.pairing_rows(players, opponents, saved, {"a"})
        self.assertEqual(only_a[0]["pairs"], [0, 0, 1, 1, 0])
        fitted = gauntlet_results.joint_fit(rows, opponents)
        extra = gauntlet_results.report_data(args, players, opponents, saved, sets, rows, fitted)
        diff = extra["differences"][0]
        self.assertEqual((diff["player"], diff["reference"]), ("net", "classical"))
        expected = rating_fit.difference(fitted, "net", "classical")
        self.assertAlmostEqual(diff["estimate"], expected[0], places=9)
        self.assertAlmostEqual(diff["estimate"], fitted.ratings["net"].estimate - fitted.ratings["classical"].estimate, places=9)
        self.assertEqual([s["set"] for s in extra["sets"]], ["a", "b"])
        clock = extra["clock"]
        self.assertEqual(clock["toga2"], {"games": 16, "moves": 480, "overshoots": 32, "worst_ms": 80.0, "forfeits": 1})
        self.assertEqual(clock["net"]["forfeits"], 0)
        self.assertEqual(clock["sf1800"]["worst_ms"], 0.0)
        ratings = fitted.ratings
        report = gauntlet_report.markdown(args, players, opponents, rows, ratings, [], extra)
        self.assertIn("32 games, 4 per pairing and opening set (8 a pairing, 16 a player), openings a.epd, b.epd", report)
        self.assertIn(f"- **net − classical: {gauntlet_report.format_interval(*expected)}**", report)
        self.assertIn("| classical | sf1800 | 4 | 0 | 0 | 3 | 1 | 0 | ", report)
        self.assertIn("| net | **all** | 8 | 0 | 1 | 3 | 2 | 2 | ", report)
        self.assertIn("| toga2 | 16 | 480 | 32 | 80 | 1 |", report)
        self.assertIn("at most 150 ms is not a forfeit", report)
        self.assertIn("- a: **net − classical: ", report)

    def test_the_reports_are_written_as_markdown_and_strict_json(self):
        player = entrants.parse_player("nnue", "nnue")
        sf = entrants.parse_opponent("sf1800:stockfish:UCI_LimitStrength=true,UCI_Elo=1800")
        saved = {("nnue", "sf1800"): {i: game(i, 1.0) for i in range(4)}}
        rows = gauntlet_results.pairing_rows([player], [sf], saved)
        ratings = gauntlet_results.fit(rows, [sf])
        with tempfile.TemporaryDirectory() as directory:
            args = parse(["--games", "4", "--tc", "1+0.01", "--out-dir", directory])
            report, output = gauntlet.write_reports(args, directory, [player], [sf], rows, ratings, ["a note"])
            self.assertEqual(output, os.path.join(directory, "gauntlet.md"))
            with open(output) as f:
                self.assertEqual(f.read(), report)
            with open(os.path.join(directory, "gauntlet.json")) as f:
                data = json.load(f)
        # Four wins out of four: the Elo difference is infinite, and JSON has no infinity.
        self.assertIsNone(data["pairings"][0]["elo"])
        self.assertEqual(data["ratings"]["nnue"]["status"], rating_fit.ABOVE)
        self.assertEqual((data["games_per_pairing"], data["notes"]), (4, ["a note"]))

    def test_formats(self):
        self.assertEqual(gauntlet_report.format_elo(-0.0), "+0")
        self.assertEqual(gauntlet_report.format_elo(-12.6), "-13")
        self.assertEqual(gauntlet_report.format_elo(float("inf")), "+inf")
        self.assertEqual(gauntlet_report.format_rating(rating_fit.Rating(rating_fit.ABOVE, low=2201.4)), "> 2201")
        self.assertEqual(gauntlet_report.format_rating(rating_fit.Rating(rating_fit.BELOW)), "below all")
        self.assertEqual(gauntlet_report.format_rating(rating_fit.Rating(rating_fit.FITTED, 1900.2, 1850.6, 1949.9)), "1900 [1851, 1950]")


if __name__ == "__main__":
    unittest.main()
