# torch.testing.make_tensor for random test inputs, and the older assert_allclose.
import torch
from torch.testing import make_tensor

torch.manual_seed(42)
a = make_tensor((2, 3), dtype=torch.float32, device="cpu")
print(a)
b = make_tensor(3, dtype=torch.float64, device="cpu", low=-1, high=1, requires_grad=True)
print(b)
idx = make_tensor((5,), dtype=torch.int64, device="cpu", low=0, high=4)
print(idx)
mask = make_tensor((4,), dtype=torch.bool, device="cpu")
print(mask)
nz = make_tensor((6,), dtype=torch.int32, device="cpu", low=-1, high=2, exclude_zero=True)
print(nz)
print(make_tensor((), dtype=torch.float32, device="cpu", low=0.0, high=1.0))

# a gradient check on random inputs
out = (b.sin() * b).sum()
out.backward()
torch.testing.assert_close(b.grad, b.detach().cos() * b.detach() + b.detach().sin())
print("sin(b) * b gradient ok")

try:
    make_tensor((2,), dtype=torch.int64, device="cpu", requires_grad=True)
except ValueError as e:
    print(e)
try:
    make_tensor((2,), dtype=torch.float32, device="cpu", low=3, high=1)
except ValueError as e:
    print(e)

# assert_allclose: looser float32 tolerances, NaNs equal, numbers taken as tensors
x = torch.tensor([1.0, 2.0, float("nan")])
torch.testing.assert_allclose(x, [1.00005, 2.0, float("nan")])
print("allclose ok")
try:
    torch.testing.assert_allclose(x, [1.1, 2.0, float("nan")])
except AssertionError as e:
    print(e)
