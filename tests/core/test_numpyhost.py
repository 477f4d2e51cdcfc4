"""NumPy's and OpenBLAS's kernels pinned before NumPy's first import (gradcli/base/numpyhost.py)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from gradcli.base import numpyhost as _numpyhost

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ('version = "1.26.4"\n', _numpyhost._OLD),
        ('version = "2.3.5"\n', _numpyhost._OLD),
        ('version = "2.4.0"\n', _numpyhost._NEW),
        ("version = '3.0.0rc1'\n", _numpyhost._NEW),
        ('version = "unknown"\n', _numpyhost._NEW),
        ("", _numpyhost._NEW),
    ],
)
def test_the_names_follow_numpys_version(monkeypatch, tmp_path, text: str, names: str) -> None:
    (tmp_path / "version.py").write_text('"""NumPy."""\n' + text)
    spec = types.SimpleNamespace(submodule_search_locations=[str(tmp_path)])
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: spec)
    assert _numpyhost._numpy_names() == names


def test_pin_sets_both_and_keeps_the_users(monkeypatch) -> None:
    monkeypatch.delitem(sys.modules, "numpy")
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(_numpyhost, "_avx512", lambda: True)
    monkeypatch.delenv("NPY_DISABLE_CPU_FEATURES", raising=False)
    monkeypatch.delenv(_numpyhost.MARK, raising=False)
    monkeypatch.setattr(_numpyhost, "_PINNED", {})
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Zen")
    _numpyhost.pin()
    assert os.environ["NPY_DISABLE_CPU_FEATURES"] == _numpyhost._numpy_names()
    assert os.environ["OPENBLAS_CORETYPE"] == "Zen"  # the user's own choice stays
    monkeypatch.delenv("OPENBLAS_CORETYPE")
    monkeypatch.setenv("NPY_DISABLE_CPU_FEATURES", "")
    _numpyhost.pin()
    assert os.environ["NPY_DISABLE_CPU_FEATURES"] == ""
    assert os.environ["OPENBLAS_CORETYPE"] == "Haswell"


def test_pin_leaves_other_machines_and_an_imported_numpy(monkeypatch) -> None:
    monkeypatch.delenv("NPY_DISABLE_CPU_FEATURES", raising=False)
    monkeypatch.delenv(_numpyhost.MARK, raising=False)
    monkeypatch.setattr(_numpyhost, "_PINNED", {})
    monkeypatch.delenv("OPENBLAS_CORETYPE", raising=False)
    monkeypatch.setattr(_numpyhost, "_avx512", lambda: True)
    _numpyhost.pin()  # NumPy is imported in this process: too late to choose
    monkeypatch.delitem(sys.modules, "numpy")
    monkeypatch.setattr(_numpyhost, "_avx512", lambda: False)
    _numpyhost.pin()
    assert "NPY_DISABLE_CPU_FEATURES" not in os.environ
    assert "OPENBLAS_CORETYPE" not in os.environ


@pytest.mark.skipif(not _numpyhost._avx512(), reason="an AVX-512 machine's NumPy only")
def test_an_avx512_machines_numpy_runs_without_its_avx512_code() -> None:
    code = (
        "import gradcli, numpy\n"
        "from numpy._core._multiarray_umath import __cpu_features__ as f\n"
        "print(f.get('X86_V4', f.get('AVX512_SKX')))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("NPY_DISABLE_CPU_FEATURES",)}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run(
        [sys.executable, "-W", "error", "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
