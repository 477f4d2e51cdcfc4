"""Record PyTorch's bits, on an AMD processor with AVX-512 (gradcli's zen4 kernel family), for
the emulation points whose family the zen4 choice decides: ATen's kernels whose avx2-family
model holds there (prod, pdist, cdist, atan2, addr, float16 rsqrt,
huber_loss backward), an MKL-governed one (exp,
VML) and ATen's 16-lane softmax. Writes zen4_family.json beside this file (sha256 of each
result's bytes).

    OMP_NUM_THREADS=1 /work/torchenv/bin/python tests/ops/data/record_zen4_family.py

The inputs are drawn here by NumPy (deterministic: seeded generators); the test imports
`inputs` from this file, so recording and checking read the same arrays.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

NAMES = ("prod", "pdist", "cdist", "atan2", "addr", "rsqrt16", "huber_bwd", "exp", "softmax")


def inputs(name: str) -> list[np.ndarray]:
    """The arrays `name` is computed on (float32; rsqrt16's float16)."""
    rng = np.random.default_rng([sum(map(ord, name)), 13])
    if name == "prod":  # rows of 1 to 80 values near 1 (the lanes' groups show in the order)
        return [rng.uniform(0.6, 1.4, (3, n)).astype(np.float32) for n in range(1, 81)]
    if name == "pdist":
        return [rng.standard_normal((9, m)).astype(np.float32) for m in range(1, 41)]
    if name == "cdist":
        return [rng.standard_normal((2, 8, m)).astype(np.float32) for m in range(1, 30)]
    if name == "atan2":  # the loop's vector steps and its tail
        return [(rng.standard_normal((2, n)) * 3).astype(np.float32) for n in range(1, 75)]
    if name == "addr":  # (rows, input row, u, v): the loop's steps and tails
        return [rng.standard_normal((3, n + 2)).astype(np.float32) for n in range(1, 70)]
    if name == "rsqrt16":  # float16 (the kernel's steps of 32 two-byte values on AVX2)
        return [rng.uniform(0.05, 4, n).astype(np.float16) for n in range(1, 90)]
    if name == "huber_bwd":  # (x, target, grad_output)
        return [rng.standard_normal((3, n)).astype(np.float32) for n in range(1, 80)]
    if name == "exp":
        return [(rng.standard_normal(n) * 8).astype(np.float32) for n in range(1, 75)]
    return [(rng.standard_normal((2, n)) * 4).astype(np.float32) for n in range(1, 75)]


def sha(arrays: list[np.ndarray]) -> str:
    h = hashlib.sha256()
    for a in arrays:
        h.update(
            np.ascontiguousarray(a, a.dtype if a.dtype == np.float16 else np.float32).tobytes()
        )
    return h.hexdigest()


def huber_grad(x, torch) -> np.ndarray:
    leaf = x[0].clone().requires_grad_()
    torch.nn.functional.huber_loss(leaf, x[1], delta=0.7, reduction="none").backward(x[2])
    return leaf.grad.numpy()


def torch_results(name: str, torch) -> list[np.ndarray]:
    t = [torch.from_numpy(a) for a in inputs(name)]
    if name == "prod":
        return [x.prod(-1).numpy() for x in t]
    if name == "pdist":
        return [torch.pdist(x).numpy() for x in t]
    if name == "cdist":
        return [torch.cdist(x[0], x[1]).numpy() for x in t]
    if name == "atan2":
        return [torch.atan2(x[0], x[1]).numpy() for x in t]
    if name == "addr":
        return [torch.addr(x[:, 2:], x[:, 0], x[0, 2:], beta=0.3, alpha=0.7).numpy() for x in t]
    if name == "rsqrt16":
        return [torch.rsqrt(x).numpy() for x in t]
    if name == "huber_bwd":
        return [huber_grad(x, torch) for x in t]
    if name == "exp":
        return [torch.exp(x).numpy() for x in t]
    return [torch.softmax(x, -1).numpy() for x in t]


def main() -> None:
    import torch

    torch.set_num_threads(1)
    cases = {name: sha(torch_results(name, torch)) for name in NAMES}
    meta = {
        "torch": torch.__version__,
        "capability": torch.backends.cpu.get_cpu_capability(),
        "cases": cases,
    }
    out = Path(__file__).with_name("zen4_family.json")
    out.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(out, meta)


if __name__ == "__main__":
    main()
