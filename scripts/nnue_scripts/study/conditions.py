"""The game conditions (a fixed node count, a fixed time per move): their directory
names ('nodes20000', 'movetime0.1'), what each sets, and how the report labels them.
The one place that knows the names' form."""

NODES_PREFIX = "nodes"
MOVETIME_PREFIX = "movetime"


def is_fixed_node(condition):
    """True for a fixed-node condition ('nodes20000'), whose games speed does not change."""
    return condition.startswith(NODES_PREFIX)


def is_fixed_time(condition):
    """True for a fixed-time condition ('movetime0.1')."""
    return condition.startswith(MOVETIME_PREFIX)


def nodes_of(condition):
    """The nodes per move of a fixed-node condition, 0 for any other."""
    return int(condition[len(NODES_PREFIX):]) if is_fixed_node(condition) else 0


def movetime_of(condition):
    """The seconds per move of a fixed-time condition, 0.0 for any other."""
    return float(condition[len(MOVETIME_PREFIX):]) if is_fixed_time(condition) else 0.0


def condition_label(condition):
    """'nodes20000' -> '20000 nodes', 'movetime0.1' -> '100 ms'."""
    if is_fixed_node(condition):
        return f"{nodes_of(condition)} nodes"
    return f"{movetime_of(condition) * 1000:g} ms"


def conditions_of(nodes, movetime):
    """The game conditions that are on, as directory names."""
    return ([f"{NODES_PREFIX}{nodes}"] if nodes else []) + \
        ([f"{MOVETIME_PREFIX}{movetime:g}"] if movetime else [])
