"""z3 probes: prove what can never happen in a round, and find a game for everything that can.

See docs/probes.md. The public interface is `loveletter_ref.probes.api`.
"""

import z3

z3.set_param("ctrl_c", False)  # a stop signal is the program's to act on, not an "unknown" answer
