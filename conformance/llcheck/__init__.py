"""llcheck: the command-line front door to the Love Letter rules checker and conformance suite."""

__version__ = "0.1.0"
