#!/usr/bin/env python3
"""Benchmark the case corpus: loading and schema validation (the Rust `jsonschema-rs` fast path
against plain `jsonschema`), the self-checks of `llcheck cases --validate`, and the classic
corpus against the Node.js example engine over the protocol (when `node` is installed), and the
Premium corpus against the reference engine, in process and over the protocol (`llcheck serve`).

The best of several repeats is reported for each figure.

    python tools/bench_corpus.py [--repeat R] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from llcheck.engines.subprocess import SubprocessEngine
from llcheck.harness import cases as corpus
from llcheck.harness.runner import run_cases
from llcheck.harness.select import Selection
from llcheck.harness.selfcheck import against_reference, validate
from loveletter_ref.spec.schema import validator_for

ROOT = Path(__file__).resolve().parents[1]

NODE_ENGINE = "node conformance/examples/node/engine.js"


def best(repeat: int, work: Callable[[], Any]) -> float:
    """The fastest of `repeat` runs of `work`, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(repeat: int) -> dict[str, Any]:
    files = [json.loads(p.read_text(encoding="utf-8")) for p in corpus.corpus_files()]
    cases = corpus.load_corpus()
    slow = validator_for(corpus.schema_path())
    fast = corpus.fast_validator(corpus.schema_path())
    figures: dict[str, Any] = {
        "files": len(files), "cases": len(cases),
        "bytes": sum(p.stat().st_size for p in corpus.corpus_files()),
        "schema_jsonschema_s": best(repeat, lambda: [list(slow.iter_errors(d)) for d in files]),
        "schema_jsonschema_rs_s": best(repeat, lambda: [fast.is_valid(d) for d in files]) if fast else None,
        "load_corpus_s": best(repeat, corpus.load_corpus),
        "reference_in_process_s": best(repeat, lambda: against_reference(cases)),
        "validate_s": best(repeat, validate),
    }
    premium = Selection(editions=["premium"]).choose(cases)
    figures["premium_cases"] = len(premium)
    figures["premium_in_process_s"] = best(repeat, lambda: against_reference(premium))
    figures["premium_serve_s"] = best(repeat, lambda: run_cases(
        premium, lambda: SubprocessEngine([sys.executable, "-m", "llcheck", "serve"], cwd=ROOT)))
    if shutil.which("node"):
        classic = Selection(editions=["classic"]).choose(cases)
        figures["node_classic_cases"] = len(classic)
        figures["node_classic_s"] = best(repeat, lambda: run_cases(
            classic, lambda: SubprocessEngine(NODE_ENGINE, cwd=ROOT)))
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="measurements per figure; the best is kept")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    figures = measure(args.repeat)
    figures["python"] = platform.python_version()
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"Python {figures['python']}; {figures['files']} files, {figures['cases']} cases, "
          f"{figures['bytes'] / 1e6:.2f} MB; best of {args.repeat}")
    rows = [("schema validation, jsonschema", "schema_jsonschema_s"),
            ("schema validation, jsonschema-rs", "schema_jsonschema_rs_s"),
            ("load_corpus (parse, validate, check)", "load_corpus_s"),
            ("every case, reference in process", "reference_in_process_s"),
            ("llcheck cases --validate (all checks)", "validate_s"),
            ("classic corpus, Node example, protocol", "node_classic_s"),
            ("premium corpus, reference in process", "premium_in_process_s"),
            ("premium corpus, llcheck serve, protocol", "premium_serve_s")]
    for label, key in rows:
        value = figures.get(key)
        print(f"{label:<42} {'n/a' if value is None else f'{value:.3f} s':>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
