# A custom autograd Function that changes its input in place and says so with
# ctx.mark_dirty (the pattern of PyTorch's docs): the output is the input itself, its
# history continues through the Function, and a value saved earlier is detected as stale.
import torch
from torch.autograd import Function


class AddOneInplace(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = x * 2
print(y._version)
z = AddOneInplace.apply(y)
print(z is y, y._version, z.grad_fn.name(), z.grad_fn.next_functions[0][0].name())
(z * z).sum().backward()
print(x.grad)

a = torch.tensor(1.0, requires_grad=True, dtype=torch.double).clone()
b = a * a
AddOneInplace.apply(a)
print(a, a._version)
try:
    b.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
