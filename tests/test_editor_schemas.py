"""Editor support for spec files: real schema ids, `llcheck schema --path` and `--modeline`, and a
`# yaml-language-server: $schema=` first line in every bundled spec and the edition-of-your-own
example, checked with yaml-language-server itself when it is installed (.ci/run installs it from
npm when npm is there) and always with check-jsonschema."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import run_llcheck

from loveletter_ref.spec import schema_path

ROOT = Path(__file__).parent.parent
MODELINE = re.compile(r"# yaml-language-server: \$schema=(\S+)\n")
SPECS = sorted((ROOT / "spec").glob("*/*.yaml")) + \
    sorted(p for p in (ROOT / "tests" / "data").glob("*/*.yaml") if p.parent.name != "hostile")
"""The bundled specs and the test specs written as examples; the hostile ones are broken on purpose."""
SCHEMAS = sorted((ROOT / "spec" / "schema").glob("*.json")) + \
    sorted((ROOT / "conformance").glob("*/*.schema.json"))


def _language_server() -> str | None:
    """yaml-language-server: $LLCHECK_YAML_LANGUAGE_SERVER, the copy .ci/run installs, or on PATH."""
    given = os.environ.get("LLCHECK_YAML_LANGUAGE_SERVER")
    local = ROOT / ".ci" / "yls" / "node_modules" / ".bin" / "yaml-language-server"
    return given or (str(local) if local.exists() else shutil.which("yaml-language-server"))


def _check_jsonschema() -> str:
    return str(Path(sys.executable).parent / "check-jsonschema")


def test_every_schema_has_a_real_and_distinct_id():
    ids = [json.loads(path.read_text())["$id"] for path in SCHEMAS]
    assert all(re.fullmatch(r"urn:loveletter-conformance:[a-z]+:\d+", i) for i in ids), ids
    assert len(set(ids)) == len(ids) >= 6


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.name)
def test_every_bundled_spec_names_its_schema_on_its_first_line(spec):
    found = MODELINE.match(spec.read_text(encoding="utf-8"))
    assert found, f"{spec}: the first line is not a yaml-language-server modeline"
    assert (spec.parent / found.group(1)).resolve() == schema_path().resolve()


def test_schema_path_and_modeline_name_the_installed_schema(capsys):
    code, out, _ = run_llcheck(capsys, "schema", "--path")
    assert code == 0 and Path(out.strip()).read_bytes() == schema_path().read_bytes()
    code, out, _ = run_llcheck(capsys, "schema", "case", "--modeline")
    assert code == 0 and MODELINE.fullmatch(out)
    case_schema = json.loads(Path(MODELINE.fullmatch(out).group(1)).read_text())
    assert case_schema["$id"] == "urn:loveletter-conformance:case:1"
    code, out, _ = run_llcheck(capsys, "schema", "report")
    assert code == 0 and json.loads(out)["$id"].startswith("urn:loveletter-conformance:report:")
    code, _, err = run_llcheck(capsys, "schema", "nosuch")
    assert code == 2 and err.startswith("llcheck schema: argument NAME: invalid choice: 'nosuch'")


def _copied_edition(tmp_path: Path, capsys) -> Path:
    """classic.yaml copied out of the checkout, its first line from `llcheck schema --modeline`."""
    code, modeline, _ = run_llcheck(capsys, "schema", "--modeline")
    assert code == 0
    text = (ROOT / "spec" / "editions" / "classic.yaml").read_text(encoding="utf-8")
    path = tmp_path / "elsewhere" / "my-edition.yaml"
    path.parent.mkdir()
    path.write_text(modeline + MODELINE.sub("", text, count=1), encoding="utf-8")
    return path


def _broken(text: str) -> str:
    """The Guard's value, a number, written as a word."""
    assert "value: 1\n" in text
    return text.replace("value: 1\n", "value: one\n", 1)


