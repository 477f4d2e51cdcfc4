# The in-place function forms: torch.sin_(x) changes x as x.sin_() does (and is refused on a
# leaf that requires grad, in PyTorch's words).
import torch
import torch.nn.functional as F

x = torch.tensor([0.5, -1.0, 2.0])
y = torch.sin_(x)
print(x, y is x, x._version)
torch.clamp_(x, min=0.0)
torch.exp_(x)
F.relu_(torch.neg_(x))
print(x, x._version)
w = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    torch.tanh_(w)
except RuntimeError as e:
    print(e)
h = w * 1
torch.sigmoid_(h)
print(h)
h.sum().backward()
print(w.grad)
