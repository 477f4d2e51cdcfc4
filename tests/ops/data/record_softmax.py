"""Record PyTorch's float32 softmax, log_softmax, nll_loss and cross_entropy results (and
their gradients) for
tests/ops/test_softmax_order.py (run with torch 2.13 CPU, one thread:
/work/torchenv/bin/python tests/ops/data/record_softmax.py). The inputs (and targets, weights)
are NumPy's, drawn from seeds, so the test rebuilds them without torch; results are stored as
float32 bit patterns."""

import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)


def draw(shape: list[int], seed: int, scale: float) -> np.ndarray:
    rng = np.random.default_rng([*shape, seed])
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def targets(n: int, c: int, seed: int, ignore: bool) -> np.ndarray:
    rng = np.random.default_rng([n, c, seed, 1])
    t = rng.integers(0, c, n)
    if ignore:
        t[rng.random(n) < 0.25] = -100
    return t


def weights(c: int, seed: int) -> np.ndarray:
    return np.random.default_rng([c, seed, 2]).uniform(0.1, 2.0, c).astype(np.float32)


def bits(t: torch.Tensor) -> list[int]:
    return [int(b) for b in t.detach().numpy().reshape(-1).view(np.uint32)]


cases = []
shapes = [[n] for n in (1, 2, 5, 15, 16, 17, 31, 33, 100)]
shapes += [[3, n] for n in (3, 7, 12, 16, 20, 37, 64, 129, 300)]
shapes += [[40, 5], [17, 16], [2, 33, 6], [3, 4, 21], [2, 5, 3, 4]]
for shape in shapes:
    for scale in (1.0, 10.0):
        g = torch.from_numpy(draw(shape, 5, 1.0))
        for dim in range(len(shape)):
            for op in ("softmax", "log_softmax"):
                x = torch.from_numpy(draw(shape, 0, scale)).requires_grad_()
                r = getattr(x, op)(dim)
                r.backward(g)
                cases.append(
                    {
                        "op": op,
                        "shape": shape,
                        "scale": scale,
                        "dim": dim,
                        "bits": bits(r),
                        "grad": bits(x.grad) if scale == 1.0 else None,
                    }
                )
for n, c in ((1, 4), (7, 3), (16, 10), (17, 10), (33, 5), (64, 37), (300, 7), (1000, 12)):
    for ignore in (False, True):
        for weighted in (False, True):
            t = torch.from_numpy(targets(n, c, 0, ignore))
            w = torch.from_numpy(weights(c, 0)) if weighted else None
            for red in ("mean", "sum", "none"):
                for op in ("nll_loss", "cross_entropy"):
                    x = torch.from_numpy(draw([n, c], 1, 3.0)).requires_grad_()
                    r = getattr(F, op)(x, t, weight=w, reduction=red)
                    r.sum().backward()
                    cases.append(
                        {
                            "op": op,
                            "shape": [n, c],
                            "ignore": ignore,
                            "weighted": weighted,
                            "reduction": red,
                            "bits": bits(r),
                            "grad": bits(x.grad) if red == "mean" and n * c < 3000 else None,
                        }
                    )
Path(__file__).with_name("softmax_results.json").write_text(json.dumps(cases))
print(len(cases), "cases")
