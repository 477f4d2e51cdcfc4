"""Record PyTorch's float32 soft_margin_loss input gradients (each reduction, a non-unit
upstream gradient) for tests/ops/test_soft_margin_grad.py (torch 2.13 CPU, one thread, on an
AVX2 machine: the avx2 family's exp; /work/torchenv/bin/python
tests/ops/data/record_soft_margin.py). Inputs are NumPy's, drawn from seeds; results are
stored as float32 bit patterns."""

import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)

CASES = [((4, 33), "mean"), ((64, 10), "sum"), ((37,), "none")]


def draw(shape: tuple, seed: int) -> np.ndarray:
    rng = np.random.default_rng([*shape, seed])
    if seed == 2:
        return np.sign(rng.standard_normal(shape)).astype(np.float32)
    return (rng.standard_normal(shape) * 2).astype(np.float32)


def main() -> None:
    out = {}
    for shape, reduction in CASES:
        x = torch.tensor(draw(shape, 1), requires_grad=True)
        loss = F.soft_margin_loss(x, torch.tensor(draw(shape, 2)), reduction=reduction)
        loss.backward(torch.tensor(draw(tuple(loss.shape), 3)))
        out[f"{shape}/{reduction}"] = [int(b) for b in x.grad.numpy().reshape(-1).view(np.uint32)]
    path = Path(__file__).parent / "soft_margin_bits.json"
    path.write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
