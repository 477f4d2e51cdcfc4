"""Record PyTorch's float32 torch.linalg.solve_triangular for 8 to 16 rows (the sizes past the
measured exact rule) for tests/ops/test_lapack32_trsm.py: run with a Python that has torch 2.13
(CPU, one thread), `python tests/ops/data/record_trsm32_large.py`. Each case (n, columns,
upper, A's layout: R row-major, C column-major) stores the digest of X over the 20 systems
`record_trsm32.draw` makes and the float32 bits of the first three (all 20 with one right-hand
side). Recorded on an AMD EPYC
(AVX2, MKL's generic code), as the smaller sizes were."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from record_trsm32 import digest, draw

SIZES = (8, 9, 10, 12, 16)
COLUMNS = (1, 3)
KEPT = 3  # systems whose bits are stored (several right-hand sides)


def main() -> None:
    import torch

    torch.set_num_threads(1)
    cases = {}
    for n in SIZES:
        for cols in COLUMNS:
            for upper in (False, True):
                for layout in ("R", "C"):
                    a, b = draw(n, cols, upper, 1)
                    ta = torch.from_numpy(a)
                    if layout == "C":
                        ta = ta.mT.contiguous().mT
                    x = torch.linalg.solve_triangular(ta, torch.from_numpy(b), upper=upper)
                    x = x.numpy()
                    bits = (
                        np.ascontiguousarray(x[: KEPT if cols > 1 else None])
                        .view(np.uint32)
                        .ravel()
                        .tolist()
                    )
                    key = f"{layout}/{n}/{cols}/{int(upper)}"
                    cases[key] = {"digest": digest(x), "bits": bits}
    lines = [f" {json.dumps(k)}: {json.dumps(v)}" for k, v in cases.items()]
    text = f'{{"torch": {json.dumps(torch.__version__)}, "cases": {{\n' + ",\n".join(lines)
    Path(__file__).with_name("trsm32_large.json").write_text(text + "\n}}\n")


if __name__ == "__main__":
    main()
