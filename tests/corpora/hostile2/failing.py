"""The cases that fail today, each with its symptom: the to-do list of issue 9.

The harness runs them as strict xfails. Remove an entry when its case passes.
"""

from __future__ import annotations

FAILING: dict[str, str] = {}
