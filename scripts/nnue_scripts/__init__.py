"""nnue-toolkit's Python tools, each run as `python -m nnue_scripts.<module>`: match
(two engines or two option sets, Elo and SPRT), gauntlet (against Debian's engines, on
Stockfish's UCI_Elo scale; its parts entrants, opponents, gauntlet_results and
gauntlet_report, and rating_fit), pipeline (the whole NNUE loop with the three
programs), uci_conformance (the engine as python-chess drives it) and make_openings
(the match book). What they share is in `common`."""
