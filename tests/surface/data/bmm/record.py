"""Batched matrix products as PyTorch 2.13 computes them on the CPU (one thread), recorded as
values: torch.bmm below and past ATen's plain-loop threshold (m * k * n < 400), operands
transposed or not, float32 and float64; baddbmm with beta and alpha; matmul of batched operands
(which PyTorch expands, folds and hands to bmm, broadcast batches among them); and the two
gradients of bmm (BmmBackward0: g.bmm(b.mT), a.mT.bmm(g)).

Each case is (kind, dtype, batch, m, k, n, ta, tb): ta / tb make the first / second operand a
transposed view (its matrices column-major). Operands are drawn by NumPy from a seed of their
own, so the test rebuilds them without torch.

    /work/torchenv/bin/python tests/surface/data/bmm/record.py   # writes expected.npz
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
KINDS = ("bmm", "baddbmm", "matmul4d", "grad", "left", "left_grad", "right_t", "right_t_grad")


def _cases() -> list[tuple[str, str, int, int, int, int, bool, bool]]:
    rng = np.random.default_rng(2028)
    out = []
    for dtype in ("float32", "float64"):
        # the threshold itself: 399 (plain loop) and 400 (gemm) multiply-adds a matrix
        for m, k, n in (
            (3, 133, 1),
            (3, 19, 7),
            (1, 399, 1),
            (20, 20, 1),
            (4, 25, 4),
            (2, 10, 20),
            (48, 40, 30),
        ):
            out.append(("bmm", dtype, 2, m, k, n, False, False))
        for b, m, k, n in ((64, 3, 5, 7), (40, 1, 64, 6), (33, 8, 2, 9)):
            out.append(("bmm", dtype, b, m, k, n, False, True))
        for _ in range(70):
            b = int(rng.integers(1, 4))
            m, k, n = (int(v) for v in rng.integers(1, 33, 3))
            if rng.random() < 0.5:  # many below the threshold
                k = int(rng.integers(1, max(2, 400 // (m * n) + 1)))
            ta, tb = bool(rng.random() < 0.4), bool(rng.random() < 0.4)
            out.append(("bmm", dtype, b, m, k, n, ta, tb))
        for _ in range(20):
            b = int(rng.integers(1, 4))
            m, k, n = (int(v) for v in rng.integers(1, 25, 3))
            out.append(("baddbmm", dtype, b, m, k, n, False, bool(rng.random() < 0.4)))
            out.append(("grad", dtype, b, m, k, n, False, False))
        for _ in range(10):
            m, k, n = (int(v) for v in rng.integers(1, 24, 3))
            out.append(("matmul4d", dtype, 3, m, k, n, False, False))
        # a matrix times a batch, and a batch whose leading axes do not fold (a transposed
        # view) times a matrix: bmm when the matrix does not require grad, one folded mm
        # when it does
        for kind in ("left", "left_grad", "right_t", "right_t_grad"):
            for _ in range(8):
                b = int(rng.integers(1, 5))
                m, k, n = (int(v) for v in rng.integers(2, 25, 3))
                out.append((kind, dtype, b, m, k, n, kind.startswith("right"), False))
    return out


CASES = _cases()

# einsum of two operands, which PyTorch contracts with bmm: (equation, dtype, B, m, k, n), the
# operands' shapes by the equation's letters b, i, j, k = B, m, k, n
EQUATIONS = (
    "bij,bjk->bik",
    "ij,jk->ik",
    "bij,bkj->bik",
    "bji,bjk->bki",
    "ij,kj->ik",
    "bj,bj->b",
    "j,j->",
    "ij,j->i",
    "bij,bjk->bki",
)


def _einsum_cases() -> list[tuple[str, str, int, int, int, int]]:
    rng = np.random.default_rng(2029)
    out = []
    for eq in EQUATIONS:
        for dtype in ("float32", "float64"):
            for _ in range(4):
                b, m, n = (int(v) for v in rng.integers(1, 7, 3))
                k = int(rng.integers(2, max(3, 400 // (m * n))))
                out.append((eq, dtype, b, m, k, n))
    return out


EINSUM_CASES = _einsum_cases()


def einsum_operands(i: int) -> tuple[np.ndarray, np.ndarray]:
    eq, dtype, b, m, k, n = EINSUM_CASES[i]
    size = {"b": b, "i": m, "j": k, "k": n}
    rng = np.random.default_rng([13, i])
    ins = eq.split("->")[0].split(",")
    return tuple(rng.standard_normal([size[c] for c in s]).astype(dtype) for s in ins)


def operands(i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Case i's operands (a, b, c): bmm's two (views as the case says) and a third, the
    input of baddbmm (b, m, n) or the gradient of bmm's result."""
    kind, dtype, b, m, k, n, ta, tb = CASES[i]
    rng = np.random.default_rng([12, i])
    if kind.startswith("left"):  # (m, k) @ (b, k, n)
        a = rng.standard_normal((m, k)).astype(dtype)
        w = rng.standard_normal((b, k, n)).astype(dtype)
        return a, w, rng.standard_normal((b, m, n)).astype(dtype)
    if kind.startswith("right"):  # (b, m, k) (a transposed view) @ (k, n)
        a = rng.standard_normal((b, k, m)).astype(dtype).transpose(0, 2, 1)
        w = rng.standard_normal((k, n)).astype(dtype)
        return a, w, rng.standard_normal((b, m, n)).astype(dtype)
    if kind == "matmul4d":  # (2, 1, m, k) @ (b, k, n): batches broadcast to (2, b)
        a = rng.standard_normal((2, 1, m, k)).astype(dtype)
        return a, rng.standard_normal((b, k, n)).astype(dtype), np.zeros(1, dtype)
    a = rng.standard_normal((b, k, m) if ta else (b, m, k)).astype(dtype)
    w = rng.standard_normal((b, n, k) if tb else (b, k, n)).astype(dtype)
    a = a.transpose(0, 2, 1) if ta else a
    w = w.transpose(0, 2, 1) if tb else w
    return a, w, rng.standard_normal((b, m, n)).astype(dtype)


