"""Reference inference of a raw net (`nnue-learn export NET.nnue OUT --layout raw`).

A few lines of plain Python (no dependencies) that read the headerless layout
bullet-trained engines embed and evaluate a FEN exactly as the `nnue` engine
evaluates the `.nnue` the file came from (its `eval` command's "NNUE evaluation
... internal units"). docs/FORMATS.md gives the layout and the formula;
docs/TRAIN-FOR-YOUR-ENGINE.md shows the whole road from data to net.

    python -m nnue_scripts.raw_net net.raw "FEN" ... [--activation screlu]
        [--output-buckets 8] [--king-buckets 8]

prints, per FEN, the value in internal units and in centipawns (side to move).
"""

from __future__ import annotations

import argparse
import struct
import sys
from pathlib import Path

QA = 127  # transformer scale: accumulators are clamped to 0..QA
QAB = 9600  # QA * QB: scale of the output bias (600 internal units * 16)
FV_SCALE = 16  # raw output per internal unit
PAWN_VALUE_EG = 208  # internal units per pawn: centipawns = value * 100 / 208
ALIGN = 64  # the file is padded to a multiple of 64 bytes
PIECES = "PNBRQK"  # piece kinds in feature order: pawn 0 ... king 5

# The 32 king squares a1-d1, a2-d2, ..., a8-d8 (own king mirrored to files a-d)
# and their bucket, as bullet's ChessBucketsMirrored::new takes them.
KING_BUCKETS = {
    1: [0] * 32,
    4: [0, 0, 1, 1] * 4 + [2, 2, 3, 3] * 4,
    8: [0, 0, 1, 1] * 2 + [2, 2, 3, 3] * 2 + [4, 4, 5, 5] * 2 + [6, 6, 7, 7] * 2,
}


def trunc_div(a: int, b: int) -> int:
    """a / b rounded toward zero, as Rust and C divide integers (b > 0)."""
    q = abs(a) // b
    return q if a >= 0 else -q


class RawNet:
    """The i16 parameters of a 768xK -> Nx2 -> B net in the raw layout."""

    def __init__(self, data: bytes, activation: str = "crelu", output_buckets: int = 1,
                 king_buckets: int = 1):
        if activation not in ("crelu", "screlu"):
            raise ValueError(f"unknown activation '{activation}' (expected crelu or screlu)")
        if king_buckets not in KING_BUCKETS:
            raise ValueError(f"{king_buckets} king buckets (expected 1, 4 or 8)")
        if output_buckets not in (1, 2, 4, 8, 16, 32):
            raise ValueError(f"{output_buckets} output buckets (expected a divisor of 32)")
        inputs = 768 * king_buckets
        # Each N adds 768K + 1 + 2B i16 values (at least 1540 bytes), so at
        # most one N fits the padded length.
        per_n = inputs + 1 + 2 * output_buckets
        n = (len(data) // 2 - output_buckets) // per_n
        count = n * per_n + output_buckets
        if n < 1 or -(-2 * count // ALIGN) * ALIGN != len(data):
            raise ValueError(f"{len(data)} bytes fit no raw net with {king_buckets} king "
                             f"bucket(s) and {output_buckets} output bucket(s)")
        values = struct.unpack_from(f"<{count}h", data)
        self.n, self.activation, self.buckets, self.king = n, activation, output_buckets, king_buckets
        self.weights = values[:inputs * n]
        self.biases = values[inputs * n:inputs * n + n]
        out = inputs * n + n
        self.out_weights = values[out:out + 2 * n * output_buckets]
        self.out_biases = values[out + 2 * n * output_buckets:]

    def accumulator(self, pieces: list[tuple[int, int, int]], perspective: int) -> list[int]:
        """Biases plus the rows of the perspective's features (0 White, 1 Black)."""
        flip = 56 * perspective
        own_king = next(sq for colour, kind, sq in pieces if kind == 5 and colour == perspective)
        king = own_king ^ flip
        mirror = 7 if self.king > 1 and king % 8 > 3 else 0
        king ^= mirror
        bucket = KING_BUCKETS[self.king][(king // 8) * 4 + king % 8]
        acc = list(self.biases)
        for colour, kind, sq in pieces:
            feature = 768 * bucket + 384 * (colour != perspective) + 64 * kind + (sq ^ flip ^ mirror)
            row = self.weights[feature * self.n:(feature + 1) * self.n]
            acc = [a + w for a, w in zip(acc, row)]
        return acc

    def evaluate(self, fen: str) -> int:
        """The value of `fen` in internal units, from the side to move's view."""
        pieces, stm = parse_fen(fen)
        us, them = self.accumulator(pieces, stm), self.accumulator(pieces, 1 - stm)
        bucket = (len(pieces) - 2) // (32 // self.buckets)
        w = self.out_weights[2 * self.n * bucket:2 * self.n * (bucket + 1)]
        clamped = [min(max(a, 0), QA) for a in us + them]
        if self.activation == "screlu":
            total = trunc_div(sum(c * c * x for c, x in zip(clamped, w)), QA)
        else:
            total = sum(c * x for c, x in zip(clamped, w))
        return trunc_div(self.out_biases[bucket] + total, FV_SCALE)


def parse_fen(fen: str) -> tuple[list[tuple[int, int, int]], int]:
    """(colour 0 White / 1 Black, kind 0..5, square a1 = 0) of every piece, and
    the side to move (0 White, 1 Black)."""
    fields = fen.split()
    if len(fields) < 2 or fields[1] not in ("w", "b"):
        raise ValueError(f"'{fen}': expected a board and a side to move")
    pieces = []
    for rank, row in enumerate(reversed(fields[0].split("/"))):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            elif ch.upper() in PIECES:
                pieces.append((int(ch.islower()), PIECES.index(ch.upper()), 8 * rank + file))
                file += 1
            else:
                raise ValueError(f"'{fen}': '{ch}' is not a piece")
    return pieces, int(fields[1] == "b")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="raw_net", description=__doc__.split("\n")[0])
    parser.add_argument("net", type=Path, help="the raw file")
    parser.add_argument("fens", nargs="+", metavar="FEN")
    parser.add_argument("--activation", default="crelu", choices=["crelu", "screlu"])
    parser.add_argument("--output-buckets", type=int, default=1)
    parser.add_argument("--king-buckets", type=int, default=1, choices=[1, 4, 8])
    args = parser.parse_args(argv)
    try:
        net = RawNet(args.net.read_bytes(), args.activation, args.output_buckets,
                     args.king_buckets)
        for fen in args.fens:
            value = net.evaluate(fen)
            print(f"{value} internal units, {trunc_div(value * 100, PAWN_VALUE_EG)} cp: {fen}")
    except (OSError, ValueError, StopIteration) as e:
        print(f"raw_net: error: {args.net}: {e or 'a side without a king'}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
