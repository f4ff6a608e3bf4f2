"""The feature-set study in one command: trains a net per feature set on the same data
with the same budget, measures what each set costs, plays the nets against each other
and rates them jointly relative to All.

    python -m nnue_scripts.study --data D.bin [D2.binpack ...] [--validation V.bin | --validation-fraction 0.05]
                                 [--sets "All,All+H+V,..."] [--seeds 1[,2,...]]
                                 [--ft-size 512] [--hidden 32] [--loss thesis] [--lr 5e-4] [--lr-decay 0.99]
                                 [--epochs 20] [--epoch-size 1000000] [--batch-size 16384] [--train-args "..."]
                                 [--nodes 20000] [--movetime 0.1] [--games 200] [--book data/openings.epd]
                                 [--resign-score 1000] [--resign-moves 3]
                                 [--draw-moves 8] [--draw-score 10] [--draw-after 40]
                                 [--feature-count 20000] [--bench-depth 10]
                                 [--threads 2] [--concurrency 2] [--out-dir target/study] [--no-build]
                                 [--replay-failed] [--report-only]
    python -m nnue_scripts.study --small      # two sets and PQR, the shipped sample data, a few games

For every (set, seed) it runs `nnue-learn train` with the same options (the thesis'
family by default: N->512x2-32-1, loss |sigmoid(v/361) - sigmoid(score/410)|^2.6, Adam at
lr 5e-4 x0.99 per epoch, the thesis' filter: no |score| > 5000, no capture or check;
`--quantization-aware`, as the pipeline trains); the run's CSV gives the minimum
validation loss, its last line the training positions/s. Per set it measures the inputs,
the active features per position and the features added and removed per move on the
data's games (`nnue-learn features --json`), and per net the search speed (`nnue bench`
in UCI mode after `setoption name EvalFile`).

Two entries of --sets are not feature sets: PQR trains the All net with the thesis' PQR
loss (`--loss pqr`, section 5.3) from random weights, PQR-ft fine-tunes the All net of its
seed with it at lr 1e-4; they play the All net only.

The tournament: every net plays the All net of its seed, and with at most 4 sets every
pair of sets plays (a round robin), --games games per pairing (the book's openings in
order, each with both colours) at a fixed node count (--nodes) and at a fixed time per
move (--movetime; 0 turns a condition off), through nnue_scripts.match, with score
adjudication on (nnue_scripts.adjudication): a game is won once both engines' scores put
one side at least --resign-score centipawns ahead (default 1000) for --resign-moves moves
of each side (3), and drawn once both stayed within --draw-score (10) for --draw-moves
moves of each (8) after move --draw-after (40); --resign-score 0 and --draw-moves 0 turn
the rules off. Per condition all nets are rated jointly by maximum likelihood
(nnue_scripts.rating_fit) with every seed's All net anchored at 0: a set's Elo pools its
seeds' games, and with several seeds each seed's own rating gives the spread.

Output in --out-dir: study.md (the table: set, thesis name where it differs, inputs,
active features, updates per move, minimum validation loss, training positions/s, search
nodes/s, Elo at each condition with its 95 % interval, the thesis' Elo where it has one;
per condition, All's rank among the thesis' sets, the sets clearly above or below it and
the rank correlation with the thesis' order; with both conditions played, a fit of the
equal-time Elo on the fixed-node Elo and the speed: how much knowledge carries over and
how many Elo a halving of speed costs),
study.json (every figure), study-elo.png and study-loss.png (the Elo chart and every net's
validation loss per epoch, when matplotlib is installed), log.jsonl (every
command run, one JSON object a line), and what each step made: nets/, features/, bench/,
games/<condition>/. A rerun does only what is missing (an interrupted training resumes
from its checkpoint; games are saved as they end); it refuses an --out-dir made with other
settings (data, shape, loss, budget, game conditions, adjudication, measurements), naming
each difference. Sets, seeds and --games may change between runs: new ones are added.
Games belong to the engine build: a rebuilt engine replays the games at a fixed time,
and keeps those at a fixed node count when every net's `nnue bench` node count is the
same (a change that only made the engine faster; nnue_scripts.study.identity). A
directory made before score adjudication existed resumes with both rules off
(--resign-score 0 --draw-moves 0). --report-only writes the report from what the
directory holds so far, training, measuring and playing nothing, with a note per condition
on how many of its games are played: a look at a run in progress from another shell.
Exit status: 0 on success, 1 when a step fails or a game failed (crash, illegal move,
time forfeit), 2 on a usage error.

The package, one step a module: cli (the options and the run, step by step), entries
(specs, seeds, net names, pairings), training, measures (feature counts, benches),
tournament (games and ratings), identity (which builds share games), speed (how much of
the gap between the conditions the sets' speeds explain), against_thesis (All's rank
among the thesis' sets and how far the orders agree), table, charts and report (the
outputs), rundir (the output directory: settings, log, saved records), settings,
conditions, programs (the binaries and the engine build's digest) and thesis (its
published figures and names).
"""
