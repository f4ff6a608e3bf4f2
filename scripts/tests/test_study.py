"""Checks the pure parts of nnue_scripts.study: the tournament's pairings, the resume
check, ratings relative to All (hand-computed values), the table and the parsers of the
programs' output. No engine or trainer runs."""

import math
import unittest

from nnue_scripts import rating_fit
from nnue_scripts.study import conditions, entries, measures, rundir, table, thesis, tournament, training
from nnue_scripts.rating_fit import FITTED


class SetsAndNames(unittest.TestCase):
    def test_sets_need_all_once(self):
        self.assertEqual(entries.parse_sets(" All, All+H+V ,KAm8"), ["All", "All+H+V", "KAm8"])
        with self.assertRaisesRegex(ValueError, "must contain All"):
            entries.parse_sets("H+V,D1+D2")
        with self.assertRaisesRegex(ValueError, "twice"):
            entries.parse_sets("All,H+V,H+V")

    def test_default_list_is_the_thesis_list_and_ours(self):
        sets = entries.parse_sets(entries.DEFAULT_SETS)
        self.assertEqual(len(sets), 18)
        self.assertTrue(set(thesis.THESIS) <= set(sets))
        self.assertTrue(set(entries.PQR_ENTRIES) <= set(sets))

    def test_seeds(self):
        self.assertEqual(entries.parse_seeds("1,2,3"), [1, 2, 3])
        for bad in ("1,1", "a", ""):
            with self.assertRaises(ValueError):
                entries.parse_seeds(bad)

class PqrEntries(unittest.TestCase):
    OPTIONS = ["--train", "d.bin", "--loss", "thesis", "--lr", "0.0005", "--epochs", "2"]

    def test_pqr_trains_the_all_net_with_the_pqr_loss(self):
        self.assertEqual(entries.feature_set_of("PQR"), "All")
        self.assertEqual(entries.feature_set_of("All+H+V"), "All+H+V")
        self.assertEqual(training.entry_options(self.OPTIONS, "PQR"),
                         ["--train", "d.bin", "--loss", "pqr", "--lr", "0.0005", "--epochs", "2"])
        self.assertEqual(training.entry_options(self.OPTIONS, "All+H+V"), self.OPTIONS)

    def test_pqr_ft_starts_from_the_all_net_at_a_low_lr(self):
        options = training.entry_options(self.OPTIONS, "PQR-ft", "nets/All-s1.nnue")
        self.assertEqual(options, ["--train", "d.bin", "--loss", "pqr", "--lr", "0.0001", "--epochs", "2",
                                   "--init-net", "nets/All-s1.nnue"])
        with self.assertRaisesRegex(ValueError, "All net"):
            training.entry_options(self.OPTIONS, "PQR-ft")

    def test_pqr_entries_play_all_only(self):
        pairs = entries.tournament_pairings(["All", "A", "PQR", "PQR-ft"], [1])
        self.assertEqual(pairs, [("A-s1", "All-s1"), ("PQR-s1", "All-s1"), ("PQR-ft-s1", "All-s1")])

    def test_pqr_ft_trains_after_the_all_net(self):
        self.assertEqual(entries.training_order(["PQR-ft", "All", "PQR"], [1, 2]),
                         [("All", 1), ("PQR", 1), ("PQR-ft", 1), ("All", 2), ("PQR", 2), ("PQR-ft", 2)])


class Names(unittest.TestCase):
    def test_names(self):
        self.assertEqual(entries.net_name("All+H+V", 2), "All+H+V-s2")
        self.assertEqual(entries.slug("K*(H+V)"), "K__H+V_")

    def test_thesis_names(self):
        # docs/FEATURES.md: our H is the thesis' V, our D1 its D2; PH/PV as its text, swapped in its code.
        self.assertEqual(thesis.thesis_name("All"), "")
        self.assertEqual(thesis.thesis_name("All+H+V"), "All+V+H")
        self.assertEqual(thesis.thesis_name("D1+D2"), "D2+D1")
        self.assertEqual(thesis.thesis_name("All+PH"), "All+PH (PH: code pv)")
        self.assertEqual(thesis.thesis_name("KAm8"), "")


class Resume(unittest.TestCase):
    def test_same_settings_agree(self):
        settings = {"epochs": 20, "data": [{"path": "/d.bin", "bytes": 40}]}
        self.assertEqual(rundir.settings_differences(settings, dict(settings)), [])

    def test_each_difference_is_named(self):
        saved = {"epochs": 20, "lr": 0.0005, "conditions": ["nodes20000"]}
        current = {"epochs": 30, "lr": 0.0005, "conditions": ["nodes20000"], "bench_depth": 10}
        self.assertEqual(rundir.settings_differences(saved, current),
                         ['bench_depth: saved "(none)", now 10', "epochs: saved 20, now 30"])


    def test_saved_games_name_the_field_that_differs(self):
        saved = {"player": {"options": {"EvalFile": "a.nnue"}}, "nets": {"A-s1": "00"}}
        now = {"player": {"options": {"EvalFile": "a.nnue"}}, "nets": {"A-s1": "ff"}}
        self.assertEqual(rundir.settings_differences(tournament.flatten(saved), tournament.flatten(now)),
                         ['nets.A-s1: saved "00", now "ff"'])


