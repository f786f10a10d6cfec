"""An adapter for the PyPI package loveletter 0.0.5, a Telegram bot's engine (classic edition,
one round per game): `--impl python:llcheck.thirdparty.loveletter005:Loveletter005`. Its
deviations are reported in docs/third-party/loveletter-0.0.5.md."""

from .engine import Loveletter005

__all__ = ["Loveletter005"]
