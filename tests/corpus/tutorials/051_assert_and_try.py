import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 2).sum()
y.backward()

assert x.grad is not None
assert torch.allclose(x.grad, 2 * x), "gradient should be 2x"
assert x.grad.shape == x.shape
print("all checks passed")

try:
    assert x.grad.sum() < 0, f"grad sum is {x.grad.sum().item()}"
except AssertionError as e:
    print("AssertionError:", e)

try:
    torch.ones(2, 3) @ torch.ones(2, 3)
except RuntimeError as e:
    print(e)

try:
    torch.tensor([1.0, 2.0]) + torch.tensor([1.0, 2.0, 3.0])
except RuntimeError as e:
    print(e)
finally:
    print("done")
