# What backward() checks first: the gradient given must have the output's shape, and only
# then must the output require grad.
import torch

checks = {
    "wrong shape, no grad": lambda: torch.ones(2, 1).backward(torch.ones(1, 2)),
    "right shape, no grad": lambda: torch.ones(2, 1).backward(torch.ones(2, 1)),
    "wrong shape, grad": lambda: torch.ones(2, requires_grad=True).backward(torch.ones(3)),
    "implicit, no grad": lambda: torch.ones(2).backward(),
    "implicit, not scalar": lambda: (torch.ones(2, requires_grad=True) * 2).backward(),
    "grad() wrong shape": lambda: torch.autograd.grad(torch.ones(2), torch.ones(2), torch.ones(3)),
    "two outputs": lambda: torch.autograd.backward(
        [torch.ones(2, requires_grad=True) * 1, torch.ones(2, requires_grad=True) * 2],
        [torch.ones(2), torch.ones(1, 2)],
    ),
}
for name, f in checks.items():
    try:
        f()
        print(name, "ran")
    except RuntimeError as e:
        print(name, "->", e)

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * x
y.backward(torch.tensor([1.0, 0.5], dtype=torch.float64))
print(x.grad)
