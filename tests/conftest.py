"""Shared test setup.

`gradcli.engine` is imported first: importing `gradcli.ops` before the engine fails with a
circular import (see `test_engine.py::test_ops_imports_on_its_own`).
"""

from __future__ import annotations

import gradcli.core.autograd  # noqa: F401  (first: see the docstring)
