"""`base.lazy.lazy_module` and the op registry it leaves in load order: the registry read
through `gradcli.ops` is complete and in the same order whatever a process used first."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_ORDER = textwrap.dedent(
    """
    import importlib, json, sys
    import gradcli.ops
    for name in sys.argv[1:]:  # families a program reached first, in this order
        getattr(importlib.import_module("gradcli.ops." + name), "__name__")
    from gradcli.ops import REGISTRY
    print(json.dumps(list(REGISTRY)))
    """
)


def _registry_after(*first: str) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run(
        [sys.executable, "-c", _ORDER, *first],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env,
    )
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_the_registry_has_one_order_whatever_was_used_first() -> None:
    plain = _registry_after()
    for first in (("ctc", "special"), ("conv", "scan", "batchnorm"), ("loss",)):
        assert _registry_after(*first) == plain, first
    # every family's records are there, the eager ones first (test the test: the lazy
    # families did register something)
    assert {"ctc_loss", "conv", "xlogy", "binary_cross_entropy"} <= set(plain)
    assert plain.index("mul") < plain.index("ctc_loss")


def test_a_lazy_module_runs_at_its_first_attribute_read() -> None:
    code = textwrap.dedent(
        """
        import sys
        from gradcli.base.lazy import lazy_module
        m = lazy_module("gradcli.ops.ctc")
        assert lazy_module("gradcli.ops.ctc") is m
        before = type(sys.modules["gradcli.ops.ctc"]).__name__
        import gradcli.ops as ops
        assert ops.ctc is m
        from gradcli.core.op import REGISTRY
        had = "ctc_loss" in REGISTRY
        m.ctc_loss  # the first read runs the module
        print(before, had, "ctc_loss" in REGISTRY, type(m).__name__)
        """
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["_LazyModule", "False", "True", "module"]
