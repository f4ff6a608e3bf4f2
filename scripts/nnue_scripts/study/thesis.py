"""The thesis' published figures and its names for our blocks, kept apart so that the
report can set our results beside them without any other module knowing the thesis."""

# The thesis' result table ("Feature set analysis for chess NNUE networks", M. E.
# Lombardo, 2024): inputs, minimum validation loss (its loss, its data), Elo against All
# with its interval, keyed by our spec of the same set (docs/FEATURES.md: our H is its V,
# our D1 its D2; PH and PV as its text names them).
THESIS = {
    "All": (768, 0.003134, 0.0, 0.0),
    "All+H+V": (960, 0.003082, -27.1, 4.1),
    "All+D1+D2": (1128, 0.003087, -26.1, 3.8),
    "All+H+V+D1+D2": (1320, 0.003067, -58.7, 3.7),
    "H+V+D1+D2": (552, 0.003907, -183.5, 4.1),
    "H+V": (192, 0.005810, -384.3, 5.1),
    "D1+D2": (360, 0.006707, -444.1, 5.1),
    "All+PH": (1920, 0.003033, -38.2, 4.8),
    "All+PV": (1920, 0.002946, -8.4, 5.0),
    "All+PH+PV": (3072, 0.002868, -37.6, 4.9),
    "All+MB": (1536, 0.002824, -260.9, 5.4),
    "All+MC": (974, 0.003032, -280.9, 5.6),
}
# Our block -> the thesis' name of the same block, and the name its code uses.
THESIS_BLOCKS = {"H": "V", "V": "H", "D1": "D2", "D2": "D1"}
THESIS_CODE = {"PH": "pv", "PV": "ph"}


def thesis_name(spec):
    """The thesis' name of our set where it differs ('' where it is the same): its H and
    V, D1 and D2 are swapped relative to ours; its code calls PH `pv` and PV `ph`."""
    if any(c in spec for c in "*()"):
        return ""
    blocks = spec.split("+")
    name = "+".join(THESIS_BLOCKS.get(b, b) for b in blocks)
    code = [f"{b}: code {THESIS_CODE[b]}" for b in blocks if b in THESIS_CODE]
    text = name if name != spec else ""
    if code:
        text = f"{text or spec} ({', '.join(code)})"
    return text
