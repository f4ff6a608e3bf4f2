"""What the study's entries are and how they are named: the feature-set specs and
seeds on the command line, the two PQR trainings that are entries but not feature sets,
the file names of nets, and which nets play each other."""

import re

ANCHOR = "All"
# The rating status of the anchor's own entry (rating_fit's statuses are for fitted engines).
ANCHOR_STATUS = "anchor"
# The thesis' sets, and ours that it only sketched (T, KAm8) or defined without results.
DEFAULT_SETS = ("H+V,D1+D2,H+V+D1+D2,All,All+H+V,All+D1+D2,All+H+V+D1+D2,All+PH,All+PV,All+PH+PV,"
                "All+MB,All+MC,All+T,KAm8,HalfKP,King-All,PQR,PQR-ft")
ROUND_ROBIN_MAX = 4
# Entries that are not feature sets: the thesis' PQR training (section 5.3, `nnue-learn
# train --loss pqr`) of the All net, from random weights (PQR) and fine-tuned from the All
# net of the same seed (PQR-ft). Their validation loss is a PQR loss, not comparable with
# the score-trained sets'.
PQR = "PQR"
PQR_FINE_TUNED = "PQR-ft"
PQR_ENTRIES = (PQR, PQR_FINE_TUNED)
NAME_PATTERN = re.compile(r"[^A-Za-z0-9._+-]")


def parse_sets(text):
    """The comma-separated specs, in order; ValueError for an empty list, a set named
    twice, or a list without All (the anchor every net is rated against)."""
    sets = [s.strip() for s in text.split(",") if s.strip()]
    if not sets:
        raise ValueError("--sets names no feature set")
    seen = set()
    for spec in sets:
        if spec in seen:
            raise ValueError(f"--sets names {spec} twice")
        seen.add(spec)
    if ANCHOR not in seen:
        raise ValueError(f"--sets must contain {ANCHOR}: every net is rated against it")
    return sets


def parse_seeds(text):
    """'1,2,3' as [1, 2, 3]; ValueError for a repeat or a non-integer."""
    try:
        seeds = [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise ValueError(f"--seeds '{text}' is not a comma-separated list of integers") from None
    if not seeds or len(set(seeds)) != len(seeds) or min(seeds) < 0:
        raise ValueError(f"--seeds '{text}' must list distinct non-negative integers")
    return seeds


def feature_set_of(spec):
    """The feature set an entry trains: its own, or All for the PQR entries."""
    return ANCHOR if spec in PQR_ENTRIES else spec


def training_order(sets, seeds):
    """(set, seed) in training order: PQR-ft after the All net it starts from."""
    return [(spec, seed) for seed in seeds for spec in sorted(sets, key=lambda s: s == PQR_FINE_TUNED)]


def slug(spec):
    """A file-name-safe form of a spec ('K*(H+V)' -> 'K_H+V_')."""
    return NAME_PATTERN.sub("_", spec)


def net_name(spec, seed):
    return f"{slug(spec)}-s{seed}"


def split_name(name, sets, seeds):
    """net name -> (spec, seed)."""
    for spec in sets:
        for seed in seeds:
            if net_name(spec, seed) == name:
                return spec, seed
    raise KeyError(name)


def tournament_pairings(sets, seeds, round_robin_max=ROUND_ROBIN_MAX):
    """[(net A, net B)] for one condition: every set against All of the same seed, and
    with at most `round_robin_max` feature sets every pair of them (of the same seed). The
    PQR entries, trainings of All rather than feature sets, play All only."""
    pairs = []
    feature_sets = [s for s in sets if s not in PQR_ENTRIES]
    for seed in seeds:
        others = [s for s in feature_sets if s != ANCHOR]
        if len(feature_sets) <= round_robin_max:
            ordered = [ANCHOR] + others
            for i, a in enumerate(ordered):
                for b in ordered[i + 1:]:
                    pairs.append((net_name(b, seed), net_name(a, seed)))
        else:
            pairs += [(net_name(s, seed), net_name(ANCHOR, seed)) for s in others]
        pairs += [(net_name(s, seed), net_name(ANCHOR, seed)) for s in sets if s in PQR_ENTRIES]
    return pairs
