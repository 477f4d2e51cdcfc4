# The gradient of a product, kept differentiable (create_graph=True), where some factors
# are zero: what its grad_fn says and what a second derivative through it gives.
import torch

cases = {
    "no zero": [1.5, -2.0, 4.0],
    "one zero": [1.5, 0.0, 4.0],
    "two zeros": [0.0, 3.0, 0.0],
}
for name, values in cases.items():
    w = torch.tensor(values, requires_grad=True)
    (dw,) = torch.autograd.grad(w.prod(), w, create_graph=True)
    print(name, dw, type(dw.grad_fn).__name__)
    (second,) = torch.autograd.grad((dw * torch.arange(1.0, 4.0)).sum(), w)
    print("  weighted second derivative:", second)

# a matrix reduced whole, and row by row
m = torch.tensor([[0.5, 0.0], [2.0, -1.0]], dtype=torch.float64, requires_grad=True)
(whole,) = torch.autograd.grad(m.prod(), m, create_graph=True)
print(whole)
(rows,) = torch.autograd.grad(m.prod(dim=1).sum(), m, create_graph=True)
print(rows)
print(torch.autograd.functional.hessian(lambda t: t.prod(), m)[0, 1])
