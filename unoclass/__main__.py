"""`python -m unoclass`: the `unoclass` command (unoclass/box/cli.py)."""

import sys

from unoclass.box.cli import main

sys.exit(main())