BETA, ALPHA = 0.5, 1.5


def torch_result(i: int) -> np.ndarray:
    import torch

    torch.set_num_threads(1)
    kind = CASES[i][0]
    a, b, c = (torch.from_numpy(v) for v in operands(i))
    if kind == "bmm":
        out = torch.bmm(a, b)
    elif kind == "baddbmm":
        out = torch.cat(
            [
                torch.baddbmm(c, a, b).reshape(-1),
                torch.baddbmm(c, a, b, beta=BETA, alpha=ALPHA).reshape(-1),
            ]
        )
    elif kind == "matmul4d":
        out = a @ b
    elif kind in ("left", "right_t"):
        b.requires_grad_(kind == "left")  # the batch's grad does not change the route
        a.requires_grad_(kind == "right_t")
        r = a @ b
        r.backward(c)
        g = b.grad if kind == "left" else a.grad
        out = torch.cat([r.detach().reshape(-1), g.reshape(-1)])
    elif kind in ("left_grad", "right_t_grad"):
        a.requires_grad_(True)
        b.requires_grad_(True)
        r = a @ b
        r.backward(c)
        out = torch.cat([r.detach().reshape(-1), a.grad.reshape(-1), b.grad.reshape(-1)])
    else:
        a.requires_grad_(True)
        b.requires_grad_(True)
        torch.bmm(a, b).backward(c)
        out = torch.cat([a.grad.reshape(-1), b.grad.reshape(-1)])
    return out.detach().numpy().reshape(-1).astype(np.float64)


def torch_einsum(i: int) -> np.ndarray:
    import torch

    torch.set_num_threads(1)
    x, y = (torch.from_numpy(v) for v in einsum_operands(i))
    return torch.einsum(EINSUM_CASES[i][0], x, y).numpy().reshape(-1).astype(np.float64)


def main() -> None:
    results = [torch_result(i) for i in range(len(CASES))]
    lengths = np.array([len(r) for r in results])
    eins = [torch_einsum(i) for i in range(len(EINSUM_CASES))]
    np.savez_compressed(
        HERE / "expected.npz",
        values=np.concatenate(results),
        lengths=lengths,
        einsum=np.concatenate(eins),
        einsum_lengths=np.array([len(r) for r in eins]),
    )
    print(f"{len(CASES)} cases, {lengths.sum()} elements; {len(EINSUM_CASES)} einsums")


if __name__ == "__main__":
    main()
