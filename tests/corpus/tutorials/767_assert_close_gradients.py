# Checking autograd against a hand-written gradient with torch.testing.assert_close,
# and reading its messages when the check fails.
import torch
from torch.testing import assert_close

torch.manual_seed(0)
x = torch.randn(4, 3, requires_grad=True)
w = torch.randn(3, 2, requires_grad=True)

y = torch.tanh(x @ w)
loss = (y ** 2).sum()
loss.backward()

# d loss / d w = x^T (2 y (1 - y^2))
manual_w = x.detach().T @ (2 * y.detach() * (1 - y.detach() ** 2))
assert_close(w.grad, manual_w)
print("gradient of w matches")

# a deliberately wrong gradient: the message says where and by how much
try:
    assert_close(w.grad, manual_w * 1.01)
except AssertionError as e:
    print("caught:")
    print(e)

# tolerances are per dtype; float64 is stricter
a = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
try:
    assert_close(a, a + 1e-6)
except AssertionError as e:
    print(e)
assert_close(a, a + 1e-6, rtol=1e-5, atol=1e-5)
print("close with looser tolerances")

# dtype, shape and stride checks
for actual, expected, kw in [
    (torch.ones(3), torch.ones(3, dtype=torch.float64), {}),
    (torch.ones(3), torch.ones(3, dtype=torch.float64), {"check_dtype": False}),
    (torch.ones(2, 3), torch.ones(3, 2), {}),
    (torch.ones(2, 3), torch.ones(3, 2).t(), {"check_stride": True}),
    (torch.arange(4), torch.tensor([0, 1, 2, 5]), {}),
    (torch.tensor(2.0), torch.tensor(2.5), {}),
]:
    try:
        assert_close(actual, expected, **kw)
        print("ok")
    except AssertionError as e:
        print("AssertionError:", e)

# NaNs and infinities
nan = float("nan")
try:
    assert_close(torch.tensor([1.0, nan]), torch.tensor([1.0, nan]))
except AssertionError as e:
    print(e)
assert_close(torch.tensor([1.0, nan]), torch.tensor([1.0, nan]), equal_nan=True)
assert_close(torch.tensor([float("inf")]), torch.tensor([float("inf")]))
print("nan and inf ok")

# containers: the failing item is named
grads = {"w": w.grad, "x": x.grad}
expected = {"w": manual_w, "x": x.grad.clone()}
expected["x"][0, 0] += 0.5
try:
    assert_close(grads, expected)
except AssertionError as e:
    print(e)
try:
    assert_close([w.grad, 1.0], (manual_w, 1.5))
except AssertionError as e:
    print(e)
try:
    assert_close({"a": 1}, {"b": 1})
except AssertionError as e:
    print(e)

# numbers, bools, None
for pair in [(1.0, 1.0 + 1e-9), (1, 2), (1, 1.0), (True, False), (None, 0)]:
    try:
        assert_close(*pair)
        print("ok", pair)
    except AssertionError as e:
        print(e)

# custom messages and the errors that are not about closeness
try:
    assert_close(w.grad, manual_w + 1, msg="gradient of w is wrong")
except AssertionError as e:
    print(e)
try:
    assert_close(w.grad, manual_w + 1, msg=lambda m: f"check failed:\n{m}")
except AssertionError as e:
    print(e)
try:
    assert_close(w.grad, manual_w, rtol=1e-3)
except ValueError as e:
    print("ValueError:", e)
try:
    assert_close(w.grad, manual_w.tolist())
except TypeError as e:
    print("TypeError:", e)
try:
    assert_close(torch.nn.Parameter(torch.ones(2)), torch.ones(2), allow_subclasses=False)
except TypeError as e:
    print("TypeError:", e)
assert_close(torch.nn.Parameter(torch.ones(2)), torch.ones(2))
print(torch.testing.assert_close(x.grad, x.grad))
