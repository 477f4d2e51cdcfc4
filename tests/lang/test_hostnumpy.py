"""A program's own NumPy computations on the host's own kernels (gradcli/lang/hostnumpy.py):
which calls leave the pinned process, that the child computes what NumPy computes (with the
arrays' layout, NumPy's errors and named tuples), and that a program prints what the host's
NumPy prints in a process without gradcli's pin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gradcli.base import numpyhost
from gradcli.lang import hostnumpy

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def routed(monkeypatch):
    """The child as gradcli runs it where it pinned the kernels (on any machine: here the
    environment of the child is this one's without the two variables)."""
    monkeypatch.setattr(numpyhost, "_PINNED", {"OPENBLAS_CORETYPE": None})
    yield hostnumpy._WORKER
    hostnumpy._WORKER.close()


def test_the_routing_decision(monkeypatch) -> None:
    x, n = np.linspace(0.5, 2.0, 7), np.arange(5)
    dep = hostnumpy._depends_on_host
    assert dep("power", (x, 3), {}) and dep("exp", (n,), {}) and dep("exp", (2,), {})
    assert not dep("power", (n, 3), {})  # integers: exact everywhere
    assert not dep("power", (x, 2), {}) and not dep("power", (x, 0.5), {})  # x * x, sqrt
    assert dep("power", (x, 2.5), {}) and dep("power", (x, np.float64(2)), {})
    assert dep("matmul", (x, x), {}) and not dep("matmul", (n, n), {})
    assert not dep("dot", (np.array([object()]), x), {})
    monkeypatch.setattr(numpyhost, "_PINNED", {"OPENBLAS_CORETYPE": None})
    monkeypatch.setenv("GRADCLI_KERNELS", "zen4")
    assert hostnumpy.active()
    monkeypatch.setenv("GRADCLI_KERNELS", "avx2")  # an AVX2 machine's text: its NumPy's
    assert not hostnumpy.active()
    monkeypatch.setenv("GRADCLI_KERNELS", "avx512")
    monkeypatch.setattr(numpyhost, "_PINNED", {})
    assert not hostnumpy.active()  # nothing pinned: NumPy computes in the process
    monkeypatch.setattr(hostnumpy._WORKER, "call", lambda *a: pytest.fail("routed"))
    assert hostnumpy.compute("power", x, 3).tolist() == np.power(x, 3).tolist()


def test_pin_records_only_what_it_set(monkeypatch) -> None:
    monkeypatch.delitem(sys.modules, "numpy")
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(numpyhost, "_avx512", lambda: True)
    monkeypatch.setattr(numpyhost, "_PINNED", {})
    monkeypatch.setenv("NPY_DISABLE_CPU_FEATURES", "")
    monkeypatch.delenv("OPENBLAS_CORETYPE", raising=False)
    monkeypatch.delenv(numpyhost.MARK, raising=False)
    numpyhost.pin()
    assert numpyhost.pinned() == {"OPENBLAS_CORETYPE": None}
    assert os.environ[numpyhost.MARK] == "OPENBLAS_CORETYPE"
    # a process started from this one: the pin it inherits is gradcli's, not the user's
    monkeypatch.setattr(numpyhost, "_PINNED", {})
    numpyhost.pin()
    assert numpyhost.pinned() == {"OPENBLAS_CORETYPE": None}
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Zen")  # changed since: the user's
    monkeypatch.setattr(numpyhost, "_PINNED", {})
    numpyhost.pin()
    assert numpyhost.pinned() == {}


def test_the_child_computes_numpys_results(routed) -> None:
    a = np.arange(24.0).reshape(4, 6)
    # views of every kind travel with their strides: a transpose, a reversed step, a broadcast
    for v in (a.T, a[::-1, ::2], np.broadcast_to(a[0], (3, 6)), a[1:3, 2:5]):
        done, got = routed.call("power", (v, 2), {})
        assert done and got.tolist() == np.power(v, 2).tolist()
    done, got = routed.call("matmul", (a.T, a), {})
    assert done and got.tolist() == (a.T @ a).tolist()  # small integers: exact
    done, svd = routed.call("linalg.svd", (np.diag([3.0, 2.0]),), {})
    assert done and svd._fields == ("U", "S", "Vh") and svd.S.tolist() == [3.0, 2.0]
    done, scalar = routed.call("dot", (np.ones(3), np.ones(3)), {})
    assert done and type(scalar) is np.float64 and scalar == 3.0
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        routed.call("linalg.inv", (np.zeros((2, 2)),), {})
    with pytest.raises(ValueError) as e:
        routed.call("dot", (np.ones((2, 3)), np.ones((2, 3))), {})
    with pytest.raises(ValueError) as here:
        np.dot(np.ones((2, 3)), np.ones((2, 3)))
    assert str(e.value) == str(here.value)
    # a name outside the list is refused by the child itself: computed here instead
    assert routed.call("linalg.tensorinv", (a[:4, :4], 2), {}) == (False, None)


PROGRAM = """\
import numpy as np, math
x = np.linspace(-math.pi, math.pi, 2000)
c = x ** 3
d = x.copy()
d **= 3
print(repr(c[1234]), int((c != x * x * x).sum()), int((d != c).sum()))
print(repr(np.power(x, 1.5)[1500]), repr(np.cbrt(x)[1500]), repr(np.exp(x).sum()))
np.random.seed(0)
a = np.random.randn(4, 300); b = np.random.randn(300, 3)
print(repr(a.dot(b)[0, 0]), repr((b.T @ a.T)[2, 1]), repr(np.linalg.solve(a[:, :4], b[:4, 0])))
"""


def test_a_program_prints_the_hosts_numpy_digits(tmp_path) -> None:
    """The host's truth: the same program run by this Python without gradcli (NumPy's own
    choice of kernels; the suite's process has them pinned)."""
    prog = tmp_path / "p.py"
    prog.write_text(PROGRAM)
    assert numpyhost.pinned() or not numpyhost._avx512()  # (a test runner's workers too)
    env = {k: v for k, v in os.environ.items() if k not in numpyhost.pinned()}
    env.pop(numpyhost.MARK, None)
    env["OPENBLAS_NUM_THREADS"] = "1"
    host = subprocess.run(
        [sys.executable, "-I", str(prog)], env=env, capture_output=True, text=True, timeout=60
    )
    assert host.returncode == 0, host.stderr
    env["PYTHONPATH"] = str(ROOT)
    mine = subprocess.run(
        [sys.executable, "-m", "gradcli", "run", str(prog)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert mine.returncode == 0, mine.stderr
    assert mine.stdout == host.stdout
