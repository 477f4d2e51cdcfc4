"""The differential fuzzer's programs (`fuzz/torch_diff.py`): gradcli runs every one without
an internal error, and, where PyTorch is installed, prints what PyTorch prints on the
programs each operation x dtype pairing gives (the classes of difference the fuzzer found and
that are fixed). Bounded: a few hundred small programs, about 10 s."""

from __future__ import annotations

import importlib.util
import random
import sys

import pytest

from tests.helpers import ROOT


def _load() -> object:
    spec = importlib.util.spec_from_file_location(
        "gradcli_torch_diff", ROOT / "fuzz" / "torch_diff.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gradcli_torch_diff"] = mod
    spec.loader.exec_module(mod)
    return mod


td = _load()
RANDOM = [td.program(random.Random(seed)) for seed in range(120)]  # type: ignore[attr-defined]
ENUM = td.enumerate_programs()  # type: ignore[attr-defined]
# The integer and bool leaves: what each operation does with them (PyTorch's dtype, its
# refusal) is where the fuzzer found silent differences.
INTEGRAL = [p for p in ENUM if "torch.tensor([[1, -2" in p or "[True, False" in p]


@pytest.mark.parametrize("i", range(len(RANDOM)))
def test_random_programs_end_cleanly(i: int) -> None:
    got = td.run_gradcli(RANDOM[i])  # type: ignore[attr-defined]
    assert not got["crash"], f"{got['err']}\n{RANDOM[i]}"


def test_every_operation_on_every_dtype_ends_cleanly() -> None:
    crashes = []
    for p in ENUM:
        got = td.run_gradcli(p)  # type: ignore[attr-defined]
        if got["crash"]:
            crashes.append(f"{got['err']}\n{p}")
    assert not crashes, "\n".join(crashes[:5])


def test_integer_and_bool_inputs_print_what_pytorch_prints() -> None:
    pytest.importorskip("torch")
    diffs = []
    for p in INTEGRAL:
        ref, got = td.run_torch(p), td.run_gradcli(p)  # type: ignore[attr-defined]
        if ref["ok"] != got["ok"] or ref["out"] != got["out"]:
            diffs.append(
                f"{p}--- torch: {ref['err']}\n{ref['out']}--- gradcli: {got['err']}\n{got['out']}"
            )
    assert not diffs, f"{len(diffs)} of {len(INTEGRAL)} differ; first:\n" + "\n".join(diffs[:3])
