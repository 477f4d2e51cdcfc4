# torch.cond traces both branches before running the one it takes: the branch not taken
# must agree with the other (structure, dtype, dim) and may not alias or change its inputs,
# but it leaves nothing behind (no random draws used up, no gradients).
import torch

torch.manual_seed(0)


def first_error_lines(e, n=4):
    print(type(e).__name__)
    print("\n".join(str(e).splitlines()[:n]))


def noisy(x):
    return x + 0.1 * torch.randn(x.shape)


def quiet(x):
    return x * 0.5


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.cond(x.sum() > 0, quiet, noisy, (x,))
print(y)
y.sum().backward()
print(x.grad)
# the noisy branch was traced, but no random numbers were drawn
print(torch.rand(2))

# branches may return tensors of different lengths
short = torch.cond(x.mean() > 2.5, lambda v: v[:2] * 2, lambda v: v.exp(), (x,))
print(short)

# ... but not of different dtypes
try:
    torch.cond(x.sum() > 0, lambda v: v * 2, lambda v: (v * 2).double(), (x,))
except RuntimeError as e:
    first_error_lines(e, 2)

# nor of a different number of dimensions
try:
    torch.cond(x.sum() < 0, lambda v: v.outer(v), lambda v: v.sin(), (x,))
except RuntimeError as e:
    first_error_lines(e, 2)

# one branch returning a pair, the other a single tensor
try:
    torch.cond(x.sum() > 0, lambda v: v.sin(), lambda v: [v.sin(), v.cos()], (x,))
except RuntimeError as e:
    first_error_lines(e, 2)

# a tuple against a list
try:
    torch.cond(x.sum() > 0, lambda v: (v.sin(), v.cos()), lambda v: [v.sin(), v.cos()], (x,))
except RuntimeError as e:
    first_error_lines(e)

# the branch not taken returns its input: aliasing, even though it never runs
w = torch.arange(4.0)
try:
    torch.cond(w.sum() > 0, lambda v: v + 1, lambda v: v, (w,))
except RuntimeError as e:
    first_error_lines(e)


# the branch not taken changes its input in place: refused, and w is untouched
def bump(v):
    v.add_(1)
    return v * 1


try:
    torch.cond(w.sum() > 0, lambda v: v + 1, bump, (w,))
except RuntimeError as e:
    first_error_lines(e)
print(w)


# print inside a branch is a graph break for PyTorch's tracer
def chatty(v):
    print("in the branch")
    return v.cos()


try:
    torch.cond(w.sum() > 0, chatty, lambda v: v.sin(), (w,))
except RuntimeError as e:
    first_error_lines(e)

# ints from both branches are fine
out, n = torch.cond(w.sum() > 0, lambda v: (v.cos(), 1), lambda v: (v.sin(), 2), (w,))
print(out, n)