def test_check_jsonschema_agrees_with_validate_on_a_copied_edition(tmp_path, capsys):
    good = _copied_edition(tmp_path, capsys)
    schema = MODELINE.match(good.read_text()).group(1)
    command = [_check_jsonschema(), "--schemafile", schema]
    ran = subprocess.run([*command, str(good)], capture_output=True, text=True)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    bad = good.with_name("broken.yaml")
    bad.write_text(_broken(good.read_text()))
    ran = subprocess.run([*command, str(bad)], capture_output=True, text=True)
    assert ran.returncode == 1 and "'one' is not of type 'integer'" in ran.stdout + ran.stderr
    code, _, err = run_llcheck(capsys, "validate", str(bad))
    line = bad.read_text().splitlines().index("    value: one") + 1
    assert code == 2 and err.startswith(f"{bad}:{line}:"), err


class _Client:
    """Just enough of a language-server client: JSON-RPC over stdio, answering the server's own
    requests (configuration, capability registration) as an editor would."""

    def __init__(self, command: str):
        self.process = subprocess.Popen([command, "--stdio"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.settings = {"validate": True, "completion": True, "hover": True,
                         "schemaStore": {"enable": False}}

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        length = 0
        while (line := self.process.stdout.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        assert length, "the language server closed its output"
        message: dict[str, Any] = json.loads(self.process.stdout.read(length))
        if "id" in message and "method" in message:  # a request of the server's
            result: Any = None
            if message["method"] == "workspace/configuration":
                result = [self.settings if item.get("section") == "yaml" else None
                          for item in message["params"]["items"]]
            self.send({"id": message["id"], "result": result})
        return message

    def request(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == self.next_id and "method" not in message:
                return message.get("result")

    def diagnostics(self, uri: str) -> list[dict[str, Any]]:
        while True:
            message = self.receive()
            if message.get("method") == "textDocument/publishDiagnostics" and \
                    message["params"]["uri"] == uri:
                return list(message["params"]["diagnostics"])

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


@pytest.mark.skipif(_language_server() is None, reason="yaml-language-server is not installed (npm)")
def test_yaml_language_server_loads_the_schema_of_a_copied_edition(tmp_path, capsys):
    good = _copied_edition(tmp_path, capsys)
    client = _Client(str(_language_server()))
    try:
        client.request("initialize", {"processId": os.getpid(), "rootUri": tmp_path.as_uri(),
                                      "capabilities": {"workspace": {"configuration": True},
                                                       "textDocument": {"completion": {}}}})
        client.send({"method": "initialized", "params": {}})
        client.send({"method": "workspace/didChangeConfiguration",
                     "params": {"settings": {"yaml": client.settings}}})
        text = _broken(good.read_text())
        uri = good.as_uri()
        client.send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": text}}})
        found = client.diagnostics(uri)
        messages = [d["message"] for d in found]
        assert not any("Unable to load schema" in m for m in messages), messages
        line = text.splitlines().index("    value: one")
        assert any(d["range"]["start"]["line"] == line and "Incorrect type" in d["message"]
                   for d in found), found
        end = {"line": len(text.splitlines()), "character": 0}
        top = client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": end})
        items = top["items"] if isinstance(top, dict) else top
        offered = {item["label"] for item in items}
        keys = set(json.loads(schema_path().read_text())["properties"])
        assert offered and offered <= keys and "cards" not in offered  # the keys the file lacks
    finally:
        client.close()


def test_the_documented_start_of_an_edition_of_your_own_validates(tmp_path):
    doc = (ROOT / "docs" / "spec-language.md").read_text(encoding="utf-8")
    recipe = next(line for line in doc.splitlines() if line.startswith("{ llcheck schema --modeline;"))
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    subprocess.run(["bash", "-c", recipe], cwd=tmp_path, env=env, check=True)
    made = tmp_path / "my-edition.yaml"
    assert (Path(MODELINE.match(made.read_text()).group(1))).resolve() == schema_path().resolve()
    ran = subprocess.run(["llcheck", "validate", str(made)], env=env, capture_output=True, text=True)
    assert ran.returncode == 0 and ": ok: edition classic" in ran.stdout
