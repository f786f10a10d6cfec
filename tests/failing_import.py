"""An adapter module whose own import fails (a dependency it lacks): `python:failing_import:Engine`
names a module that exists, so the engine cannot start (exit 3), not a wrong command line."""

import a_dependency_nobody_installed  # noqa: F401
