"""``python -m ackclock``: the same command line as ``ackclock``."""

import sys

from .cli import main

sys.exit(main())
