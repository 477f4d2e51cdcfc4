"""The recording tools' check of the machine: whether its PyTorch computes float32 matrix
products to the bits recorded on the reference machine (`tests/surface/data/sgemm/host_check.py`),
and the warning `tutorials/record.py` gives when it does not."""

from __future__ import annotations

import importlib.util
import os
import stat
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

TESTS = Path(__file__).resolve().parent.parent


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOST = _load("_sgemm_host_check", TESTS / "surface" / "data" / "sgemm" / "host_check.py")
RECORD = _load("_tutorials_record", TESTS / "corpus" / "tutorials" / "record.py")


def _cases() -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    rng = np.random.default_rng(5)
    results = [rng.integers(0, 2**32, n, dtype=np.uint32) for n in (3, 1, 4)]
    lengths = np.array([len(r) for r in results])
    return np.concatenate(results), lengths, [r.copy() for r in results]


def test_same_bits_differ_nowhere() -> None:
    bits, lengths, results = _cases()
    assert HOST.differing(bits, lengths, results) == []


def test_one_flipped_bit_names_its_case() -> None:
    bits, lengths, results = _cases()
    results[2][3] ^= 1  # the last element of the third case, one bit
    assert HOST.differing(bits, lengths, results) == [2]
    results[0][0] ^= 1 << 31  # a sign bit in the first
    assert HOST.differing(bits, lengths, results) == [0, 2]


def test_a_short_result_differs() -> None:
    bits, lengths, results = _cases()
    results[1] = results[1][:0]
    assert HOST.differing(bits, lengths, results) == [1]


def test_a_missing_case_is_an_error() -> None:
    bits, lengths, results = _cases()
    with pytest.raises(ValueError, match="2 results for 3 recorded cases"):
        HOST.differing(bits, lengths, results[:2])


def _fake_python(tmp_path: Path, status: int, text: str) -> str:
    """An executable that stands in for the Python running host_check.py."""
    path = tmp_path / f"python{status}"
    path.write_text(f"#!/bin/sh\necho '{text}'\nexit {status}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.mark.skipif(os.name != "posix", reason="a shell script stands in for Python")
def test_record_warns_only_when_the_bits_differ(tmp_path: Path) -> None:
    differs = _fake_python(tmp_path, 1, "this machine computes 3 of 4 to other bits")
    assert RECORD.host_note(differs) == "this machine computes 3 of 4 to other bits"
    agrees = _fake_python(tmp_path, 0, "all 4 agree")
    assert RECORD.host_note(agrees) is None
    broken = _fake_python(tmp_path, 2, "no torch here")  # the check could not run
    assert RECORD.host_note(broken) is None
    assert RECORD.host_note(str(tmp_path / "no-such-python")) is None


def test_host_check_against_live_torch() -> None:
    """Under a Python with torch the script runs and its status says whether any case differs."""
    pytest.importorskip("torch")
    import subprocess

    proc = subprocess.run(
        [sys.executable, str(HOST.__file__)], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode in (0, 1), proc.stderr
    assert ("other bits" in proc.stdout) == (proc.returncode == 1)
