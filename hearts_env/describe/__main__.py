"""``python -m hearts_env.describe``: see :func:`hearts_env.describe.pages.main`."""

import sys

from hearts_env.describe.pages import main

sys.exit(main())
