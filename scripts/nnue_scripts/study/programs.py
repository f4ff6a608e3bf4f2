"""The project's programs the study runs, and the identity of the engine build: speed
figures and games belong to the build that made them."""

import functools
import os

from .. import common

# The prefix of the study's messages.
PROGRAM = "study"
RELEASE = common.RELEASE


def binary(name):
    """The path of one of the project's release binaries."""
    return os.path.join(RELEASE, name)


@functools.lru_cache(maxsize=None)
def engine_sha256():
    """The SHA-256 of the engine build, read once per run (after the build step): every
    bench record names the build it measured."""
    return common.file_sha256(binary("nnue"))
