"""Record PyTorch 2.13's float64 products of a batch of matrices and one matrix (`x @ w.t()`,
`F.linear` without a bias, `x @ w`: matmul folds the batch into the rows of one mm) on this
processor (AMD Zen 4: MKL's AVX2 code, gradcli's `zen4` family) for
tests/ops/test_fold64_zen4.py: per seeded case, the SHA-256 of the result's bytes.

    cd tests/ops && OMP_NUM_THREADS=1 /work/torchenv/bin/python data/record_fold64_zen4.py
"""

import hashlib
import json
from pathlib import Path

import numpy as np
import torch

torch.set_num_threads(1)
SHAPES = [  # (x shape, w shape (n, k))
    ((2, 5, 8), (24, 8)),
    ((3, 4, 16), (10, 16)),
    ((2, 3, 7, 6), (9, 6)),
    ((4, 9, 33), (5, 33)),
    ((6, 2, 12), (40, 12)),
    ((2, 11, 4), (3, 4)),
]


def draw(shape, seed):
    return np.random.default_rng([*shape, seed]).standard_normal(shape)


def digest(a):
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


rows = []
for xs, ws in SHAPES:
    x, w = torch.from_numpy(draw(xs, 1)), torch.from_numpy(draw(ws, 2))
    rows.append(
        [list(xs), list(ws), digest((x @ w.t()).numpy()), digest((x @ w.t().contiguous()).numpy())]
    )
path = Path(__file__).parent / "fold64_zen4.json"
path.write_text(json.dumps({"torch": torch.__version__, "zen4": rows}) + "\n")
