"""Checks the helpers every script shares (nnue_scripts.common): `Name=Value` options,
the opening book, the repository's paths and starting an engine. The statistics are
checked in tests/test_elo.py."""

import logging
import os
import tempfile
import unittest

from nnue_scripts import common


class OptionTest(unittest.TestCase):
    def test_split_option(self):
        self.assertEqual(common.split_option(" Use NNUE = false "), ("Use NNUE", "false"))
        self.assertEqual(common.split_option("EvalFile=a=b.nnue"), ("EvalFile", "a=b.nnue"))
        self.assertEqual(common.split_option("Hash="), ("Hash", ""))
        self.assertIsNone(common.split_option("Hash"))
        self.assertIsNone(common.split_option(" =16"))

    def test_parse_options_keeps_the_last_value_and_names_a_bad_item(self):
        self.assertEqual(common.parse_options(["Hash=16", "Threads=1", "Hash=32"]), {"Hash": "32", "Threads": "1"})
        self.assertEqual(common.parse_options([]), {})
        with self.assertRaisesRegex(ValueError, "option 'Threads' is not Name=Value"):
            common.parse_options(["Hash=16", "Threads"])

    def test_parse_option_list(self):
        self.assertEqual(common.parse_option_list("Use NNUE=false, Hash = 16,"), {"Use NNUE": "false", "Hash": "16"})
        self.assertEqual(common.parse_option_list(""), {})
        with self.assertRaises(ValueError):
            common.parse_option_list("Hash=16,OwnBook")


@unittest.skipIf(common.chess is None, "python-chess is not installed")
class BookTest(unittest.TestCase):
    def write(self, text):
        handle, path = tempfile.mkstemp(suffix=".epd")
        with os.fdopen(handle, "w") as f:
            f.write(text)
        self.addCleanup(os.remove, path)
        return path

    def test_the_shipped_book_is_read(self):
        book = common.load_book(common.DEFAULT_BOOK)
        self.assertGreater(len(book), 100)
        self.assertTrue(all(len(fen.split()) == 6 for fen in book))

    def test_comments_and_blank_lines_are_skipped_and_epd_operations_dropped(self):
        path = self.write('# a comment\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c0 "e2e4";\n')
        self.assertEqual(common.load_book(path), ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"])

    def test_no_book_is_the_start_position(self):
        self.assertEqual(common.load_book(""), [common.chess.STARTING_FEN])

    def test_errors_name_the_file_and_line(self):
        path = self.write("8/8/8/8/8/8/8/8 w - -\nnot a position\n")
        with self.assertRaises(ValueError) as refused:
            common.load_book(path)
        self.assertEqual(str(refused.exception), f"book {path} line 1: not a legal position "
                                                 "(no white king, no black king, empty): '8/8/8/8/8/8/8/8 w - -'")
        # The line's number in the file: comments and blank lines count.
        path = self.write("# openings\n\n4k3/8/8/8/8/8/8/4K3 w - -\nnot a position\n")
        with self.assertRaises(ValueError) as refused:
            common.load_book(path)
        self.assertEqual(str(refused.exception), f"book {path} line 4: expected 'w' or 'b' for turn part of fen: "
                                                 "'not a position'")
        with self.assertRaisesRegex(ValueError, "holds no position"):
            common.load_book(self.write("# nothing\n"))
        with self.assertRaisesRegex(ValueError, "book /nonexistent/book.epd: "):
            common.load_book("/nonexistent/book.epd")


class PathTest(unittest.TestCase):
    def test_paths_are_in_the_checkout(self):
        self.assertTrue(os.path.isfile(os.path.join(common.ROOT, "Cargo.toml")))
        self.assertEqual(common.DEFAULT_ENGINE, os.path.join(common.ROOT, "target", "release", "nnue"))
        self.assertTrue(os.path.isfile(common.DEFAULT_BOOK))


@unittest.skipIf(common.chess is None, "python-chess is not installed")
@unittest.skipUnless(os.access(common.DEFAULT_ENGINE, os.X_OK), "the engine is not built (cargo build --release)")
class StartEngineTest(unittest.TestCase):
    def setUp(self):
        # python-chess warns about the engine's `info string` lines; they are expected.
        logger = logging.getLogger("chess.engine")
        self.addCleanup(logger.setLevel, logger.level)
        logger.setLevel(logging.ERROR)

    def test_the_engine_starts_with_its_options(self):
        engine = common.start_engine(common.DEFAULT_ENGINE, {"Hash": "32", "Threads": "1"})
        try:
            self.assertTrue(engine.id.get("name", "").startswith("nnue"))
            self.assertEqual(engine.options["Hash"].name, "Hash")
            engine.ping()
        finally:
            engine.quit()

    def test_an_unknown_option_is_refused_and_the_engine_stopped(self):
        with self.assertRaises(common.chess.engine.EngineError):
            common.start_engine(common.DEFAULT_ENGINE, {"No Such Option": "1"})

    def test_a_net_the_engine_refuses_is_an_error(self):
        # The engine answers `info string error: ...` and would play on with its default net.
        with tempfile.TemporaryDirectory() as folder:
            fake = os.path.join(folder, "fake.nnue")
            with open(fake, "w") as out:
                out.write("x\n")
            with self.assertRaises(common.OptionsRefused) as refused:
                common.start_engine(common.DEFAULT_ENGINE, {"EvalFile": fake})
        refusal = str(refused.exception)
        self.assertTrue(refusal.startswith(f"the engine refused: setoption: EvalFile '{fake}' not loaded, keeping "),
                        refusal)
        self.assertIn("not a .nnue file", refusal)


class EngineWarnings(unittest.TestCase):
    def record(self, line):
        return logging.LogRecord("chess.engine", logging.WARNING, __file__, 1,
                                 "%s: Unexpected engine output: %r", ("<UciProtocol (pid=1)>", line), None)

    def test_info_strings_are_dropped_and_other_lines_kept(self):
        notes = common.InfoStringFilter()
        self.assertFalse(notes.filter(self.record("info string NNUE evaluation using nets/All.nnue enabled")))
        self.assertFalse(notes.filter(self.record("info string error: setoption: EvalFile 'x' not loaded")))
        self.assertTrue(notes.filter(self.record("bestmove e2e4 ponder e7e5 junk")))


if __name__ == "__main__":
    unittest.main()
