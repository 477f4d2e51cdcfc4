"""Record PyTorch's float32 smooth_l1_loss and huber_loss input and target gradients (each
reduction, several betas/deltas, a non-unit upstream gradient) for
tests/ops/test_l2_l1_loss_grad.py (torch 2.13 CPU, one thread:
/work/torchenv/bin/python tests/ops/data/record_l2_l1.py). Inputs are NumPy's, drawn from
seeds; results are stored as float32 bit patterns, one file per loss."""

import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)

CASES = [((4, 33), "mean", 1.0), ((64, 10), "sum", 0.3), ((37,), "none", 2.0)]
LOSSES = {
    "smooth_l1": lambda x, t, r, p: F.smooth_l1_loss(x, t, reduction=r, beta=p),
    "huber": lambda x, t, r, p: F.huber_loss(x, t, reduction=r, delta=p),
}


def draw(shape: tuple, seed: int) -> np.ndarray:
    rng = np.random.default_rng([*shape, seed])
    return (rng.standard_normal(shape) * 2).astype(np.float32)


def main() -> None:
    for name, fn in LOSSES.items():
        out = {}
        for shape, reduction, p in CASES:
            x = torch.tensor(draw(shape, 1), requires_grad=True)
            t = torch.tensor(draw(shape, 2), requires_grad=True)
            loss = fn(x, t, reduction, p)
            loss.backward(torch.tensor(draw(tuple(loss.shape), 3)))
            out[f"{shape}/{reduction}"] = [
                [int(b) for b in v.grad.numpy().reshape(-1).view(np.uint32)] for v in (x, t)
            ]
        (Path(__file__).parent / f"{name}_bits.json").write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
