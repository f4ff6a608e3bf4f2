"""`python -m nnue_scripts.study`: see the package's docstring."""

import sys

from .cli import main

sys.exit(main())
