"""Records torch.binomial's draws for the cases of tests/surface/test_binomial.py (run with
PyTorch 2.13: `python record.py` writes draws.json). The cases' counts and probabilities come
from NumPy, so gradcli's side needs no torch."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np


def cases() -> list[tuple[int, str, list[float], list[float]]]:
    """(seed, dtype, counts, probs): both samplers (inversion below count * p = 10, BTRS above),
    both sides of p = 1/2, the edges (count 0, p 0 and 1, huge counts, tiny p)."""
    out = []
    for seed in range(24):
        rng = np.random.default_rng(seed)
        dtype = "float32" if seed % 2 == 0 else "float64"
        counts = rng.integers(0, 300, 30).astype(np.float64)
        probs = rng.random(30)
        counts[:6] = [0.0, 1e6, 3.0, 25.0, 40.0, 2e9]
        probs[:6] = [0.4, 1e-7, 0.0, 1.0, 0.5, 0.25]
        probs = probs.astype(dtype).astype(np.float64)
        out.append((seed, dtype, counts.tolist(), probs.tolist()))
    return out


def main() -> None:
    import torch

    rows = []
    for seed, dtype, counts, probs in cases():
        dt = getattr(torch, dtype)
        gen = torch.Generator().manual_seed(seed)
        draws = torch.binomial(
            torch.tensor(counts, dtype=dt), torch.tensor(probs, dtype=dt), generator=gen
        )
        after = torch.rand(2, dtype=torch.float64, generator=gen)
        rows.append({"draws": draws.tolist(), "after": after.tolist()})
    Path(__file__).with_name("draws.json").write_text(json.dumps(rows) + "\n")


if __name__ == "__main__":
    main()
