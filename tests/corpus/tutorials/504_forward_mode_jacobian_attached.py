# functional.jacobian with strategy="forward-mode" of an input that requires grad: whether the
# Jacobian stays attached to x follows PyTorch's forward formulas (x * c reads x, x + c does
# not), and an attached one can be differentiated again.
import torch
from torch.autograd.functional import jacobian

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
c = torch.tensor([0.5, 1.5, -1.0])
W = torch.tensor([[1.0, 0.0, 2.0], [0.5, -1.0, 1.0]])

functions = {
    "x + c": lambda x: x + c,
    "c - x": lambda x: c - x,
    "x * c": lambda x: x * c,
    "x / c": lambda x: x / c,
    "(x + 1) * 2": lambda x: (x + 1) * 2,
    "-x * 3": lambda x: (-x) * 3,
    "W @ x": lambda x: W @ x,
    "x @ c": lambda x: x @ c,
    "relu": torch.relu,
    "leaky_relu": torch.nn.functional.leaky_relu,
    "hardtanh": torch.nn.functional.hardtanh,
    "abs": torch.abs,
    "clamp": lambda x: x.clamp(-1, 1),
    "where": lambda x: torch.where(c > 0, x, c),
    "cumsum": lambda x: x.cumsum(0),
    "flip": lambda x: x.flip(0),
    "stack": lambda x: torch.stack([x, 2 * x]),
    "sin": torch.sin,
    "x * x": lambda x: x * x,
}
for name, f in functions.items():
    J = jacobian(f, x, strategy="forward-mode", vectorize=True)
    print(f"{name:12s} requires_grad={J.requires_grad} grad_fn={type(J.grad_fn).__name__ if J.grad_fn else None}")

J = jacobian(lambda x: W @ x, x, strategy="forward-mode", vectorize=True)
print(J)
J.sum().backward()
print(x.grad)
J = jacobian(lambda x: x * x * c, x, strategy="forward-mode", vectorize=True)
print(J)
x.grad = None
J.diagonal().sum().backward()
print(x.grad)
