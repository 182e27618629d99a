"""`python -m graders ASSIGNMENT PATH...` grades; `python -m graders build` builds labs/."""

import sys

from graders._cli import main

sys.exit(main())
