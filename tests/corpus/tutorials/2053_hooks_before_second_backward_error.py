# Calling backward twice without retain_graph: the hooks on the way still run before
# PyTorch notices that the node's saved values were freed, so their prints come first.
import torch

w = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
h = torch.tanh(w)
h.register_hook(lambda g: print("gradient reaching h:", g))
h.grad_fn.register_prehook(lambda go: print("TanhBackward0 receives", go[0]))
loss = h.sum()

loss.backward()
print("first pass:", w.grad)
try:
    loss.backward()
except RuntimeError as err:
    print("second pass:", "retain_graph=True" in str(err))
print("after:", w.grad)

v = torch.tensor([1.0, 2.0], requires_grad=True)
base = v * 1.0
sq = base * base
sq.register_hook(lambda g: print("gradient reaching sq:", g))
base.add_(1.0)
try:
    sq.sum().backward()
except RuntimeError as err:
    print("changed in place:", str(err).split(";")[0])
