"""Checks which saved games of the study a build may reuse (nnue_scripts.study.identity
and the tournament's load_pairing): fixed-node games keyed by the nets' bench
signatures, a pairing saved under the older key by the same build taken over, any
other difference refused, and failed games dropped by --replay-failed."""

import json
import os
import tempfile
import unittest

from nnue_scripts.study import conditions, identity, tournament
from nnue_scripts.study.rundir import StudyError

ENGINE = "/repo/target/release/nnue"


def entrant(name, net):
    return {"name": name, "command": [ENGINE], "protocol": "uci",
            "options": {"Threads": "1", "EvalFile": net}, "contents": {ENGINE: "digest-of-this-build", net: "net-" + name}}


def pairing():
    return {"player": entrant("All+T-s1", "/nets/All+T-s1.nnue"), "opponent": entrant("All-s1", "/nets/All-s1.nnue"),
            "time_control": "nodes=20000", "nets": {"All+T-s1": "net-All+T-s1", "All-s1": "net-All-s1"}}


def bench(depth, nodes):
    return {"config": {"depth": depth, "engine_sha256": "digest-of-this-build"}, "nodes": nodes}


SIGNATURES = {"All+T-s1": "bench 10: 812345 nodes", "All-s1": "bench 10: 938412 nodes"}


class Keys(unittest.TestCase):
    def test_conditions(self):
        self.assertTrue(conditions.is_fixed_node("nodes20000"))
        self.assertFalse(conditions.is_fixed_node("movetime0.1"))

    def test_bench_signature(self):
        self.assertEqual(identity.bench_signature(bench(10, 938412)), "bench 10: 938412 nodes")
        self.assertIsNone(identity.bench_signature(None))

    def test_only_the_engine_digest_is_replaced(self):
        config = pairing()
        keyed = identity.keyed_by_bench(config, SIGNATURES)
        self.assertEqual(keyed["player"]["contents"], {ENGINE: "bench 10: 812345 nodes", "/nets/All+T-s1.nnue": "net-All+T-s1"})
        self.assertEqual(keyed["opponent"]["contents"][ENGINE], "bench 10: 938412 nodes")
        self.assertEqual(config, pairing())  # the original is left as it was
        for key in ("time_control", "nets"):
            self.assertEqual(keyed[key], config[key])


class SavedGames(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "All+T-s1--All-s1.json")
        self.legacy = pairing()
        self.config = identity.keyed_by_bench(self.legacy, SIGNATURES)
        self.games = [{"index": 0, "result": "1-0"}, {"index": 1, "result": "0-1", "engine_sha256": "older"}]

    def tearDown(self):
        self.dir.cleanup()

    def save(self, config):
        with open(self.path, "w") as f:
            json.dump({"config": config, "games": self.games}, f)

    def read(self):
        with open(self.path) as f:
            return json.load(f)

    def test_the_same_key_is_reused(self):
        self.save(self.config)
        self.assertEqual(sorted(tournament.load_pairing(self.path, self.config, self.legacy, "this")), [0, 1])

    def test_this_builds_older_key_is_taken_over_and_rewritten(self):
        self.save(self.legacy)
        games = tournament.load_pairing(self.path, self.config, self.legacy, "this")
        self.assertEqual(games[0]["engine_sha256"], "this")
        self.assertEqual(games[1]["engine_sha256"], "older")  # a recorded build is kept
        saved = self.read()
        self.assertEqual(saved["config"], self.config)
        self.assertEqual([g["engine_sha256"] for g in saved["games"]], ["this", "older"])

    def test_a_report_reads_the_older_key_without_writing(self):
        self.save(self.legacy)
        tournament.load_pairing(self.path, self.config, self.legacy, "this", rewrite=False)
        self.assertEqual(self.read()["config"], self.legacy)

    def test_another_build_or_signature_is_refused(self):
        other_build = pairing()
        other_build["player"]["contents"][ENGINE] = other_build["opponent"]["contents"][ENGINE] = "another-build"
        self.save(other_build)
        with self.assertRaises(StudyError) as refused:
            tournament.load_pairing(self.path, self.config, self.legacy, "this")
        self.assertIn(f"player.contents.{ENGINE}", str(refused.exception))
        changed = identity.keyed_by_bench(self.legacy, {**SIGNATURES, "All-s1": "bench 10: 938413 nodes"})
        self.save(changed)
        with self.assertRaises(StudyError):
            tournament.load_pairing(self.path, self.config, self.legacy, "this")


class ReplayFailed(unittest.TestCase):
    def test_failed_games_are_dropped_to_be_played_again(self):
        games = {0: {"index": 0, "problem": None}, 1: {"index": 1, "problem": "white lost on time at ply 0"},
                 2: {"index": 2, "problem": None}}
        kept = tournament.without_failures(games, "movetime0.1", ("King-All-s1", "All-s1"))
        self.assertEqual(sorted(kept), [0, 2])


if __name__ == "__main__":
    unittest.main()
