"""Becomes, each time it is started, the next engine of the plan $ZOO_PLAN: comma-separated
`script[:argument]` entries of this folder, taken in turn, the starts counted in $ZOO_COUNTER."""

import fcntl
import os
import sys
from pathlib import Path

plan = os.environ["ZOO_PLAN"].split(",")
with open(os.environ["ZOO_COUNTER"], "a+") as counter:
    fcntl.flock(counter, fcntl.LOCK_EX)
    counter.seek(0)
    started = len(counter.read())
    counter.write("+")
script, _, argument = plan[started % len(plan)].partition(":")
member = Path(__file__).with_name(f"{script}.py")
os.execv(sys.executable, [sys.executable, str(member), *([argument] if argument else [])])
