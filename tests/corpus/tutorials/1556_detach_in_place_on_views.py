# detach_() works on a tensor that owns its data; on a view (an index, a transpose, an
# expand, a reshape of a contiguous tensor...) PyTorch refuses, whether or not anything
# requires grad. detach() is the way out in both cases.
import torch

table = torch.arange(6.0).view(2, 3)
for name, make in [
    ("row", lambda: table[0]),
    ("transpose", lambda: table.t()),
    ("expand", lambda: table[:1].expand(4, 3)),
    ("flatten", lambda: table.flatten()),
    ("copy", lambda: table.clone()),
    ("detached", lambda: table.detach()),
]:
    t = make()
    try:
        t.detach_()
        print(name, "detached in place, is a view:", t._is_view())
    except RuntimeError as e:
        print(name, "->", str(e).split(".")[0])

weights = torch.ones(2, 3, requires_grad=True)
scaled = weights * 3
scaled.detach_()  # a result of its own: fine
print(scaled.requires_grad, scaled.grad_fn, scaled.is_leaf)
with torch.no_grad():
    first = weights[0]  # still a view of weights
try:
    first.detach_()
except RuntimeError as e:
    print("no_grad view ->", str(e).split(".")[0])
print(weights[0].detach().requires_grad)
