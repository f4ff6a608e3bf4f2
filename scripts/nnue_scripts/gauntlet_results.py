"""What a gauntlet's saved games add up to: W/D/L and game-pair counts per pairing, the
ratings fitted jointly against the anchors (nnue_scripts.rating_fit), each player's
difference from the reference player, the fit on each opening set alone, the clock
records and the adjudication counts.

Apart from the report's wording (gauntlet_report) so that the numbers can be checked
without the Markdown, and reused: the study's tournament scores its games with `tally`.
Saved games are {(set, player, opponent): {index: game}}, or {(player, opponent): ...}
for a single unnamed set.
"""

from . import adjudication, common, rating_fit
from .gauntlet_report import book_name, format_rating


def tally(games):
    """(wins, draws, losses, failures) from the player's view."""
    scores = [g["a_score"] for g in games.values()]
    failures = sum(1 for g in games.values() if g["problem"])
    return scores.count(1.0), scores.count(0.5), scores.count(0.0), failures


def pairing_games(saved, set_names, player, opponent):
    """The games of a pairing in the given sets, one {index: game} per set."""
    games = []
    for key, by_index in saved.items():
        if len(key) == 2:  # (player, opponent): a single unnamed set
            key = (None, *key)
        if key[1:] == (player, opponent) and (set_names is None or key[0] in set_names):
            games.append(by_index)
    return games


def pairing_rows(players, opponents, saved, set_names=None):
    """One row per player and opponent over the sets named (all by default): W/D/L, Elo
    with its per-game interval, the game-pair counts and the pair-based interval."""
    rows = []
    for player in players:
        for opponent in opponents:
            per_set = pairing_games(saved, set_names, player.name, opponent.name)
            wins = draws = losses = failures = 0
            pairs = []
            for games in per_set:
                w, d, l, f = tally(games)
                wins, draws, losses, failures = wins + w, draws + d, losses + l, failures + f
                pairs += common.pair_scores({i: g["a_score"] for i, g in games.items()})
            estimate, low, high = common.elo_interval(wins, draws, losses)
            counts = common.pentanomial(pairs)
            p_estimate, p_low, p_high = common.pentanomial_interval(counts)
            rows.append(
                {"player": player.name, "opponent": opponent.name, "wins": wins, "draws": draws,
                 "losses": losses, "failures": failures, "elo": estimate, "low": low, "high": high,
                 "pairs": counts, "pair_elo": p_estimate, "pair_low": p_low, "pair_high": p_high}
            )
    return rows


def joint_fit(rows, opponents):
    """The joint fit (rating_fit.Fit) of the rows against the anchored opponents, or None."""
    anchors = {o.name: o.anchor for o in opponents if o.anchor is not None}
    if not anchors:
        return None
    pairings = [(r["player"], r["opponent"], r["wins"], r["draws"], r["losses"]) for r in rows]
    return rating_fit.fit(pairings, anchors)


def fit(rows, opponents):
    """The fitted ratings by name ({} without an anchor), for callers that need no covariance."""
    fitted = joint_fit(rows, opponents)
    return fitted.ratings if fitted else {}


def reference_name(args, players):
    """The player the others are compared with: --reference, else 'classical' if it plays,
    else the first; None when --reference names no player."""
    names = [p.name for p in players]
    if args.reference:
        return args.reference if args.reference in names else None
    return "classical" if "classical" in names else names[0]


def differences(fitted, players, reference):
    """[{player, reference, estimate, low, high}] for every player but the reference;
    estimate None where either rating is not fitted."""
    result = []
    for player in players:
        if player.name == reference:
            continue
        value = rating_fit.difference(fitted, player.name, reference) if fitted else None
        estimate, low, high = value if value else (None, None, None)
        result.append({"player": player.name, "reference": reference, "estimate": estimate, "low": low, "high": high})
    return result


def per_set_results(args, players, opponents, saved, sets, reference):
    """For each set: the players' ratings fitted on that set's games alone, and the differences."""
    results = []
    for opening_set in sets:
        rows = pairing_rows(players, opponents, saved, {opening_set.name})
        fitted = joint_fit(rows, opponents)
        ratings = fitted.ratings if fitted else {}
        results.append({
            "set": opening_set.name,
            "book": book_name(opening_set.path),
            "positions": len(opening_set.fens),
            "players": [{"player": p.name,
                         "games": sum(r["wins"] + r["draws"] + r["losses"] for r in rows if r["player"] == p.name),
                         "score": set_score(rows, p.name),
                         "rating": ratings[p.name].as_dict() if p.name in ratings else None,
                         "rating_text": format_rating(ratings.get(p.name))}
                        for p in players],
            "differences": differences(fitted, players, reference) if reference else [],
        })
    return results


def set_score(rows, player):
    mine = [r for r in rows if r["player"] == player]
    n = sum(r["wins"] + r["draws"] + r["losses"] for r in mine)
    return (sum(r["wins"] + 0.5 * r["draws"] for r in mine) / n) if n else None


def clock_records(players, opponents, saved):
    """Per engine over all its games: games, moves, moves that overshot the clock (kept
    within the margin), the worst overshoot in ms and time forfeits."""
    records = {e.name: {"games": 0, "moves": 0, "overshoots": 0, "worst_ms": 0.0, "forfeits": 0}
               for e in players + opponents}
    for key, games in saved.items():
        player, opponent = key[-2], key[-1]
        for game in games.values():
            for name, side in ((player, "a"), (opponent, "b")):
                record = records[name]
                record["games"] += 1
                clock = game.get(f"{side}_clock") or {}
                record["moves"] += clock.get("moves", 0)
                record["overshoots"] += clock.get("overshoots", 0)
                if clock.get("min_left_ms") is not None:
                    record["worst_ms"] = max(record["worst_ms"], -clock["min_left_ms"])
                if game.get("forfeit") == side:
                    record["forfeits"] += 1
    return records


def report_data(args, players, opponents, saved, sets, rows, fitted):
    reference = reference_name(args, players)
    return {
        "reference": reference,
        "differences": differences(fitted, players, reference) if reference and len(players) > 1 else [],
        "sets": per_set_results(args, players, opponents, saved, sets, reference) if len(sets) > 1 else
        [{"set": s.name, "book": book_name(s.path), "positions": len(s.fens)} for s in sets],
        "clock": clock_records(players, opponents, saved),
        "adjudicated": adjudication.counts([game for games in saved.values() for game in games.values()]),
    }
