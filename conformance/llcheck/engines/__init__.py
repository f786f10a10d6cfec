"""Engines under test, behind one interface (`base.Engine`): in-process or over the protocol."""

from .base import CAPABILITIES, Engine, EngineFailure, Hello, Reply
from .loader import engine_factory, open_engine
from .reference import ReferenceEngine
from .subprocess import EngineGone, SubprocessEngine

__all__ = ["CAPABILITIES", "Engine", "EngineFailure", "EngineGone", "Hello", "Reply", "ReferenceEngine",
           "SubprocessEngine", "engine_factory", "open_engine"]
