"""Record PyTorch's float32 Hessian-vector products of sums built on `x / y` of two tensors
that both need gradients, for tests/ops/test_division_hvp_order.py (run with torch 2.13 CPU,
one thread: /work/torchenv/bin/python tests/ops/data/record_division_hvp.py). PyTorch's
DivBackward0 computes the divisor's gradient before the dividend's (its generated code takes
the inputs in the alphabetical order of their names: other, self), so with create_graph=True
the nodes are recorded in that order and the second pass sums its gradients in that order.
Inputs are NumPy's, drawn from seeds; results are stored as the hex of their bytes."""

import json
from pathlib import Path

import numpy as np
import torch

torch.set_num_threads(1)

FUNCTIONS = {
    "ratio": "(z / (z * z + 3.0)).sum()",
    "same": "((z + 2.0) / (z + 2.0)).sum()",
    "normalized": "(torch.exp(z) / torch.exp(z).sum(dim=1, keepdim=True) * c).sum()",
    "squared": "((z + 3.0) / (z * 2.0 + 7.0)).pow(2).sum()",
}


def hexa(t: torch.Tensor) -> str:
    return np.ascontiguousarray(t.detach().numpy()).tobytes().hex()


cases = []
for name, body in FUNCTIONS.items():
    for seed in range(3):
        rng = np.random.default_rng([seed, len(name)])
        z0, v, c = (rng.standard_normal((4, 3)).astype(np.float32) for _ in range(3))
        z = torch.tensor(z0, requires_grad=True)
        c = torch.tensor(c)
        y = eval(body)
        (g,) = torch.autograd.grad(y, z, create_graph=True)
        (h,) = torch.autograd.grad((g * torch.tensor(v)).sum(), z)
        cases.append({"name": name, "seed": seed, "hvp": hexa(h)})
(Path(__file__).parent / "division_hvp.json").write_text(json.dumps(cases, indent=1) + "\n")
print(len(cases), "cases")
