"""The raw-net reference inference (nnue_scripts.raw_net): a hand-built net whose
values are worked out by hand, and, when the release binaries are built, the
acceptance check: a net trained only from the viriformat sample, exported with
`nnue-learn export --layout raw`, evaluates here exactly as `nnue`'s `eval`."""

import contextlib
import io
import re
import struct
import subprocess
import tempfile
import unittest
from pathlib import Path

from nnue_scripts.raw_net import RawNet, main, trunc_div

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "target" / "release" / "nnue"
LEARN = ROOT / "target" / "release" / "nnue-learn"
SAMPLE_VF = ROOT / "tests" / "data" / "sf_tools_sample.vf"

# White king e1, pawn e2, Black king e8.
KPK_WHITE = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
KPK_BLACK = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"

# Positions the acceptance check compares: the start, a middlegame of each side to
# move, castling rights on both wings, an endgame, kings on every wing.
FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqk2r/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP3PPP/R2QKB1R b KQkq - 0 8",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50",
    "6k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - 0 30",
    "2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/2KR3R b - - 4 20",
    "8/8/4k3/8/2K5/8/8/7Q w - - 0 60",
]


def hand_net(out_bias: int) -> bytes:
    """768 -> 2x2 -> 1: two transformer rows set, the rest 0 (module docstring of
    the test cases gives the sums)."""
    weights = [0] * (768 * 2)
    weights[2 * 12:2 * 12 + 2] = [50, 0]  # own pawn on e2 (64*0 + 12)
    weights[2 * 436:2 * 436 + 2] = [0, 200]  # their pawn on e7 (384 + 52), seen by Black
    values = weights + [10, -5] + [3, 7, -2, 4] + [out_bias]
    data = struct.pack(f"<{len(values)}h", *values)
    return data + (b"bullet" * 11)[:-len(data) % 64]


class HandBuiltNet(unittest.TestCase):
    # White's accumulator: biases + own pawn e2 = [60, -5] -> clamped [60, 0];
    # Black's: biases + their pawn e7 = [10, 195] -> clamped [10, 127].

    def test_layout_length_is_padded_to_64_bytes(self):
        self.assertEqual(len(hand_net(1000)), 3136)  # 1543 i16 = 3086 bytes
        self.assertEqual(hand_net(1000)[3086:3092], b"bullet")

    def test_crelu_white_and_black_to_move(self):
        net = RawNet(hand_net(1000))
        self.assertEqual(net.n, 2)
        # 1000 + 60*3 + 0*7 + 10*(-2) + 127*4 = 1668; 1668 / 16 = 104.25
        self.assertEqual(net.evaluate(KPK_WHITE), 104)
        # 1000 + 10*3 + 127*7 + 60*(-2) + 0*4 = 1799; / 16 = 112.44
        self.assertEqual(net.evaluate(KPK_BLACK), 112)

    def test_screlu_divides_the_squares_by_qa_once(self):
        net = RawNet(hand_net(1000), activation="screlu")
        # 3600*3 + 100*(-2) + 16129*4 = 75116; / 127 = 591.5 -> 591; (1000 + 591) / 16
        self.assertEqual(net.evaluate(KPK_WHITE), 99)

    def test_negative_values_round_toward_zero(self):
        net = RawNet(hand_net(-3000))
        # -3000 + 668 = -2332; / 16 = -145.75 -> -145 (not -146)
        self.assertEqual(net.evaluate(KPK_WHITE), -145)
        self.assertEqual(trunc_div(-7, 2), -3)

    def test_a_file_of_no_raw_size_is_refused(self):
        with self.assertRaisesRegex(ValueError, "3137 bytes fit no raw net"):
            RawNet(hand_net(0) + b"x")
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "bad.raw"
            path.write_bytes(b"\0" * 100)
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                self.assertEqual(main([str(path), KPK_WHITE]), 1)
            self.assertEqual(err.getvalue(), f"raw_net: error: {path}: 100 bytes fit no raw net "
                             "with 1 king bucket(s) and 1 output bucket(s)\n")


def engine_evals(net: Path, fens: list[str]) -> list[int]:
    """`nnue`'s `eval` of each FEN with EvalFile `net`: internal units."""
    commands = [f"setoption name EvalFile value {net}"]
    for fen in fens:
        commands += [f"position fen {fen}", "eval"]
    out = subprocess.run([str(ENGINE)], input="\n".join(commands + ["quit"]) + "\n",
                         capture_output=True, text=True, check=True, timeout=60).stdout
    return [int(v) for v in re.findall(r"NNUE evaluation (-?\d+) \(side to move", out)]


@unittest.skipUnless(ENGINE.exists() and LEARN.exists(),
                     "needs target/release/nnue and nnue-learn (cargo build --release)")
class ViriformatToRawNet(unittest.TestCase):
    def train_export(self, tmp: Path, shape: list[str]) -> tuple[Path, Path]:
        net, raw = tmp / "net.nnue", tmp / "net.raw"
        subprocess.run([str(LEARN), "train", "--train", str(SAMPLE_VF), *shape, "--hidden=",
                        "--epochs", "2", "--epoch-size", "1000", "--batch-size", "100",
                        "--validation-count", "200", "--seed", "3", "--threads", "1",
                        "--no-progress", "--output-net", str(net)],
                       check=True, capture_output=True, timeout=120)
        subprocess.run([str(LEARN), "export", str(net), str(raw), "--layout", "raw"],
                       check=True, capture_output=True, timeout=60)
        return net, raw

    def check(self, shape: list[str], **layout):
        with tempfile.TemporaryDirectory() as tmp:
            net, raw = self.train_export(Path(tmp), shape)
            reference = RawNet(raw.read_bytes(), **layout)
            engine = engine_evals(net, FENS)
            self.assertEqual(len(engine), len(FENS))
            self.assertEqual([reference.evaluate(f) for f in FENS], engine)
            self.assertNotEqual(engine, [0] * len(FENS))

    def test_crelu_all(self):
        self.check(["--feature-set", "All", "--ft-size", "32"])

    def test_crelu_with_four_king_buckets(self):
        self.check(["--feature-set", "KAm4", "--ft-size", "8", "--output-buckets", "4"],
                   output_buckets=4, king_buckets=4)

    def test_screlu_with_king_and_output_buckets(self):
        self.check(["--feature-set", "KAm8", "--ft-size", "16", "--activation", "screlu",
                    "--output-buckets", "8"],
                   activation="screlu", output_buckets=8, king_buckets=8)


if __name__ == "__main__":
    unittest.main()
