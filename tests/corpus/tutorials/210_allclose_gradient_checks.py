import torch

# Checking a hand-derived gradient against autograd, the way unit tests do it.
x = torch.linspace(-2.0, 2.0, 7, requires_grad=True)
y = (x**3 - 2 * x).sum()
y.backward()
manual = 3 * x.detach() ** 2 - 2
print(torch.allclose(x.grad, manual))
print(torch.isclose(x.grad, manual + 1e-3))
print(torch.isclose(x.grad, manual + 1e-3, atol=1e-2).all())
print(x.grad.allclose(manual, rtol=0.0, atol=0.0), torch.equal(x.grad, manual))

# float32 tolerances: 1 + 1e-7 is 1 in float32, but not in float64.
a = torch.tensor([1.0, 100.0])
print(
    torch.isclose(a, a + 1e-7, rtol=0, atol=0),
    torch.isclose(a.double(), a.double() + 1e-7, rtol=0, atol=0),
)
print(torch.isclose(torch.tensor([float("nan"), 1.0]), torch.tensor([float("nan"), 1.0])))
print(
    torch.isclose(
        torch.tensor([float("nan"), 1.0]), torch.tensor([float("nan"), 1.0]), equal_nan=True
    )
)
print(torch.allclose(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4]), atol=1))

try:
    torch.allclose(a, a.double())
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.isclose(a, a, rtol=-1e-3)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.allclose(a, [1.0, 100.0])
except TypeError as e:
    print("TypeError:", e)
print(
    torch.is_tensor(a),
    torch.is_tensor(a.tolist()),
    torch.numel(torch.ones(2, 3, 4)),
    a.is_floating_point(),
)
