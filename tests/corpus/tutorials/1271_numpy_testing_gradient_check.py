# Checking autograd's gradient against a hand-derived one with numpy.testing, as forum
# answers do; a failed check caught and printed.
import numpy as np
import numpy.testing as npt
import torch
from numpy.testing import assert_allclose

torch.manual_seed(7)
w = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
x = torch.randn(5, 4, dtype=torch.float64)
y = torch.tanh(x @ w)
loss = (y ** 2).sum()
loss.backward()

# d/dW sum(tanh(xW)^2) = x^T (2 tanh(xW) (1 - tanh(xW)^2))
t = np.tanh(x.numpy() @ w.detach().numpy())
manual = x.numpy().T @ (2 * t * (1 - t ** 2))
assert_allclose(w.grad.numpy(), manual, rtol=1e-10)
npt.assert_almost_equal(w.grad.sum().item(), manual.sum(), decimal=9)
npt.assert_array_almost_equal(w.grad, manual)
print("gradient matches:", w.grad.shape)

b = torch.zeros(3, requires_grad=True)
out = (torch.ones(2, 3) * b.exp()).sum()
out.backward()
npt.assert_array_equal(b.grad.numpy(), np.array([2.0, 2.0, 2.0], dtype=np.float32))
npt.assert_equal(b.grad.tolist(), [2.0, 2.0, 2.0])

wrong = np.array([2.0, 2.0, 2.002])
try:
    assert_allclose(b.grad.numpy(), wrong, rtol=1e-6, err_msg="b's gradient")
except AssertionError as e:
    print("check failed:", e)
try:
    npt.assert_allclose(w.grad, manual)  # a tensor that needs no grad: NumPy converts it
    npt.assert_allclose(w, manual)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    npt.assert_array_equal(b.grad.numpy(), [2.0, 2.0])
except AssertionError as e:
    print(str(e).strip().splitlines()[:2])
