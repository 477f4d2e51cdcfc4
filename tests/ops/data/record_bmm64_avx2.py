"""Records tests/ops/data/bmm64_avx2.json: the sha256 of PyTorch 2.13's float64 bmm results
on an AVX2 machine without AVX-512 (gradcli's avx2 family), for batches whose matrices lie at
odd addresses in the result (MKL's small dgemm kernel peels rows by the address), and of
products written into a slot of a larger buffer (`torch.matmul(x, y, out=buf[i])`, as ATen's
matrix_exp writes its powers).

    OMP_NUM_THREADS=1 /work/torchenv/bin/python tests/ops/data/record_bmm64_avx2.py
"""

import hashlib
import json
from pathlib import Path

import numpy as np
import torch

SHAPES = [(3, 9, 9, 9), (2, 23, 23, 23), (4, 5, 7, 11), (3, 13, 6, 9), (2, 11, 3, 7)]
SLOTS = [(9, 1), (9, 3), (11, 1), (23, 3), (13, 2)]


def draw(shape: tuple, seed: int) -> np.ndarray:
    return np.random.default_rng([*shape, seed]).standard_normal(shape)


def sha(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


def main() -> None:
    cases = []
    for b, m, k, n in SHAPES:
        x, y = draw((b, m, k), 1), draw((b, k, n), 2)
        out = torch.from_numpy(x) @ torch.from_numpy(y)
        cases.append({"shape": [b, m, k, n], "sha": sha(out.numpy())})
    slots = []
    for n, slot in SLOTS:
        x, y = draw((1, n, n), 3), draw((1, n, n), 4)
        buf = torch.empty(slot + 1, 1, n, n, dtype=torch.float64)
        torch.matmul(torch.from_numpy(x), torch.from_numpy(y), out=buf[slot])
        slots.append({"n": n, "slot": slot, "sha": sha(buf[slot].numpy())})
    out = Path(__file__).with_name("bmm64_avx2.json")
    out.write_text(json.dumps({"torch": torch.__version__, "bmm": cases, "slots": slots}) + "\n")


if __name__ == "__main__":
    main()
