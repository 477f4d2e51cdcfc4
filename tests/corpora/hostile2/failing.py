"""The cases that fail today (see report.py)."""

from __future__ import annotations

FAILING: dict[str, str] = {}
