# What autograd records when a gradient of a matrix product is itself differentiable
# (create_graph=True, as for a gradient penalty): the nodes of the gradients of mm, mv and
# bmm, walked through next_functions, and a second derivative taken through them.
import torch


def show(fn, depth=0):
    if fn is None or depth > 4:
        return
    print("    " * depth + fn.name())
    for child, _ in fn.next_functions:
        show(child, depth + 1)


torch.manual_seed(0)
W = torch.randn(3, 4, requires_grad=True)
x = torch.randn(4, requires_grad=True)
out = torch.tanh(torch.mv(W, x)).sum()
gW, gx = torch.autograd.grad(out, (W, x), create_graph=True)
print("mv:", gW.grad_fn.name(), gx.grad_fn.name())
show(gW.grad_fn)
show(gx.grad_fn)
penalty = gx.pow(2).sum() + gW.pow(2).sum()
penalty.backward()
print(f"{W.grad.sum().item():.4f}", [round(v, 4) for v in x.grad.tolist()])

A = torch.randn(3, 4, requires_grad=True)
B = torch.randn(4, 2, requires_grad=True)
loss = torch.mm(A, B).sigmoid().sum()
gA, gB = torch.autograd.grad(loss, (A, B), create_graph=True)
print("mm:", gA.grad_fn.name(), gB.grad_fn.name())
show(gA.grad_fn)
show(gB.grad_fn)
(gA.norm() + gB.norm()).backward()
print(f"{A.grad.abs().sum().item():.4f} {B.grad.abs().sum().item():.4f}")

P = torch.randn(2, 3, 4, requires_grad=True)
Q = torch.randn(2, 4, 5, requires_grad=True)
s = torch.bmm(P, Q).sin().mean()
gP, gQ = torch.autograd.grad(s, (P, Q), create_graph=True)
print("bmm:", gP.grad_fn.name(), gQ.grad_fn.name())
show(gQ.grad_fn)
gP.sum().backward()
print(P.grad.shape, f"{Q.grad.sum().item():.4f}")
