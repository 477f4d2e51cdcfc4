"""Helpers the tests share: `gradcheck` (the registry-driven derivative checks) and `ROOT`."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent  # the repository
