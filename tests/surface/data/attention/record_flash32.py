"""Record PyTorch 2.13's float32 F.scaled_dot_product_attention (its fused CPU kernel) on the
inputs `cases()` makes with NumPy's generator: `flash32.npz` (the outputs only), read by
tests/surface/test_attention.py, which makes the same inputs. Run with /work/torchenv's Python."""

from pathlib import Path

import numpy as np


def cases() -> list[dict]:
    """16 cases: plain, float mask (L, S), bool mask (B, 1, L, S), is_causal, scale with a float
    mask (B, H, L, S); 1-40 queries and keys, head sizes 1-16."""
    rng = np.random.default_rng(20261127)
    out = []
    for t in range(16):
        b, h = int(rng.integers(1, 3)), int(rng.integers(1, 3))
        lq, s, e = int(rng.integers(1, 41)), int(rng.integers(1, 41)), int(rng.integers(1, 17))
        f = np.float32
        c = {
            "q": (rng.normal(size=(b, h, lq, e)) * rng.uniform(0.3, 3)).astype(f),
            "k": rng.normal(size=(b, h, s, e)).astype(f),
            "v": rng.normal(size=(b, h, s, e)).astype(f),
            "mask": None,
            "causal": False,
            "scale": None,
        }
        kind = t % 5
        if kind == 1:
            c["mask"] = rng.normal(size=(lq, s)).astype(f)
        elif kind == 2:
            c["mask"] = rng.uniform(size=(b, 1, lq, s)) > 0.3
        elif kind == 3:
            c["causal"] = True
        elif kind == 4:
            c["scale"] = float(rng.uniform(0.05, 1.0))
            c["mask"] = (rng.normal(size=(b, h, lq, s)) * 2).astype(f)
        out.append(c)
    return out


if __name__ == "__main__":
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    got = {}
    for i, c in enumerate(cases()):
        q, k, v = (torch.from_numpy(c[n]) for n in "qkv")
        m = None if c["mask"] is None else torch.from_numpy(c["mask"])
        o = F.scaled_dot_product_attention(
            q, k, v, attn_mask=m, is_causal=c["causal"], scale=c["scale"]
        )
        got[str(i)] = o.numpy()
    np.savez_compressed(Path(__file__).with_name("flash32.npz"), **got)
