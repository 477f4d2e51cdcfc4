# ruff: noqa: E501  (generated: one case a line)
"""The cases that fail today, each with its symptom: the to-do list of issue 9.

The harness runs them as xfails, strict unless the symptom is memory or time (those
depend on the machine). Remove an entry when its case passes
(`python -m tests.corpus.hostile2.report --write-failing` rewrites this file).
"""

from __future__ import annotations

FAILING: dict[str, str] = {}
