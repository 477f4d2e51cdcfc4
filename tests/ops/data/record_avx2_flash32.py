"""Record what PyTorch 2.13's fused CPU attention (`cpu_flash_attention` and its backward)
computes on an AVX2 processor without AVX-512 (AMD EPYC, the `avx2` kernel family of
gradcli.core.cpu) for tests/ops/test_avx2_flash32.py: float32 scaled_dot_product_attention
forward and the gradients of q, k and v, over head sizes, query and key lengths around 8 and
16 (the vector loops' widths), with a float mask, is_causal and grouped query heads.
Run on such a machine, one thread:
/work/torchenv/bin/python tests/ops/data/record_avx2_flash32.py
Inputs are NumPy's, drawn from seeds (the test rebuilds them without torch); results are
stored as the SHA-256 of their float32 bytes."""

import hashlib
import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
assert torch.backends.cpu.get_cpu_capability() == "AVX2", "record on the avx2 family"

# (batch, heads, query length, key length, head size, key heads, variant)
SHAPES = [
    (1, 1, 1, 1, 1, 1, ""),
    (1, 2, 4, 4, 8, 2, ""),
    (1, 2, 5, 7, 8, 2, ""),
    (2, 2, 8, 8, 16, 2, ""),
    (1, 2, 10, 10, 16, 2, "mask"),
    (1, 1, 16, 16, 32, 1, ""),
    (1, 2, 17, 17, 16, 2, "causal"),
    (1, 1, 20, 20, 64, 1, ""),
    (2, 1, 3, 30, 12, 1, "mask"),
    (1, 2, 33, 33, 32, 2, "causal"),
    (1, 4, 9, 9, 8, 2, "gqa"),
    (1, 1, 40, 24, 1, 1, ""),
    (1, 1, 1, 37, 20, 1, ""),
    (1, 1, 64, 64, 64, 1, ""),
]


def draw(case):
    b, h, lq, s, e, hk, _ = case
    rng = np.random.default_rng([b, h, lq, s, e, hk, 5])
    q = rng.standard_normal((b, h, lq, e)).astype(np.float32)
    k = rng.standard_normal((b, hk, s, e)).astype(np.float32)
    v = rng.standard_normal((b, hk, s, e)).astype(np.float32)
    mask = rng.standard_normal((lq, s)).astype(np.float32)
    g = rng.standard_normal((b, h, lq, e)).astype(np.float32)
    return q, k, v, mask, g


def sha(t) -> str:
    return hashlib.sha256(np.ascontiguousarray(t.detach().numpy()).tobytes()).hexdigest()


cases = []
for case in SHAPES:
    q, k, v, mask, g = (torch.from_numpy(a) for a in draw(case))
    q, k, v = (t.requires_grad_() for t in (q, k, v))
    kind = case[-1]
    kw = {"attn_mask": mask} if kind == "mask" else {"is_causal": True} if kind == "causal" else {}
    if kind == "gqa":
        kw["enable_gqa"] = True
    out = F.scaled_dot_product_attention(q, k, v, **kw)
    out.backward(g)
    cases.append({"case": list(case), "out": sha(out), "grads": [sha(t.grad) for t in (q, k, v)]})

path = Path(__file__).parent / "avx2_flash32.json"
path.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, indent=0) + "\n")
print(f"{len(cases)} cases -> {path}")
