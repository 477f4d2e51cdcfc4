# An embedding's padding row: reverse mode gives it no gradient, forward mode (jvp, jacfwd,
# forward-mode jacobian, dual numbers) looks its tangent up like any row, as PyTorch does.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
from torch.autograd.functional import jacobian

weight = torch.arange(12.0).reshape(4, 3)
tokens = torch.tensor([[0, 2], [3, 0]])


def lookup(w):
    return F.embedding(tokens, w, padding_idx=0)


rev = jacobian(lookup, weight)
fwd = jacobian(lookup, weight, vectorize=True, strategy="forward-mode")
print(torch.equal(rev, fwd), rev.sum(dim=(0, 1, 3)), fwd.sum(dim=(0, 1, 3)))
print(torch.func.jacrev(lookup)(weight).sum(dim=(0, 1, 3)))
print(torch.func.jacfwd(lookup)(weight).sum(dim=(0, 1, 3)))
_, tangent = torch.func.jvp(lookup, (weight,), (torch.ones(4, 3),))
print(tangent)

w = weight.clone().requires_grad_()
with fwAD.dual_level():
    dual = fwAD.make_dual(w, torch.full((4, 3), 0.5))
    out = F.embedding(tokens, dual, padding_idx=0)
    print(fwAD.unpack_dual(out).tangent)
    (out * out).sum().backward()
print(w.grad)

emb = nn.Embedding(5, 2, padding_idx=4)
with torch.no_grad():
    emb.weight.copy_(torch.arange(10.0).reshape(5, 2))
idx = torch.tensor([4, 1, 4, 2])
loss = (emb(idx) ** 2).sum()
loss.backward()
print(emb.weight.grad)
(g,) = torch.autograd.grad((emb(idx) * -1.0).sum(), emb.weight)
print(g)
