"""Record PyTorch's float32 gradients of matrix products whose operand is column-major (a
1 x 1 input of nn.Linear, a transposed matrix: PyTorch's mm_mat1_backward / mm_mat2_backward
then compute a transposed product) and of vector norms under an upstream gradient that is not
ones (norm_backward's order of operations), and the first, second and third derivatives of
softmax, log_softmax and prod taken with create_graph=True (their backward kernels recorded as
their own nodes; prod_backward's grad * (result / input)), for
tests/ops/test_backward_order.py (run with torch 2.13 CPU, one thread:
/work/torchenv/bin/python tests/ops/data/record_backward_order.py).
Inputs are NumPy's, drawn from seeds; results are stored as the hex of their bytes."""

import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)


def draw(seed: list[int], *shapes) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


def hexa(t: torch.Tensor) -> str:
    return np.ascontiguousarray(t.detach().numpy()).tobytes().hex()


mm = []
for fin in (1, 2, 3, 17):
    for width in (1, 5, 16, 33):
        for rows in (1, 2, 7, 40):
            x, w, g, a = draw(
                [fin, width, rows], (rows, fin), (width, fin), (rows, width), (fin, width)
            )
            tx = torch.tensor(x, requires_grad=True)
            tw = torch.tensor(w, requires_grad=True)
            dx, dw = torch.autograd.grad(F.linear(tx, tw), (tx, tw), torch.tensor(g))
            # a transposed left operand (column-major) times a matrix of its own
            txt = torch.tensor(np.ascontiguousarray(x.T)).t().requires_grad_()
            ta = torch.tensor(a, requires_grad=True)
            dxt, da = torch.autograd.grad(txt @ ta, (txt, ta), torch.tensor(g))
            mm.append(
                {
                    "fin": fin,
                    "width": width,
                    "rows": rows,
                    "dx": hexa(dx),
                    "dw": hexa(dw),
                    "dxt": hexa(dxt),
                    "da": hexa(da),
                }
            )

norm = []
for p in (2.0, 3.0, 1.5, 0.5, 1.0):
    for shape, dim in (([5, 3], 1), ([4, 9], 1), ([6, 17], 0), ([33], 0)):
        (x,) = draw([len(shape), shape[0], int(p * 10)], shape)
        if p == 2.0 and len(shape) == 2:
            x[0] = 0  # a zero norm: its gradient is 0
        tx = torch.tensor(x, requires_grad=True)
        n = torch.linalg.vector_norm(tx, p, dim=dim)
        (gup,) = draw([7, *shape], n.shape)
        (dx,) = torch.autograd.grad(n, tx, torch.tensor(gup))
        norm.append({"p": p, "shape": shape, "dim": dim, "dx": hexa(dx)})

CHAIN = {
    "softmax": lambda t, d: torch.softmax(t, d),
    "log_softmax": lambda t, d: torch.log_softmax(t, d),
    "prod": lambda t, d: t.prod(d) if d is not None else t.prod(),
}
chain = []
for op in CHAIN:
    for shape, dim in (
        ([3], 0),
        ([7], 0),
        ([17], -1),
        ([4, 9], 1),
        ([4, 9], 0),
        ([5, 33], -1),
        ([2, 3, 5], 1),
        ([6], None),
        ([3, 4], None),
    ):
        if dim is None and op != "prod":
            continue
        x, w1, w2, w3 = draw([len(shape), shape[0], 11], shape, shape, shape, shape)
        if op == "prod":
            x = np.where(np.abs(x) < 0.3, np.float32(0.7), x)  # no zeros
        tx = torch.tensor(x, requires_grad=True)
        y = CHAIN[op](tx, dim)
        (wy,) = draw([3, *shape], y.shape)
        (g,) = torch.autograd.grad(y, tx, torch.tensor(wy), create_graph=True)
        (h,) = torch.autograd.grad((g * torch.tensor(w2)).sum(), tx, create_graph=True)
        (t,) = torch.autograd.grad((h * torch.tensor(w3)).sum(), tx)
        chain.append(
            {
                "op": op,
                "shape": shape,
                "dim": dim,
                "g_fn": type(g.grad_fn).__name__,
                "g": hexa(g),
                "h": hexa(h),
                "t": hexa(t),
            }
        )

dest = Path(__file__).parent / "backward_order.json"
dest.write_text(
    json.dumps(
        {"torch": torch.__version__, "mm": mm, "norm": norm, "chain": chain}, separators=(",", ":")
    )
)
print(f"{len(mm)} mm, {len(norm)} norm and {len(chain)} chain cases -> {dest}")
