"""One self-contained HTML page (no network: the viewer's script and style are inline) holding
films of games, and optionally a report whose rows link into them."""

from __future__ import annotations

import html
import json
from importlib import resources
from pathlib import Path
from typing import Any

from ..atomic import write_atomic

Json = dict[str, Any]


def page(title: str, films: list[Json], report: Json | None = None, seat: int | None = None) -> str:
    """The HTML text. `report`, when given, is `{"summary": str, "rows": [{"id", "status",
    "clauses", "message", "film": index or None}]}`; `seat` hides the other players' hands."""
    data = {"title": title, "films": films, "report": report, "seat": seat}
    # inside <script>, only "<" could end the element early; in JSON it appears only within strings
    text = json.dumps(data, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")
    template = resources.files(__package__).joinpath("viewer.html").read_text(encoding="utf-8")
    return template.replace("__TITLE__", html.escape(title)).replace("__DATA__", text)


def write_page(path: str | Path, title: str, films: list[Json], report: Json | None = None,
               seat: int | None = None) -> None:
    """Write the page to `path` (OSError when it cannot be written)."""
    write_atomic(path, page(title, films, report, seat))
