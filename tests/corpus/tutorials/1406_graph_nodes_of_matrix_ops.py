# Which node made this tensor, and from what? Inspecting grad_fn after matrix helpers.
import torch

torch.manual_seed(11)
m = torch.randn(3, 3, requires_grad=True)

def parents(t):
    return [None if f is None else f.name() for f, _ in t.grad_fn.next_functions]

results = {
    "slogdet": torch.linalg.slogdet(m[:2, :2])[1],
    "qr.R": torch.linalg.qr(m)[1],
    "svd.S": torch.linalg.svdvals(m.t()),
    "eigh.vals": torch.linalg.eigh(m @ m.t())[0],
    "logdet": torch.logdet(m @ m.t() + torch.eye(3)),
    "trace": (m * 2).trace(),
    "diagonal": m.diagonal(offset=-1),
    "diag_embed": torch.diag_embed(m[1]),
    "repeat": m[0].repeat(3),
    "tile": m.tile((2, 1)),
    "roll": m.roll(2),
    "take": m.take(torch.tensor([8, 0])),
    "median": m.median(),
    "outer": torch.outer(m[:, 0], m[2]),
}
for name, r in results.items():
    print(f"{name:>10}: {r.grad_fn.name():<24} <- {parents(r)}")

total = sum(r.sum() for r in results.values())
total.backward()
print(m.grad)
