"""Checks the pure parts of nnue_scripts.pipeline: how a fine-tuning step is set up.
No generator, trainer or engine runs."""

import argparse
import unittest

from nnue_scripts import pipeline


def args(train_args=""):
    return argparse.Namespace(
        fine_tune_epochs=40, fine_tune_lr=3e-4, fine_tune_lr_decay=0.97, train_args=train_args
    )


class FineTuneSettings(unittest.TestCase):
    def test_fine_tuning_skips_noisy_positions(self):
        settings = pipeline.fine_tune_settings(args())
        self.assertEqual(settings["extra"], ["--smart-fen-skipping"])
        self.assertEqual((settings["epochs"], settings["lr"], settings["lr_decay"]), (40, 3e-4, 0.97))

    def test_the_users_train_args_are_kept_and_the_filter_given_once(self):
        settings = pipeline.fine_tune_settings(args("--eval-limit 800 --smart-fen-skipping"))
        self.assertEqual(settings["extra"], ["--eval-limit", "800", "--smart-fen-skipping"])
        settings = pipeline.fine_tune_settings(args("--eval-limit 800"))
        self.assertEqual(settings["extra"], ["--eval-limit", "800", "--smart-fen-skipping"])


if __name__ == "__main__":
    unittest.main()
