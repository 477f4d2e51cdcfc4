# What torch.func.vmap will not do, and what to write instead: the errors a first vmap meets.
import torch
from torch.func import vmap

torch.manual_seed(0)
batch = torch.randn(4, 3)


def clipped_norm(v):
    n = v.norm()
    if n > 1.5:  # Python control flow on a batched value
        return v / n
    return v


try:
    vmap(clipped_norm)(batch)
except RuntimeError as e:
    print("if on a batched tensor:", e)


def clipped_norm_where(v):
    n = v.norm()
    return torch.where(n > 1.5, v / n, v)


print(vmap(clipped_norm_where)(batch))


def as_python_number(v):
    return torch.tensor(v.sum().item() * 2)


try:
    vmap(as_python_number)(batch)
except RuntimeError as e:
    print(".item():", e)

try:
    vmap(lambda v: float(v[0]))(batch)
except RuntimeError as e:
    print("float():", e)

try:
    vmap(lambda v: torch.tensor(v.tolist()))(batch)
except RuntimeError as e:
    print("tolist():", e)

# out_dims=None: only for results that do not depend on the mapped input.
print(vmap(lambda v: (v * 2, torch.ones(2)), out_dims=(0, None))(batch)[1])
try:
    vmap(lambda v: v.sum(), out_dims=None)(torch.ones(4, 3))
except ValueError as e:
    print("out_dims=None:", e)


# Writing a batched value into a tensor made inside the function.
def accumulate(v):
    acc = torch.zeros(3)
    acc += v
    return acc


try:
    vmap(accumulate)(batch)
except RuntimeError as e:
    print("in place:", e)


def accumulate_out_of_place(v):
    acc = torch.zeros(3)
    acc = acc + v
    return acc


print(torch.equal(vmap(accumulate_out_of_place)(batch), batch))


def scaled(v):
    out = torch.zeros(3)
    out.mul_(2)  # nothing batched is written: fine
    return out + v * 2


print(vmap(scaled)(batch).shape)


# Printing inside the function: PyTorch runs it once, so a shape prints once.
def show_shape(v):
    print("inside vmap, one example has shape", v.shape)
    return v.sum()


print(vmap(show_shape)(batch))

# Nested vmap: the inner function sees single numbers.
grid = torch.arange(6.0).reshape(2, 3)
print(vmap(vmap(lambda s: s * s))(grid))
try:
    vmap(vmap(lambda s: s if s > 2 else -s))(grid)
except RuntimeError as e:
    print("nested:", str(e)[:40])
