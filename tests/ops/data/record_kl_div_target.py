"""Record PyTorch's float32 kl_div target gradients (each reduction, both target forms) for
tests/ops/test_kl_div_target_grad.py (torch 2.13 CPU, one thread:
/work/torchenv/bin/python tests/ops/data/record_kl_div_target.py). Inputs are NumPy's, drawn
from a seed; results are stored as float32 bit patterns."""

import json
import warnings
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
warnings.simplefilter("ignore")  # reduction='mean''s deprecation


def draw() -> tuple:
    rng = np.random.default_rng(5)
    x = np.log(rng.dirichlet(np.ones(7), size=6)).astype(np.float32)
    t = rng.dirichlet(np.ones(7), size=6).astype(np.float32)
    return x, t


def main() -> None:
    x, t = draw()
    out = {}
    for red in ("batchmean", "mean", "sum", "none"):
        for lt in (False, True):
            tt = torch.tensor(np.log(t) if lt else t, requires_grad=True)
            loss = F.kl_div(torch.tensor(x), tt, reduction=red, log_target=lt)
            (loss.sum() if red == "none" else loss).backward()
            out[f"{red}-{lt}"] = tt.grad.numpy().reshape(-1).view(np.uint32).tolist()
    path = Path(__file__).parent / "kl_div_target_bits.json"
    path.write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
