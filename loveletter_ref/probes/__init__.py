"""z3 probes: prove what can never happen in a round, and find a game for everything that can.

See docs/probes.md. The public interface is `loveletter_ref.probes.api`.
"""
