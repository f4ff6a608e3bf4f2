"""How close labels of one set of positions come to a reference labelling, and what each
labelling cost: the measurement behind choosing a generator's search limit (a depth, or
the soft node counts modern generators use).

    nnue-gen-sfen rescore SAMPLE.bin d8.plain --depth 8 --eval-file NET.nnue
    nnue-gen-sfen rescore SAMPLE.bin n5k.plain --soft-nodes 5000 --eval-file NET.nnue
    nnue-gen-sfen rescore SAMPLE.bin ref.plain --depth 12 --eval-file NET.nnue
    python -m nnue_scripts.label_quality --reference ref.plain d8.plain n5k.plain \\
        [--cpu d8.plain=14.5 --cpu n5k.plain=9.9] [--scale 400]

Every file is a `.plain` labelling of the same positions in the same order (rescore keeps
the order; a position that differs is an error naming the file and the record). For each
labelling: the root mean square difference from the reference in win probability
(1 / (1 + e^(-score / scale)), scale 361 by default: the trainer's and Stockfish tools'
winning-probability coefficient 1/361, so a difference between +900 and +1200 counts for
little and one between -50 and +100 for much, as in the training loss), the mean absolute
difference in centipawns of scores within ±1000, how often the sign differs, the
cross-entropy of its win probability against the games' results (what the result half
of the loss sees), and, given with --cpu FILE=SECONDS, the CPU time a position.
"""

import argparse
import math
import sys

DEFAULT_SCALE = 361.0
# Scores beyond this are decided: their centipawn differences say nothing.
CP_WINDOW = 1000
# Keeps log() finite for a probability of exactly 0 or 1 (mate scores).
EPSILON = 1e-6


class LabelError(Exception):
    """A labelling that cannot be compared: one line naming the file and the record."""


def read_plain(path):
    """[(fen, score, result)] of a `.plain` file: `result` is the side to move's 1, 0 or -1."""
    records, fields = [], {}
    try:
        with open(path) as f:
            for number, line in enumerate(f, 1):
                line = line.strip()
                if line == "e":
                    try:
                        records.append((fields["fen"], int(fields["score"]), int(fields["result"])))
                    except (KeyError, ValueError):
                        raise LabelError(f"{path}: record {len(records)} (line {number}): "
                                         "needs fen, an integer score and an integer result") from None
                    fields = {}
                elif line:
                    key, _, value = line.partition(" ")
                    fields[key] = value
    except OSError as exc:
        raise LabelError(f"{path}: {exc.strerror}") from None
    if not records:
        raise LabelError(f"{path}: no records")
    return records


def win_probability(score, scale):
    return 1.0 / (1.0 + math.exp(-score / scale))


def compare(reference, labels, path, scale):
    """The figures of one labelling against the reference (same positions, same order)."""
    if len(labels) != len(reference):
        raise LabelError(f"{path}: {len(labels)} records, the reference has {len(reference)}")
    squared = cp = cp_count = signs = entropy = 0.0
    for index, ((fen, ref, _), (other_fen, score, result)) in enumerate(zip(reference, labels)):
        if fen != other_fen:
            raise LabelError(f"{path}: record {index}: position {other_fen!r}, the reference has {fen!r}")
        p, q = win_probability(score, scale), win_probability(ref, scale)
        squared += (p - q) ** 2
        if abs(ref) <= CP_WINDOW and abs(score) <= CP_WINDOW:
            cp += abs(score - ref)
            cp_count += 1
        signs += (score > 0) != (ref > 0) and score != 0 and ref != 0
        target = (result + 1) / 2.0
        p = min(max(p, EPSILON), 1 - EPSILON)
        entropy -= target * math.log(p) + (1 - target) * math.log(1 - p)
    n = len(reference)
    return {"rms_probability": math.sqrt(squared / n), "mean_abs_cp": cp / cp_count if cp_count else None,
            "sign_differs": signs / n, "result_cross_entropy": entropy / n}


def parse_cpu(pairs):
    cpu = {}
    for pair in pairs:
        path, sep, seconds = pair.rpartition("=")
        try:
            cpu[path] = float(seconds)
        except ValueError:
            raise LabelError(f"--cpu {pair!r}: expected FILE=SECONDS") from None
        if not sep or cpu[path] < 0:
            raise LabelError(f"--cpu {pair!r}: expected FILE=SECONDS")
    return cpu


def table(rows, cpu, positions):
    lines = ["| labels | CPU ms a position | RMS win-probability difference | mean abs cp difference (within ±1000) "
             "| sign differs | result cross-entropy |", "|---|---|---|---|---|---|"]
    for path, figures in rows:
        ms = f"{1000 * cpu[path] / positions:.2f}" if path in cpu else "-"
        cp = f"{figures['mean_abs_cp']:.1f}" if figures["mean_abs_cp"] is not None else "-"
        lines.append(f"| {path} | {ms} | {figures['rms_probability']:.4f} | {cp} | "
                     f"{100 * figures['sign_differs']:.1f} % | {figures['result_cross_entropy']:.4f} |")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m nnue_scripts.label_quality",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("labels", nargs="+", help=".plain labellings of the reference's positions")
    parser.add_argument("--reference", required=True, help="the .plain labelling taken as the truth")
    parser.add_argument("--cpu", action="append", default=[], metavar="FILE=SECONDS",
                        help="CPU seconds the labelling FILE took (repeatable)")
    parser.add_argument("--scale", type=float, default=DEFAULT_SCALE,
                        help=f"centipawns per factor e of the win odds (default {DEFAULT_SCALE:g}, "
                             "nnue-learn's default coefficient 1/361)")
    # Files and --cpu may come in any order (a --cpu beside the file it times).
    args = parser.parse_intermixed_args(argv)
    try:
        if args.scale <= 0:
            raise LabelError(f"--scale {args.scale:g}: must be positive")
        cpu = parse_cpu(args.cpu)
        reference = read_plain(args.reference)
        rows = [(path, compare(reference, read_plain(path), path, args.scale)) for path in args.labels]
    except LabelError as exc:
        raise SystemExit(f"label_quality: {exc}") from None
    print("\n".join(table(rows, cpu, len(reference))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
