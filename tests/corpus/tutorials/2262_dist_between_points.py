# Distances between learned points: torch.dist as a loss, its graph node and gradients.
import torch

torch.manual_seed(7)
anchor = torch.randn(2, 5, dtype=torch.float64, requires_grad=True)
target = torch.randn(5, dtype=torch.float64, requires_grad=True)

loss = torch.dist(anchor, target)  # Euclidean distance over every element
print("loss:", loss)
print("node:", type(loss.grad_fn).__name__)
print("inputs:", [type(f).__name__ for f, _ in loss.grad_fn.next_functions])
loss.backward()
print("anchor grad:\n", anchor.grad)
print("target grad:", target.grad)

# other orders of the norm, as a method too
for p in [1, 3, 0.5, float("inf"), float("-inf")]:
    anchor.grad = None
    target.grad = None
    d = anchor.dist(target, p)
    d.backward()
    print(f"p={p}: {d.item():.12f}", anchor.grad.sum().item(), target.grad.sum().item())

# a float32 query against a float64 table: each gradient keeps its own dtype
q = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
table = torch.tensor([[1.0, 0.0, 2.0], [0.0, -1.0, 1.0]], dtype=torch.float64, requires_grad=True)
d = torch.dist(q, table, 2)
d.backward()
print(d.dtype, q.grad.dtype, q.grad, table.grad)

# p=0 counts differing entries: it has no gradient
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([1.0, 0.0, 3.5])
c = torch.dist(x, y, 0)
c.backward()
print("count:", c.item(), "x.grad:", x.grad)
y.requires_grad_()
try:
    torch.dist(x, y, 0).backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# only the gradients asked for are computed: x's alone is fine (None)
c = torch.dist(x, y * 2, 0)
print(torch.autograd.grad(c, [x], allow_unused=True, retain_graph=True))
try:
    torch.autograd.grad(c, [y], allow_unused=True)
except RuntimeError as e:
    print("RuntimeError:", e)

# a zero distance has a zero gradient
z = torch.zeros(3, requires_grad=True)
torch.dist(z, torch.zeros(3)).backward()
print(z.grad)
try:
    torch.dist(x, 1.0)
except TypeError as e:
    print("TypeError:", e)

# no points at all: sums are 0, a max/min has nothing to pick from
empty = torch.empty(0, 3)
print(torch.dist(empty, torch.zeros(3)))
try:
    torch.dist(empty, torch.zeros(3), float("inf"))
except RuntimeError as e:
    print("RuntimeError:", e)