class Pairings(unittest.TestCase):
    def test_short_list_plays_a_round_robin(self):
        pairs = entries.tournament_pairings(["All", "A", "B"], [1])
        self.assertEqual(pairs, [("A-s1", "All-s1"), ("B-s1", "All-s1"), ("B-s1", "A-s1")])

    def test_long_list_plays_all_only(self):
        sets = ["A", "All", "B", "C", "D"]
        pairs = entries.tournament_pairings(sets, [1, 2])
        self.assertEqual(len(pairs), 8)
        for a, b in pairs:
            self.assertEqual(b, "All-" + a.split("-")[-1])  # seed-matched

    def test_progress_notes_count_the_games_played(self):
        # Five sets: four pairings with All; 10 games each planned.
        sets = ["All", "A", "B", "C", "D"]
        results = {
            "nodes300": [("A-s1", "All-s1", 3, 2, 1), ("B-s1", "All-s1", 0, 0, 0)],
            "movetime0.1": [(f"{s}-s1", "All-s1", 5, 0, 5) for s in "ABCD"],
        }
        notes = tournament.progress_notes(sets, [1], 10, results)
        self.assertEqual(len(notes), 1)  # 100 ms is complete
        self.assertIn("300 nodes, 6 of 40 games played", notes[0])


class RelativeRatings(unittest.TestCase):
    def test_one_pairing_is_the_score_as_elo(self):
        # 60 wins, 20 draws, 20 losses: score 0.7, Elo 400 log10(0.7 / 0.3) = 147.19. The
        # interval: information (ln 10 / 400)^2 * 100 * 0.7 * 0.3 = 6.9587e-4, sd 37.908,
        # half-width 1.96 * 37.908 = 74.30.
        ratings = tournament.relative_ratings([("A-s1", "All-s1", 60, 20, 20)], ["All", "A"], [1])
        a = ratings["pooled"]["A"]
        self.assertEqual(a.status, FITTED)
        self.assertAlmostEqual(a.estimate, 147.19, places=2)
        self.assertAlmostEqual(a.high - a.estimate, 74.30, places=1)
        self.assertAlmostEqual(ratings["per_seed"][("A", 1)].estimate, 147.19, places=2)
        self.assertEqual(ratings["pooled"]["All"].status, "anchor")

    def test_seeds_pool_and_keep_their_spread(self):
        # Seed 1 scores 0.7, seed 2 0.5 (100 games each): pooled 0.6, 400 log10(1.5) = 70.44;
        # per seed 147.19 and 0, sample standard deviation 147.19 / sqrt(2) = 104.08.
        results = [("A-s1", "All-s1", 60, 20, 20), ("A-s2", "All-s2", 40, 20, 40)]
        ratings = tournament.relative_ratings(results, ["All", "A"], [1, 2])
        self.assertAlmostEqual(ratings["pooled"]["A"].estimate, 70.44, places=2)
        self.assertAlmostEqual(ratings["per_seed"][("A", 2)].estimate, 0.0, places=4)
        low, high, sd = table.spread([ratings["per_seed"][("A", s)].estimate for s in (1, 2)])
        self.assertAlmostEqual(low, 0.0, places=4)
        self.assertAlmostEqual(high, 147.19, places=2)
        self.assertAlmostEqual(sd, 104.08, places=2)

    def test_round_robin_places_a_set_through_the_others(self):
        # B never met All: it is rated through A (A +147.19 against All, B even with A).
        results = [("A-s1", "All-s1", 60, 20, 20), ("B-s1", "A-s1", 30, 40, 30)]
        ratings = tournament.relative_ratings(results, ["All", "A", "B"], [1])
        self.assertAlmostEqual(ratings["pooled"]["B"].estimate, 147.19, places=1)

    def test_a_clean_sweep_is_a_bound(self):
        ratings = tournament.relative_ratings([("A-s1", "All-s1", 0, 0, 10)], ["All", "A"], [1])
        self.assertEqual(ratings["pooled"]["A"].status, rating_fit.BELOW)
        self.assertTrue(table.format_rating(ratings["pooled"]["A"]).startswith("< -"))


