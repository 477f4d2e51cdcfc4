# A custom operator whose kernel is NumPy writing into the output's memory, its fake kernel,
# and torch.library.opcheck's verdicts (a wrong fake kernel is caught).
import numpy as np
import torch
from torch import Tensor


@torch.library.custom_op("demo::np_tanh", mutates_args=())
def np_tanh(x: Tensor) -> Tensor:
    out = torch.empty_like(x)
    np.tanh(x.numpy(), out=out.numpy())
    return out


@np_tanh.register_fake
def _(x):
    return torch.empty_like(x)


def backward(ctx, grad):
    (y,) = ctx.saved_tensors
    return grad * (1 - y * y)


def setup_context(ctx, inputs, output):
    ctx.save_for_backward(output)


np_tanh.register_autograd(backward, setup_context=setup_context)

x = torch.linspace(-2, 2, 5, requires_grad=True)
y = np_tanh(x)
print(y)
y.sum().backward()
print(x.grad)
print(torch.library.opcheck(np_tanh, (torch.randn(4),)))
print(torch.library.opcheck(np_tanh, (torch.randn(2, 3, dtype=torch.float64),)))


@torch.library.custom_op("demo::np_exp_into", mutates_args={"out"})
def np_exp_into(x: Tensor, out: Tensor) -> None:
    np.exp(x.numpy(), out=out.numpy())


buf = torch.zeros(3)
np_exp_into(torch.tensor([0.0, 1.0, 2.0]), buf)
print(buf)
print(torch.library.opcheck(np_exp_into, (torch.randn(3), torch.empty(3))))


@torch.library.custom_op("demo::transposed", mutates_args=())
def transposed(x: Tensor) -> Tensor:
    return torch.sin(x).t().contiguous().t()


@transposed.register_fake
def _(x):
    return torch.empty_like(x)


try:
    torch.library.opcheck(transposed, (torch.randn(2, 3),))
except Exception as exc:
    print(type(exc).__name__)
    print(str(exc).split(": ", 1)[1][:120])

a = np.linspace(0.0, 1.0, 4)
b = np.empty(4)
print(np.sqrt(a, out=b) is b, b)
