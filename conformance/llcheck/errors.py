"""Errors of the llcheck tool itself."""


class UsageError(Exception):
    """A command-line argument or input the user can correct; printed as one line, exit 2."""
