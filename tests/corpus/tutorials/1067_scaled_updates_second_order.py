# A hand-written, differentiable update step (as in meta-learning): the step's scalings are
# add/sub with alpha, addcmul/addcdiv with value, lerp; create_graph=True keeps the step in
# the graph, so the meta-gradient goes through their backward formulas.
import torch

torch.manual_seed(3)
w = torch.randn(6, requires_grad=True)
m = torch.randn(6, requires_grad=True)
v = (torch.rand(6) + 0.5).requires_grad_()
beta = torch.rand(6, requires_grad=True)


def inner_loss(p):
    return (p.sin() * torch.linspace(0.5, 2.0, 6)).pow(2).sum()


(g,) = torch.autograd.grad(inner_loss(w), w, create_graph=True)
print(g.grad_fn.name())

steps = {
    "sub alpha": torch.sub(w, g, alpha=0.1),
    "add alpha": w.add(g, alpha=-0.05),
    "addcmul": torch.addcmul(w, g, m, value=-0.2),
    "addcdiv": torch.addcdiv(w, g, v, value=-0.3),
    "lerp": torch.lerp(w, w - g, beta),
    "lerp number": w.lerp(m, 0.25),
}
for name, p in steps.items():
    outer = inner_loss(p)
    grads = torch.autograd.grad(outer, (w, m, v, beta), create_graph=True, allow_unused=True)
    shown = [None if q is None else q.grad_fn.name() for q in grads]
    print(name, p.grad_fn.name(), shown)
    print([None if q is None else q.sum().item() for q in grads])
    total = sum(q.sum() for q in grads if q is not None)
    h = torch.autograd.grad(total, (w, m, v, beta), allow_unused=True, retain_graph=True)
    print([None if q is None else round(q.sum().item(), 6) for q in h])

# the nodes under a gradient scaled by alpha: mul.Scalar in PyTorch's rules
y = torch.sub(w, m, alpha=1.5).pow(2).sum()
gw, gm = torch.autograd.grad(y, (w, m), create_graph=True)
print(gm.grad_fn.name(), [n.name() for n, _ in gm.grad_fn.next_functions])
print(gw.grad_fn.name(), [None if n is None else n.name() for n, _ in gw.grad_fn.next_functions])
