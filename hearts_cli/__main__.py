"""``python -m hearts_cli``: the ``hearts-env`` command line."""

import sys

from hearts_cli import main

sys.exit(main())
