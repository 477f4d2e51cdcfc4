"""`torch.as_tensor(t, dtype=...)` of a tensor of another dtype is PyTorch's `t.to(dtype)`:
the result stays in the graph (ToCopyBackward0) and gradients flow back to `t`; of the same
dtype it is `t` itself; to an integer dtype it leaves the graph. (It was a detached copy.)"""

from __future__ import annotations

import numpy as np

from gradcli.lang.program import parse


def run(text: str):
    return parse("import torch\n" + text, "t.py").run(dtype="float32")


def test_as_tensor_to_another_float_dtype_keeps_the_graph() -> None:
    r = run(
        "a = torch.tensor([0.5, -1.25, 2.0], dtype=torch.float64, requires_grad=True)\n"
        "b = torch.as_tensor(a, dtype=torch.float32)\n"
        "y = (b ** 3).sum()\ny.backward()\n"
        "name = b.grad_fn.name()\n"
    )
    a = np.array([0.5, -1.25, 2.0])
    assert r.env["name"] == "ToCopyBackward0"
    assert r.env["b"].dtype == np.float32 and r.env["b"].requires_grad
    grad = r.env["a"].grad.data
    assert grad.dtype == np.float64
    # central finite differences of sum(float32(a)^3) in float64
    h = 1e-3
    fd = np.array(
        [
            (
                ((a + h * e).astype(np.float32).astype(np.float64) ** 3).sum()
                - ((a - h * e).astype(np.float32).astype(np.float64) ** 3).sum()
            )
            / (2 * h)
            for e in np.eye(3)
        ]
    )
    np.testing.assert_allclose(grad, 3 * a**2, rtol=1e-6)
    np.testing.assert_allclose(grad, fd, rtol=1e-3)


def test_as_tensor_same_dtype_is_the_tensor_and_integer_leaves_the_graph() -> None:
    r = run(
        "a = torch.tensor([0.5, -1.25], requires_grad=True)\n"
        "same = torch.as_tensor(a) is a\n"
        "same_dt = torch.as_tensor(a, dtype=torch.float32) is a\n"
        "i = torch.as_tensor(a, dtype=torch.int64)\n"
    )
    assert r.env["same"] is True and r.env["same_dt"] is True
    assert r.env["i"].data.tolist() == [0, -1] and not r.env["i"].requires_grad
