"""Allow `python -m llcheck`."""

import sys

from .cli import main

sys.exit(main())
