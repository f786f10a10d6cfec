"""The hostile zoo of files (tests/data/hostile/): confinement, bounds and located messages."""

from __future__ import annotations

import builtins
import os
import re
import shutil
from pathlib import Path

import pytest

from llcheck.cli import main
from loveletter_ref.paths import rulebook_dirs, spec_dir
from loveletter_ref.spec.schema import MAX_PROBLEMS
from loveletter_ref.spec.yamlsafe import MAX_EXPANDED_CHARS, MAX_INT_DIGITS

ZOO = Path(__file__).parent / "data" / "hostile"
CLASSIC = (spec_dir() / "editions" / "classic.yaml").read_text(encoding="utf-8")
BGA = "file: en-cyrillic_bga-gamehelp_classic-and-premium.txt"
LOCATED = re.compile(r"^.+:\d+:\d+: \S.*$")
HEADER = "kind: edition\nid: {0}\nprefix: {0}\ntitle: {0}\n"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    code = main(list(argv))
    return code, capsys.readouterr().err.splitlines()


@pytest.fixture
def rulebooks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A rulebook folder of our own, holding the classic rulebook and whatever a test adds."""
    folder = tmp_path / "rulebooks"
    folder.mkdir()
    for shared in rulebook_dirs():
        for book in shared.glob("*.txt"):
            shutil.copy(book, folder)
    monkeypatch.setenv("LLCHECK_RULEBOOKS", str(folder))
    return folder


def never_opened(monkeypatch: pytest.MonkeyPatch, forbidden: str) -> list[str]:
    """Record every open of a path resolving to `forbidden` (the test asserts there is none)."""
    opened: list[str] = []

    def spying(real):  # type: ignore[no-untyped-def]
        def spy(path, *args, **kwargs):  # type: ignore[no-untyped-def]
            if isinstance(path, (str, Path)) and os.path.realpath(path) == os.path.realpath(forbidden):
                opened.append(str(path))
            return real(path, *args, **kwargs)
        return spy

    monkeypatch.setattr(os, "open", spying(os.open))
    monkeypatch.setattr(builtins, "open", spying(builtins.open))
    return opened


# -- 1. confinement ------------------------------------------------------------------------------

@pytest.mark.parametrize("zoo, named", [("quote-etc-passwd.yaml", "/etc/passwd"),
                                        ("quote-dotdot.yaml", "../../x"),
                                        ("quote-proc-environ.yaml", "/proc/self/environ")])
def test_a_quote_outside_the_rulebook_folders_is_refused_unopened(capsys, monkeypatch, rulebooks, zoo, named):
    opened = never_opened(monkeypatch, named if named.startswith("/") else str(rulebooks / named))
    code, err = run(capsys, "validate", str(ZOO / zoo))
    assert code == 2 and opened == []
    assert err == [f"{ZOO / zoo}:15:5: rulebook file {named!r} is outside the rulebook folders ({rulebooks})"]
    assert not any("lines, not" in line or "quote not found" in line for line in err)


def test_a_symlink_out_of_the_rulebook_folder_is_refused(tmp_path, capsys, rulebooks):
    (rulebooks / "link.txt").symlink_to("/etc/passwd")
    spec = tmp_path / "s.yaml"
    spec.write_text(CLASSIC.replace(BGA, "file: link.txt"), encoding="utf-8")
    code, err = run(capsys, "validate", str(spec))
    assert code == 2 and err == [f"{spec}:15:5: rulebook file 'link.txt' is outside the rulebook folders "
                                 f"({rulebooks})"]


def test_a_fifo_in_the_rulebook_folder_is_refused_without_blocking(tmp_path, capsys, rulebooks):
    os.mkfifo(rulebooks / "fifo.txt")
    spec = tmp_path / "s.yaml"
    spec.write_text(CLASSIC.replace(BGA, "file: fifo.txt"), encoding="utf-8")
    code, err = run(capsys, "validate", str(spec))
    assert code == 2 and err == [f"{spec}:15:5: rulebook file 'fifo.txt' is not a regular file"]


def test_an_oversized_rulebook_is_refused_unread(tmp_path, capsys, rulebooks):
    (rulebooks / "big.txt").write_bytes(b"a" * 1_000_001)
    spec = tmp_path / "s.yaml"
    spec.write_text(CLASSIC.replace(BGA, "file: big.txt"), encoding="utf-8")
    code, err = run(capsys, "validate", str(spec))
    assert code == 2 and err == [f"{spec}:15:5: rulebook file 'big.txt' is larger than the limit of "
                                 "1,000,000 bytes"]


@pytest.mark.skipif(not rulebook_dirs(), reason="the shared rulebooks are not beside the checkout")
def test_a_rulebook_inside_the_folders_is_still_checked(capsys, rulebooks):
    assert main(["validate", "classic"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "46 quotes checked" in out


def test_extends_an_absolute_path_is_refused(capsys):
    code, err = run(capsys, "validate", str(ZOO / "extends-etc-passwd.yaml"))
    assert code == 2 and len(err) == 1
    assert err[0].startswith(f"{ZOO / 'extends-etc-passwd.yaml'}:5:1: extends '/etc/passwd' is outside the "
                             f"spec's own folder {ZOO} (extends takes a bundled edition, classic, ")


def test_extends_a_fifo_beside_the_spec_is_refused_without_blocking(tmp_path, capsys):
    os.mkfifo(tmp_path / "base.yaml")
    (tmp_path / "d.yaml").write_text(HEADER.format("d") + "extends: base.yaml\n", encoding="utf-8")
    code, err = run(capsys, "validate", str(tmp_path / "d.yaml"))
    assert code == 2 and err == [f"{tmp_path / 'd.yaml'}:5:1: extends 'base.yaml' is not a regular file"]


def test_extends_is_read_from_the_spec_folder_not_the_current_one(tmp_path, capsys, monkeypatch):
    (tmp_path / "base.yaml").write_text(CLASSIC.replace("id: classic\n", "id: base\n"), encoding="utf-8")
    (tmp_path / "d.yaml").write_text(HEADER.format("d") + "extends: base.yaml\n", encoding="utf-8")
    monkeypatch.chdir(ZOO)
    code, err = run(capsys, "validate", str(tmp_path / "d.yaml"))
    assert code == 0, err


def test_a_cycle_of_three_extends_is_one_line(capsys):
    code, err = run(capsys, "validate", str(ZOO / "extends-cycle-a.yaml"))
    assert code == 2 and len(err) == 1 and "Traceback" not in err[0]
    assert err[0].endswith("extends-cycle-c.yaml:5:1: extends 'extends-cycle-a.yaml', which extends this "
                           "file "
                           "again")


# -- 2. bounds -----------------------------------------------------------------------------------

def test_a_huge_integer_in_a_spec_is_located(capsys):
    code, err = run(capsys, "validate", str(ZOO / "huge-integer.yaml"))
    assert (code, err) == (2, [f"{ZOO / 'huge-integer.yaml'}:5:16: an integer of 5,000 digits "
                               f"(at most {MAX_INT_DIGITS})"])


def test_a_huge_integer_in_a_case_is_located(tmp_path, capsys):
    folder = tmp_path / "required" / "classic"
    folder.mkdir(parents=True)
    shutil.copy(ZOO / "huge-integer-case.json", folder / "x.json")
    code, err = run(capsys, "cases", "--validate", "--root", str(tmp_path))
    assert code == 2
    assert err[0] == f"{folder / 'x.json'}:1:57: an integer of 5,000 digits (at most {MAX_INT_DIGITS})"


def test_aliases_count_by_the_characters_they_expand_to(tmp_path, capsys):
    lines = [HEADER.format("m"), f's: &s "{"x" * 1_000_000}"', "cards:"] + ["  - *s"] * 100_000
    (spec := tmp_path / "s.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, err = run(capsys, "validate", str(spec))
    assert code == 2 and err == [f"{spec}:6:4: document expands to more than {MAX_EXPANDED_CHARS:,} "
                                 "characters (aliases of long strings?); refusing it"]


def test_schema_problems_are_capped_and_short(tmp_path, capsys):
    lines = [HEADER.format("m"), f's: &s "{"x" * 100_000}"', "cards:"] + ["  - *s"] * 90 + ["  - 1"] * 1000
    (spec := tmp_path / "s.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, err = run(capsys, "validate", str(spec))
    assert code == 2 and len(err) == MAX_PROBLEMS + 1
    assert err[-1].endswith(f"more schema problems not shown (at most {MAX_PROBLEMS} are reported)")
    assert all(LOCATED.match(line) and len(line) < 500 for line in err)


# -- 3. located lines ----------------------------------------------------------------------------

@pytest.mark.parametrize("zoo, where, char", [("nul-byte.yaml", "7:8", "'\\x00' (U+0000)"),
                                              ("esc-byte.yaml", "7:9", "'\\x1b' (U+001B)")])
def test_a_control_byte_is_located_at_its_line_and_column(capsys, zoo, where, char):
    code, err = run(capsys, "validate", str(ZOO / zoo))
    assert (code, err) == (2, [f"{ZOO / zoo}:{where}: the character {char} is not allowed in YAML"])


def test_an_empty_spec_name_is_one_line(capsys):
    for argv in (["show", ""], ["validate", ""], ["show", "--edition", ""]):
        code, err = run(capsys, *argv)
        assert (code, err) == (2, ["'':1:1: the spec name is empty: give a bundled spec id or a file"])


def test_a_case_folder_reads_only_its_own_regular_files(tmp_path, capsys):
    folder = tmp_path / "required" / "classic"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "fifo.json")
    (folder / "passwd.json").symlink_to("/etc/passwd")
    for argv in (["cases", "--validate", "--root", str(tmp_path)],
                 ["check", "--impl", "reference", "--corpus", str(tmp_path)]):
        code, err = run(capsys, *argv)
        assert code == 2
        assert err[:2] == [f"{folder / 'fifo.json'}:1:1: case file 'required/classic/fifo.json' is not a "
                           "regular file",
                           f"{folder / 'passwd.json'}:1:1: case file 'required/classic/passwd.json' is "
                           f"outside the case folder {tmp_path}"]


@pytest.mark.parametrize("field, where, message", [
    ("sources: null", "6:1", "sources: None is not of type 'object'"),
    ("cards: 5", "6:1", "cards: 5 is not of type 'array'"),
    ("rules: {a: 1}", "6:1", "rules: {'a': 1} is not of type 'array'"),
    ("cards: [{name: Guard, rules: 5}]", "6:23", "cards[0].rules: 5 is not of type 'array'"),
])
def test_an_extension_of_the_wrong_shape_is_located_not_merged(tmp_path, capsys, field, where, message):
    """Found by the loader fuzzer: the derived file is merged before it is validated."""
    spec = tmp_path / "d.yaml"
    spec.write_text(HEADER.format("d") + f"extends: classic\n{field}\n", encoding="utf-8")
    code, err = run(capsys, "validate", str(spec))
    assert code == 2 and err[0] == f"{spec}:{where}: {message}"


def test_a_control_byte_after_wide_characters_is_located_in_characters(tmp_path, capsys):
    """Found by the loader fuzzer: libyaml counts the position in bytes."""
    (spec := tmp_path / "s.yaml").write_bytes('a: "Гу\x00"\n'.encode())
    code, err = run(capsys, "validate", str(spec))
    assert (code, err) == (2, [f"{spec}:1:7: the character '\\x00' (U+0000) is not allowed in YAML"])