class Table(unittest.TestCase):
    def test_rows_and_markdown(self):
        trainings = {("All", 1): {"min_val_loss": 0.0031, "positions_per_second": 250000},
                     ("All+H+V", 1): {"min_val_loss": 0.0030, "positions_per_second": 200000}}
        features = {"All": {"inputs": 768, "active_per_position": 26.2, "added_per_move": 1.0, "removed_per_move": 1.13},
                    "All+H+V": None}
        benches = {("All", 1): {"nodes_per_second": 900000, "evaluations_per_second": 6000000},
                   ("All+H+V", 1): {"nodes_per_second": 700000, "evaluations_per_second": 2500000}}
        ratings = {"nodes20000": tournament.relative_ratings([("All+H+V-s1", "All-s1", 60, 20, 20)], ["All", "All+H+V"], [1])}
        rows = table.table_rows(["All", "All+H+V"], [1], trainings, features, benches, ratings, ["nodes20000"])
        self.assertEqual(rows[1]["thesis"], {"inputs": 960, "min_val_loss": 0.003082, "elo": -27.1, "interval": 4.1})
        self.assertIsNone(rows[1]["inputs"])
        lines = table.markdown_table(rows, ["nodes20000"])
        self.assertEqual(lines[0], "| set | thesis name | inputs | active / position | added / removed per move | "
                                   "min. val. loss | train pos/s | evals/s | nodes/s | Elo, 20000 nodes | thesis: Elo (100 ms) |")
        self.assertEqual(lines[2], "| `All` |  | 768 | 26.2 | 1.00 / 1.13 | 0.003100 | 250,000 | 6,000,000 | 900,000 | "
                                   "0 (anchor) | 0 |")
        self.assertEqual(lines[3], "| `All+H+V` | All+V+H | — | — | — | 0.003000 | 200,000 | 2,500,000 | 700,000 | "
                                   "+147 [+73, +221] | -27.1 ± 4.1 |")

    def test_seed_spread_in_a_cell(self):
        trainings = {("All", s): {"min_val_loss": v} for s, v in ((1, 0.004), (2, 0.002))}
        rows = table.table_rows(["All"], [1, 2], trainings, {}, {}, {}, [])
        self.assertAlmostEqual(rows[0]["min_val_loss"], 0.003)
        self.assertIn("(0.002000–0.004000)", table.markdown_table(rows, [])[2])


class Parsers(unittest.TestCase):
    def test_training_rate(self):
        line = ("wrote n.nnue after 2 epochs, 5400 positions (5400 in 0.8 s, 6583 positions/s); "
                "validation loss 0.045534; 0 parameters clamped by quantization")
        self.assertEqual(training.training_rate("epoch 2 done\n" + line), 6583)
        self.assertIsNone(training.training_rate("nothing"))
        # A resumed run with nothing left reports 0 positions: the earlier session's rate stands.
        resumed = line + "\nwrote n.nnue after 2 epochs, 5400 positions (0 in 0.1 s, 0 positions/s); ..."
        self.assertEqual(training.training_rate(resumed), 6583)

    def test_min_validation_loss_skips_epoch_zero(self):
        rows = [{"epoch": "0", "val_loss": "0.01"}, {"epoch": "1", "val_loss": "0.05"},
                {"epoch": "2", "val_loss": "0.04"}, {"epoch": "3", "val_loss": "nan"}]
        self.assertEqual(training.min_validation_loss(rows), 0.04)

    def test_validation_points_are_the_curve_of_the_loss_chart(self):
        rows = [{"epoch": "0", "val_loss": "0.01"}, {"epoch": "1", "val_loss": "0.05"},
                {"epoch": "2", "val_loss": ""}, {"epoch": "3", "val_loss": "inf"}, {"epoch": "4", "val_loss": "0.03"}]
        self.assertEqual(training.validation_points(rows), [(1, 0.05), (4, 0.03)])

    def test_bench_needs_the_net(self):
        text = ("info string NNUE evaluation using /n.nnue [All 768->512x2-32-1] enabled\n"
                "Total time (ms) : 479\nNodes searched  : 84883\nNodes/second    : 177208\n"
                "Total time (ms)       : 81\nEvaluations           : 506738\n"
                "Sum of values         : -25231314\nEvaluations/second    : 6252782\n")
        self.assertEqual(measures.bench_figures(text, "/n.nnue"), (84883, 177208, 6252782))
        refused = "info string error: setoption: EvalFile '/n.nnue' not loaded\n" + text
        with self.assertRaises(rundir.StudyError):
            measures.bench_figures(refused, "/n.nnue")

    def test_conditions(self):
        self.assertEqual(conditions.conditions_of(20000, 0.1), ["nodes20000", "movetime0.1"])
        self.assertEqual(conditions.conditions_of(0, 0.1), ["movetime0.1"])
        self.assertEqual(conditions.condition_label("movetime0.1"), "100 ms")
        self.assertTrue(math.isclose(float("0.1") * 1000, 100))


if __name__ == "__main__":
    unittest.main()
