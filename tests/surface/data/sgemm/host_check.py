"""Whether this machine's PyTorch computes float32 matrix products to the bits recorded on the
reference machine (PyTorch 2.13, MKL's sgemm on an AVX-512 CPU, one thread), whose orders
gradcli follows and on which the corpus outputs (`tests/corpus/tutorials/*.out`) were recorded.

    /work/torchenv/bin/python tests/surface/data/sgemm/host_check.py

It recomputes the cases of `expected.npz` (see `record.py`) and prints how many come out with
other bits; exit status 1 when any does. MKL picks its kernels by the CPU, so on another CPU
PyTorch itself prints other last digits for a float32 product: measured on an AMD EPYC (Zen 3,
AVX2, no AVX-512), 146 of the 194 recorded cases differ in some element (nn.Linear of a few
rows, the gradients' products, single dot products). There, a float32 training loop printed by
PyTorch differs from gradcli's (and from the recorded corpus) in the last digits, and a corpus
program recorded there holds that machine's digits, which gradcli does not follow."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def differing(bits: np.ndarray, lengths: np.ndarray, results: list[np.ndarray]) -> list[int]:
    """The indices of the cases whose recomputed bits (`results`, one array a case) are not the
    recorded ones (`bits`, the cases one after another, `lengths` elements each)."""
    if len(results) != len(lengths):
        raise ValueError(f"{len(results)} results for {len(lengths)} recorded cases")
    out, start = [], 0
    for i, (n, got) in enumerate(zip(lengths, results)):
        want = bits[start : start + int(n)]
        start += int(n)
        if got.shape != want.shape or not np.array_equal(got, want):
            out.append(i)
    return out


def main() -> int:
    sys.path.insert(0, str(HERE))
    import record

    data = np.load(HERE / "expected.npz")
    results = [record.torch_result(i) for i in range(len(record.SHAPES))]
    bad = differing(data["bits"], data["lengths"], results)
    kinds = sorted({record.SHAPES[i][0] for i in bad})
    total = len(record.SHAPES)
    if not bad:
        print(f"this machine's PyTorch gives the reference bits for all {total} float32 products")
        return 0
    print(
        f"this machine's PyTorch computes {len(bad)} of {total} recorded float32 matrix products "
        f"to other bits than the reference machine (MKL on AVX-512) ({', '.join(kinds)})"
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
