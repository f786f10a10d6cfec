"""The README's sample outputs are what the commands print (tools/readme_samples.py writes them
from real runs; this test runs them again and compares, times aside)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
TOOL = ROOT / "tools" / "readme_samples.py"


def _check(readme: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), "--check", "--readme", str(readme)],
                          capture_output=True, text=True, timeout=900, check=False)


def test_every_readme_sample_is_what_its_command_prints():
    done = _check(ROOT / "README.md")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (ROOT / "README.md").read_text(encoding="utf-8").count("<!-- sample: ") >= 2


def test_a_sample_that_no_longer_matches_is_named_with_its_line(tmp_path):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("<!-- sample: head ")
    at = text.index(" passed, ", start)  # the totals line: "79 passed" where the command says 81
    readme = tmp_path / "README.md"
    readme.write_text(text[:at] + " passed (as the README said), " + text[at + len(" passed, "):],
                      encoding="utf-8")
    done = _check(readme)
    assert done.returncode == 1
    line = text[:at].count("\n") + 1
    assert done.stdout.startswith(f"README.md:{line}: the sample differs from a real run")
    assert "(as the README said)" in done.stdout
    assert "run python tools/readme_samples.py to write the samples again" in done.stdout
