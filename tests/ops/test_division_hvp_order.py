"""Second derivatives through `x / y` of two tensors that need gradients, in float32, to the
bit of PyTorch 2.13's (recorded: tests/ops/data/record_division_hvp.py): DivBackward0's
gradients are made divisor first, then dividend (PyTorch's generated order), so a second
pass sums what they send back in PyTorch's order (a Hessian-vector product of a normalized
distribution, of z / (z^2 + 3)...). Their values against float64 central differences are the
registry's (tests/ops/test_ops.py, div's samples)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli.core.autograd import grad
from gradcli.surface import functional as SF
from gradcli.surface import names  # noqa: F401 - installs the tensor methods

DATA = json.loads((Path(__file__).parent / "data" / "division_hvp.json").read_text())


def _f(name: str, z: gradcli.Tensor, c: gradcli.Tensor) -> gradcli.Tensor:
    if name == "ratio":
        return (z / (z * z + 3.0)).sum()
    if name == "same":
        return ((z + 2.0) / (z + 2.0)).sum()
    if name == "normalized":
        return (z.exp() / SF.sum(z.exp(), 1, keepdim=True) * c).sum()
    return ((z + 3.0) / (z * 2.0 + 7.0)).pow(2).sum()


@pytest.mark.parametrize("case", DATA, ids=[f"{c['name']}-{c['seed']}" for c in DATA])
def test_hessian_vector_products_through_division_are_pytorchs(case: dict) -> None:
    rng = np.random.default_rng([case["seed"], len(case["name"])])
    z0, v, c = (rng.standard_normal((4, 3)).astype(np.float32) for _ in range(3))
    z = gradcli.Tensor(z0, requires_grad=True)
    (g,) = grad([_f(case["name"], z, gradcli.Tensor(c))], [z], create_graph=True)
    (h,) = grad([(g * gradcli.Tensor(v)).sum()], [z])
    assert np.ascontiguousarray(h.data).tobytes().hex() == case["hvp"]
