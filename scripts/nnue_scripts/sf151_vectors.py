"""Reference vectors for Stockfish 15.1's net: raw NNUE values of positions from a `.plain` file.

Picks up to N positions per layer stack ((pieces - 1) / 4, 8 stacks) from the `fen` lines of a
`.plain` file, in file order, evenly spaced over each stack's candidates, skips positions in
check (the engine's `d` lists their checkers), and asks a Stockfish 15.1 build patched with a
`rawnnue` command (it prints `raw <NNUE::evaluate(pos, false)>`, internal units, side to move)
for each. Writes `fen<TAB>raw` lines after `#` comment lines naming the inputs.

    python -m nnue_scripts.sf151_vectors --stockfish PATH --plain FILE --per-stack 64 > OUT.tsv

With `--eval-file NET` the engine loads NET first (`setoption name EvalFile`), and with
`--fens-from TSV --count N` the positions are every len/N-th `fen` of an earlier output
(a trained net's values on the same positions), written after `# net sha256` of NET.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys

STACKS = 8


def piece_count(fen: str) -> int:
    """Pieces on the board of `fen` (kings included)."""
    return sum(ch.isalpha() for ch in fen.split()[0])


def stack_of(fen: str) -> int:
    """Stockfish 15.1's layer stack (and PSQT bucket) for `fen`: (pieces - 1) / 4."""
    return (piece_count(fen) - 1) // 4


def read_fens(path: str) -> list[str]:
    """The `fen` lines of a `.plain` file, in order, without duplicates."""
    seen: set[str] = set()
    out = []
    with open(path, encoding="ascii") as f:
        for line in f:
            if line.startswith("fen "):
                fen = line[4:].strip()
                if fen not in seen:
                    seen.add(fen)
                    out.append(fen)
    return out


def spread(items: list[str], n: int) -> list[str]:
    """`n` items evenly spaced over `items` (all of them when there are at most `n`)."""
    if len(items) <= n:
        return list(items)
    return [items[i * len(items) // n] for i in range(n)]


class Engine:
    """A line-oriented UCI session with the patched Stockfish."""

    def __init__(self, path: str, eval_file: str | None = None):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.until(lambda line: line == "uciok")
        if eval_file is not None:
            self.send(f"setoption name EvalFile value {eval_file}")
            self.send("isready")
            self.until(lambda line: line == "readyok")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, done) -> list[str]:
        assert self.proc.stdout is not None
        lines = []
        for line in self.proc.stdout:
            line = line.rstrip("\n")
            lines.append(line)
            if done(line):
                return lines
        raise RuntimeError("stockfish ended early")

    def in_check(self, fen: str) -> bool:
        self.send(f"position fen {fen}")
        self.send("d")
        lines = self.until(lambda line: line.startswith("Checkers:"))
        return lines[-1].split(":", 1)[1].strip() != ""

    def raw(self, fen: str) -> int:
        self.send(f"position fen {fen}")
        self.send("rawnnue")
        line = self.until(lambda line: line.startswith("raw "))[-1]
        return int(line.split()[1])

    def close(self) -> None:
        self.send("quit")
        self.proc.wait()


def sha256(path: str) -> str:
    """The sha256 of a file, hex."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def tsv_fens(path: str) -> list[str]:
    """The `fen` column of an earlier output (comment lines skipped)."""
    with open(path, encoding="ascii") as f:
        return [line.split("\t")[0] for line in f if line.strip() and not line.startswith("#")]


def every_nth(items: list[str], count: int) -> list[str]:
    """Items `i * len / count` for `i < count`: the selection the learner's tests make."""
    return [items[i * len(items) // count] for i in range(count)]


def from_earlier(engine: Engine, args) -> int:
    """Raw values of every len/count-th position of an earlier output."""
    fens = tsv_fens(args.fens_from)
    print("# Stockfish 15.1 NNUE::evaluate(pos, false), internal units, side to move")
    print(f"# positions: every {len(fens)}/{args.count}-th of {args.fens_from}")
    if args.eval_file:
        print(f"# net sha256 {sha256(args.eval_file)}")
    print("# fen\traw")
    for fen in every_nth(fens, args.count):
        print(f"{fen}\t{engine.raw(fen)}")
    engine.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stockfish", required=True, help="Stockfish 15.1 with the rawnnue command")
    ap.add_argument("--plain", help="a .plain file (its fen lines are used)")
    ap.add_argument("--per-stack", type=int, default=64, help="positions per layer stack")
    ap.add_argument("--eval-file", help="a .nnue net the engine loads first")
    ap.add_argument("--fens-from", help="take the positions from an earlier output instead")
    ap.add_argument("--count", type=int, default=60, help="positions taken with --fens-from")
    args = ap.parse_args(argv)
    engine = Engine(args.stockfish, args.eval_file)
    if args.fens_from:
        return from_earlier(engine, args)
    if not args.plain:
        ap.error("--plain or --fens-from is required")
    by_stack: list[list[str]] = [[] for _ in range(STACKS)]
    for fen in read_fens(args.plain):
        stack = stack_of(fen)
        if 0 <= stack < STACKS and not engine.in_check(fen):
            by_stack[stack].append(fen)
    print("# Stockfish 15.1 NNUE::evaluate(pos, false), internal units, side to move")
    print(f"# positions: {args.plain}, up to {args.per_stack} per layer stack, none in check")
    print("# fen\traw")
    for stack in range(STACKS):
        for fen in spread(by_stack[stack], args.per_stack):
            print(f"{fen}\t{engine.raw(fen)}")
    engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
