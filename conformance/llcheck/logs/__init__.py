"""Game logs (docs/formats.md#game-logs): recorded games read from JSON lines (`reading`), the
reference's expectations of each (`expected`), and the log as an engine that replays what it
recorded (`replayed`), so that `llcheck verify` judges a log with the harness's own runner.
Engine-dealt rounds (`dealt`) are played into logs and verified the same way."""
