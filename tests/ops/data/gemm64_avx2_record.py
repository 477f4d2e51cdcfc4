"""Record PyTorch's float64 matrix products on an AVX2 machine (the ``avx2`` kernel family,
`gradcli.core.cpu`; MKL's dgemm there) for tests/ops/test_gemm64_avx2.py:

    OMP_NUM_THREADS=1 /work/torchenv/bin/python tests/ops/data/gemm64_avx2_record.py

The inputs are made by arithmetic (`inputs`, from `gemm_avx2_record.values`, widened to
float64); only PyTorch's result bits are stored, in gemm64_avx2.npz beside this file. Refuses
to run on a machine that is not of the avx2 family."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from gemm_avx2_record import values  # noqa: E402

sys.path.remove(str(HERE))


def cases() -> list[tuple[str, int, int, int]]:
    """(layout, m, k, n): `nn` x @ y, `tn` x.t().contiguous().t() @ y (x column-major), `nt`
    x @ w.t() (w = y.t(), row-major: nn.Linear's product), `lin` F.linear(x, w, b) (b: `bias`)."""
    out = []
    for m in (2, 3, 4, 5, 9, 16):
        for k in (1, 2, 7, 16, 33, 100, 200):
            for n in (2, 3, 12, 13, 14, 17, 25):
                out.append(("nn" if (m + k + n) % 3 else "tn", m, k, n))
    for k in (250, 256, 380, 400):
        out.append(("nn", 5, k, 24))
        out.append(("nn", 6, k, 14))
    out += [("tn", 5, 600, 14), ("nn", 4, 1024, 12)]
    for m in (2, 3, 8):
        for k in (1, 7, 33, 200):
            for n in (2, 5, 14, 25):
                out.append(("nt", m, k, n))
    for m, k, n in ((8, 1, 12), (8, 30, 14), (16, 100, 25), (3, 20, 5), (2, 64, 2)):
        out.append(("lin", m, k, n))
    return out


def bias(case: int, n: int) -> np.ndarray:
    return values(8 * case + 4, n).astype(np.float64)


def inputs(case: int, m: int, k: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    s = 8 * case + 5
    x = values(s, m * k).astype(np.float64).reshape(m, k)
    y = values(s + 1, k * n).astype(np.float64).reshape(k, n)
    x = x * (1.0 + 2.0**-30 * values(s + 2, m * k).astype(np.float64).reshape(m, k))
    return x, y


def main() -> None:
    import torch

    if torch.backends.cpu.get_cpu_capability() != "AVX2":
        sys.exit("not an avx2 machine: its PyTorch computes other bits")
    torch.set_num_threads(1)
    bits = []
    for i, (kind, m, k, n) in enumerate(cases()):
        x, y = inputs(i, m, k, n)
        tx = torch.from_numpy(x)
        ty = torch.from_numpy(y)
        if kind == "tn":
            tx = tx.t().contiguous().t()
        if kind in ("nt", "lin"):
            ty = ty.t().contiguous().t()
        if kind == "lin":
            r = torch.nn.functional.linear(tx, ty.t(), torch.from_numpy(bias(i, n)))
        else:
            r = tx @ ty
        bits.append(r.numpy().reshape(-1).view(np.uint64))
    lengths = np.array([b.size for b in bits])
    np.savez_compressed(HERE / "gemm64_avx2.npz", bits=np.concatenate(bits), lengths=lengths)


if __name__ == "__main__":
    main()
