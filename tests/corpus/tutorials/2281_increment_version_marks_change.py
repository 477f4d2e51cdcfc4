# Writing into a tensor behind autograd's back (through .data) leaves its version counter
# alone, so a graph that saved it silently uses the new values; increment_version tells
# autograd about the write, and the backward that needs the old values refuses.
import torch
from torch.autograd.graph import increment_version

w = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
h = w.tanh()
loss = (h * h).sum()  # saves h for its backward
print(h._version)
h.data.mul_(2.0)  # not counted
print(h._version)
loss.backward(retain_graph=True)
print(w.grad)  # computed with the doubled h

increment_version(h)
print(h._version)
try:
    loss.backward()
except RuntimeError as e:
    print(e)

# lists and tuples of tensors, views sharing the counter
base = torch.zeros(4)
view = base[1:3]
increment_version([base, view])
increment_version((view,))
print(base._version, view._version)
for bad in (3.0, [base, 1]):
    try:
        increment_version(bad)
    except RuntimeError as e:
        print(e)
with torch.inference_mode():
    frozen = torch.ones(2)
increment_version(frozen)  # no counter to count in: passed over
try:
    print(frozen._version)
except RuntimeError as e:
    print(e)
