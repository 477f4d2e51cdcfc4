"""Record PyTorch's float32 glu gradients (reverse mode, with an upstream gradient) and
forward-mode tangents for tests/ops/test_glu_order.py (torch 2.13 CPU, one thread:
/work/torchenv/bin/python tests/ops/data/record_glu.py). Inputs are NumPy's, drawn from seeds,
so the test rebuilds them without torch; results are stored as float32 bit patterns."""

import json
from pathlib import Path

import numpy as np
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn.functional as F

torch.set_num_threads(1)

# (shape, dim): rows of 4 halves (scalar loop only), of 32 (vector loop only), halves of dim 0
CASES = [((3, 8), 1), ((2, 64), 1), ((6, 5), 0)]


def draw(shape: tuple, seed: int) -> np.ndarray:
    rng = np.random.default_rng([*shape, seed])
    return (rng.standard_normal(shape) * 2).astype(np.float32)


def bits(t: torch.Tensor) -> list[int]:
    return [int(b) for b in t.detach().numpy().reshape(-1).view(np.uint32)]


def main() -> None:
    out = {}
    for shape, dim in CASES:
        x, tangent = draw(shape, 1), draw(shape, 2)
        half = list(shape)
        half[dim] //= 2
        g = draw(tuple(half), 3)
        leaf = torch.tensor(x, requires_grad=True)
        F.glu(leaf, dim).backward(torch.tensor(g))
        with fwAD.dual_level():
            y = F.glu(fwAD.make_dual(torch.tensor(x), torch.tensor(tangent)), dim)
            tan = fwAD.unpack_dual(y).tangent
        out[f"{shape}/{dim}"] = {"grad": bits(leaf.grad), "tangent": bits(tan)}
    path = Path(__file__).parent / "glu_bits.json"
    path.write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
