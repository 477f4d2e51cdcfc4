"""Record PyTorch 2.13's float32 gradients of F.scaled_dot_product_attention (its fused CPU
kernel's backward, ScaledDotProductFlashAttentionForCpuBackward0) on the inputs `cases()` makes
with NumPy's generator: `flash32_grad.json`, each case's SHA-256 digest of the gradients of
q, k and v (float32 bytes, C order) and, for the small cases, the gradients themselves in
`flash32_grad.npz`. Read by tests/surface/test_attention.py, which makes the same inputs. Run
with /work/torchenv's Python (one thread, as the corpus records)."""

import hashlib
import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
KINDS = ("plain", "causal", "mask2", "mask4", "bool", "gqa", "scale", "view", "edge")


def digest(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a, np.float32).tobytes()).hexdigest()


def cases() -> list[dict]:
    """72 cases: batch 1-4, heads 1-8, 4-64 queries and keys, head sizes 8-64 (the first 16
    smaller: their gradients are stored), each kind in turn: no mask, is_causal, a float mask
    (L, S), a float mask (B or 1, H or 1, L, S), a bool mask, grouped query heads
    (enable_gqa), a given scale, q/k/v the transposed views multi-head code makes, and edges
    (one query, 33 and 65 queries: a query block of one row; 200 queries: blocks of 64; one
    key; up to 512 keys: inner sizes past 384)."""
    rng = np.random.default_rng(20261128)
    out = []
    f = np.float32
    for t in range(72):
        small = t < 16
        b = int(rng.integers(1, 3 if small else 5))
        h = int(rng.integers(1, 5 if small else 9))
        top = 41 if small else 65
        lq, s = int(rng.integers(4, top)), int(rng.integers(4, top))
        e = int(rng.integers(8, 17 if small else 65))
        kind = KINDS[t % len(KINDS)]
        hk = h
        if kind == "gqa":
            hk = int(rng.choice([d for d in range(1, h + 1) if h % d == 0]))
        if kind == "edge":
            b, h = 1, int(rng.integers(1, 3))
            hk = h
            lq = int(rng.choice([1, 33, 65, 200]))
            s = int(rng.choice([1, 2, 3, 40, 300, 512]))
            e = int(rng.choice([2, 8, 24]))
        c = {
            "kind": kind,
            "q": rng.normal(size=(b, h, lq, e)).astype(f),
            "k": rng.normal(size=(b, hk, s, e)).astype(f),
            "v": rng.normal(size=(b, hk, s, e)).astype(f),
            "g": rng.normal(size=(b, h, lq, e)).astype(f),
            "mask": None,
            "causal": kind == "causal" or (kind in ("view", "edge") and bool(rng.random() < 0.5)),
            "scale": float(rng.uniform(0.05, 1.0)) if kind == "scale" else None,
            "gqa": kind == "gqa",
            "view": kind == "view",
        }
        if kind == "mask2":
            c["mask"] = rng.normal(size=(lq, s)).astype(f)
        elif kind == "mask4":
            shape = (b if rng.random() < 0.5 else 1, h if rng.random() < 0.5 else 1, lq, s)
            c["mask"] = (rng.normal(size=shape) * 2).astype(f)
        elif kind == "bool":
            c["mask"] = rng.uniform(size=(lq, s)) > 0.3
        out.append(c)
    return out


if __name__ == "__main__":
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    digests, small = [], {}
    for i, c in enumerate(cases()):
        if c["view"]:
            # (B, L, H, E) storage seen as (B, H, L, E), as multi-head attention's views
            q, k, v = (
                torch.from_numpy(np.ascontiguousarray(c[n].transpose(0, 2, 1, 3))).requires_grad_(
                    True
                )
                for n in "qkv"
            )
            qv, kv, vv = (t.transpose(1, 2) for t in (q, k, v))
        else:
            q, k, v = (torch.from_numpy(c[n]).requires_grad_(True) for n in "qkv")
            qv, kv, vv = q, k, v
        m = None if c["mask"] is None else torch.from_numpy(c["mask"])
        o = F.scaled_dot_product_attention(
            qv, kv, vv, attn_mask=m, is_causal=c["causal"], scale=c["scale"], enable_gqa=c["gqa"]
        )
        assert o.grad_fn.name() == "ScaledDotProductFlashAttentionForCpuBackward0"
        o.backward(torch.from_numpy(c["g"]))
        grads = [t.grad.numpy() for t in (q, k, v)]
        if c["view"]:
            grads = [a.transpose(0, 2, 1, 3) for a in grads]
        digests.append([digest(a) for a in grads])
        if i < 16:
            for n, a in zip(("dq", "dk", "dv"), grads):
                small[f"{i}_{n}"] = np.ascontiguousarray(a)
    (HERE / "flash32_grad.json").write_text(json.dumps(digests, indent=0) + "\n")
    np.savez_compressed(HERE / "flash32_grad.npz", **small)
