"""The match's SPRT stop rule (nnue_scripts.match.Tally): no decision before
SPRT_MIN_PAIRS complete game pairs, however lopsided the first ones are, and the
decision as soon as the ratio crosses a bound after that."""

import unittest

from nnue_scripts import match


def game(index, a_score):
    return {"index": index, "a_score": a_score, "problem": None, "termination": "normal"}


class SprtTallyTest(unittest.TestCase):
    def test_four_lopsided_pairs_decide_nothing(self):
        # The recipe run's candidate 1: pairs [0, 0, 0, 1, 3] gave LLR 3.14 > 2.89.
        tally = match.Tally((0.0, 15.0, 0.05, 0.1))
        scores = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.5]
        for index, score in enumerate(scores):
            tally.add(game(index, score))
        self.assertEqual(tally.pentanomial(), [0, 0, 0, 1, 3])
        self.assertGreater(tally.llr(), 2.89)
        self.assertIsNone(tally.decision)

    def test_the_decision_comes_with_the_tenth_pair(self):
        tally = match.Tally((0.0, 15.0, 0.05, 0.1))
        index = 0
        for pair in range(match.SPRT_MIN_PAIRS):
            for score in (1.0, 1.0 if pair % 4 else 0.5):
                tally.add(game(index, score))
                index += 1
            if pair < match.SPRT_MIN_PAIRS - 1:
                self.assertIsNone(tally.decision, f"after {pair + 1} pairs")
        self.assertEqual(tally.decision, "H1")


if __name__ == "__main__":
    unittest.main()
