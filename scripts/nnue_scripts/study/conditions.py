"""The game conditions (a fixed node count, a fixed time per move): their directory
names and how the report labels them."""


def condition_label(condition):
    """'nodes20000' -> '20000 nodes', 'movetime0.1' -> '100 ms'."""
    if condition.startswith("nodes"):
        return f"{condition[len('nodes'):]} nodes"
    return f"{float(condition[len('movetime'):]) * 1000:g} ms"


def conditions_of(nodes, movetime):
    """The game conditions that are on, as directory names."""
    return ([f"nodes{nodes}"] if nodes else []) + ([f"movetime{movetime:g}"] if movetime else [])
