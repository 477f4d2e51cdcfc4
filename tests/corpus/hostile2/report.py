"""Run the corpus and report what fails today, grouped by family, most severe first.

    PYTHONPATH=. python -m tests.corpus.hostile2.report [--write-failing] [--json=PATH]
        [CASE_ID|FAMILY ...]

`--write-failing` rewrites `failing.py` (the strict xfails of the harness) from the run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from .cases import CASES, FAMILIES, Case
from .runner import Scheduler

SEVERITY = ("code", "files", "memory", "hang", "time", "traceback", "exit", "message")


def severity(problems: list[str]) -> int:
    kinds = [p.split(":", 1)[0] for p in problems]
    return min((SEVERITY.index(k) for k in kinds if k in SEVERITY), default=len(SEVERITY))


def main(argv: list[str]) -> int:
    write = "--write-failing" in argv
    wanted = [a for a in argv if not a.startswith("--")]
    chosen: list[Case] = [c for c in CASES if not wanted or c.id in wanted or c.family in wanted]
    start = time.monotonic()
    sched = Scheduler(chosen, int(os.environ.get("HOSTILE2_WORKERS", "2")))
    results: dict[str, tuple[list[str], str]] = {}
    try:
        for c in chosen:
            results[c.id] = sched.result(c.id)
            problems, summary = results[c.id]
            print(("FAIL " if problems else "ok   ") + c.id, flush=True, file=sys.stderr)
    finally:
        sched.close()
    took = time.monotonic() - start
    failing = [c for c in chosen if results[c.id][0]]
    print(
        f"{len(chosen)} cases, {len(chosen) - len(failing)} pass, {len(failing)} fail "
        f"({took:.0f} s)\n"
    )
    for family in FAMILIES:
        group = [c for c in failing if c.family == family]
        if not group:
            continue
        print(f"## {family}: {len(group)} failing\n")
        group.sort(key=lambda c: (severity(results[c.id][0]), c.id))
        for c in group:
            problems, summary = results[c.id]
            print(f"- {c.id}: {summary}")
            for p in problems:
                print(f"    {p}")
        print()
    if write:
        _write_failing(failing, results)
    for arg in argv:
        if arg.startswith("--json="):  # every case's problems and summary, for tooling
            data = {
                c.id: {
                    "family": c.family,
                    "problems": results[c.id][0],
                    "summary": results[c.id][1],
                }
                for c in chosen
            }
            Path(arg[len("--json=") :]).write_text(json.dumps(data, indent=1), encoding="utf-8")
    return 0


def _write_failing(failing: list[Case], results: dict[str, tuple[list[str], str]]) -> None:
    """Rewrite failing.py: the entries of the cases that ran are replaced by this run's, the
    others kept (so that a run of some cases updates just those)."""
    from .failing import FAILING

    known = {c.id for c in CASES}
    reasons = {k: v for k, v in FAILING.items() if k not in results and k in known}
    for c in failing:
        problems, summary = results[c.id]
        worst = sorted(problems, key=lambda p: severity([p]))[0]
        how = summary.split("; stderr:")[0]
        reasons[c.id] = f"{worst[:160]} ({how})"
    lines = [
        "# ruff: noqa: E501  (generated: one case a line)",
        '"""The cases that fail today, each with its symptom: the to-do list of issue 9.',
        "",
        "The harness runs them as xfails, strict unless the symptom is memory or time (those",
        "depend on the machine). Remove an entry when its case passes",
        "(`python -m tests.corpus.hostile2.report --write-failing` rewrites this file).",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "FAILING: dict[str, str] = {",
    ]
    for c in CASES:
        if c.id in reasons:
            lines.append(f"    {c.id!r}: {reasons[c.id]!r},")
    lines.append("}")
    path = Path(__file__).with_name("failing.py")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # In the project's style, where ruff is installed.
    subprocess.run([sys.executable, "-m", "ruff", "format", "-q", str(path)], check=False)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
