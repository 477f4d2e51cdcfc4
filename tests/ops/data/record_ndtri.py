"""Records tests/ops/data/ndtri_log_ndtr.json: the sha256 of PyTorch 2.13's float32 and float64
torch.special.ndtri (probabilities over (0, 1), deep tails included) and torch.special.log_ndtr
(arguments from -1 up, where gradcli follows ATen's branch bit for bit), on this machine (the
scalar kernels: the same C library functions on either kernel family).

    OMP_NUM_THREADS=1 /work/torchenv/bin/python tests/ops/data/record_ndtri.py
"""

import hashlib
import json
from pathlib import Path

import numpy as np


def probabilities(dtype: str) -> np.ndarray:
    rng = np.random.default_rng(1631)
    p = np.concatenate(
        [
            rng.uniform(0, 1, 1500),
            np.exp(rng.uniform(-80, 0, 600)),
            1 - np.exp(rng.uniform(-16, -1, 600)),
            [0.0, 1.0, 0.5, 0.13533528323661269189, 1e-30, 1.5, -0.25],
        ]
    )
    return p.astype(dtype)


def arguments(dtype: str) -> np.ndarray:
    rng = np.random.default_rng(1632)
    return np.concatenate([rng.uniform(-1, 9, 2500), [-1.0, 0.0, 40.0]]).astype(dtype)


def sha(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


def main() -> None:
    import torch  # (here: the test imports this module's draws without torch)

    out = {"torch": torch.__version__}
    for dtype in ("float32", "float64"):
        p, x = probabilities(dtype), arguments(dtype)
        out[f"ndtri_{dtype}"] = sha(torch.special.ndtri(torch.from_numpy(p)).numpy())
        out[f"log_ndtr_{dtype}"] = sha(torch.special.log_ndtr(torch.from_numpy(x)).numpy())
    Path(__file__).with_name("ndtri_log_ndtr.json").write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
