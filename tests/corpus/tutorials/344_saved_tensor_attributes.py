import torch

torch.manual_seed(0)
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))
print(x is y.grad_fn._saved_self)

y = x.exp()
print(y.equal(y.grad_fn._saved_result))
print(y is y.grad_fn._saved_result)

z = x * torch.full((5,), 3.0)
print(z.grad_fn._saved_other)
print(y.grad_fn.name(), z.grad_fn.name())
