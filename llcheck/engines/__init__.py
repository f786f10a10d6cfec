"""Engines under test, behind one interface (`base.Engine`): in-process or over the protocol."""

from .base import CAPABILITIES, Engine, EngineFailure, Hello, Reply
from .reference import ReferenceEngine

__all__ = ["CAPABILITIES", "Engine", "EngineFailure", "Hello", "Reply", "ReferenceEngine"]
