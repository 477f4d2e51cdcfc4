# Tensor.set_ swaps the memory behind a tensor. Inside an autograd graph PyTorch records it
# with no derivative (grad_fn=<NotImplemented>); here is what that means for backward().
import torch

torch.manual_seed(5)
w = torch.randn(4, requires_grad=True)
act = w.tanh()          # tanh saves its output
scaled = act * 3.0      # a multiplication by a number saves nothing
replacement = torch.arange(4.0)

act.set_(replacement)
print(act, act._version)
print(act.grad_fn.name(), [f[0].name() if f[0] else None for f in act.grad_fn.next_functions])

replacement[1] = 10.0   # shared memory: act sees it
print(act)

try:
    act.sum().backward(retain_graph=True)
except RuntimeError as err:
    print("through set_:", err)

try:
    scaled.sum().backward(retain_graph=True)
except RuntimeError as err:
    print("through tanh's saved output:", err)

lin = w * 2.0
shifted = lin + 1.0     # nothing saved on the way back to w
lin.set_(torch.zeros(4))
shifted.sum().backward()
print("gradient through the old value:", w.grad)

# a fresh tensor taking the memory of one that requires grad
buf = torch.zeros(3)
buf.set_(w[:3] * 2)
print(buf.requires_grad, buf.is_leaf, buf.grad_fn.name())

# the same swap without recording: nothing changes for autograd
h = w * 1.5
with torch.no_grad():
    h.set_(torch.ones(4))
print(h, h.grad_fn.name())
w.grad = None
h.sum().backward()
print(w.grad)
