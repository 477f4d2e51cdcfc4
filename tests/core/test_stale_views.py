"""A view used after the tensor it views was changed in place by another name: PyTorch gives
the view a new grad_fn (AsStridedBackward0) over the changed tensor when it is next used, so
the gradient flows through the change; gradcli does the same (`core.op.current`). Nodes that
used the view before the change keep differentiating the old values. PyTorch's own output
for these programs is in the corpus (672)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.lang.program import parse


def run(text: str, dtype: str = "float64") -> str:
    return "".join(parse("import torch\n" + text, "t.py").run(dtype=dtype).output)


def grads(text: str) -> np.ndarray:
    out = run(text + "print(x.grad.flatten().tolist())\n")
    return np.array(eval(out.strip().splitlines()[-1]))  # a printed list of floats


VIEWS = [
    # every kind of view, taken before the change of its tensor and used after it
    "y = h.reshape(4)",
    "y = h.view(4)",
    "y = h.t()",
    "y = h[0]",
    "y = h[:, 1:]",
    "y = h.unsqueeze(0)",
    "y = h[0:1].expand(3, 2)",
    "y = h.flatten()",
    "y = h.permute(1, 0)",
    "y = h.narrow(0, 0, 1)",
    "y = h.select(1, 0)",
    "y = h.view(2, 2)[:, 0]",
    "y = h.diagonal()",
    "y = h.transpose(0, 1)[1]",
]
CHANGES = ["h.mul_(2)", "h += 1", "h[1] = h[1] * 3", "h.exp_()", "h[0, 1] = x[1, 0] ** 2"]
X = "x = torch.tensor([[0.3, -1.2], [2.0, 0.5]], requires_grad=True, dtype=torch.float64)\n"


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("change", CHANGES)
def test_a_view_used_after_a_change_differentiates_the_changed_values(
    view: str, change: str
) -> None:
    # the view taken before the change and used after it is the view taken after the change:
    # same values, same dependence on x, so the same gradient
    loss = "z = (y * y * 1.5).sum()\nz.backward()\n"
    stale = grads(f"{X}h = x * 1\n{view}\n{change}\n{loss}")
    fresh = grads(f"{X}h = x * 1\n{change}\n{view}\n{loss}")
    np.testing.assert_array_equal(stale, fresh)
    # and it is the derivative of that function (central differences)
    body = f"h = x * 1\n{change}\n{view}\nprint(float((y * y * 1.5).sum()))\n"
    x0 = np.array([[0.3, -1.2], [2.0, 0.5]])
    eps = 1e-6
    fd = []
    for i in range(4):
        vals = []
        for s in (eps, -eps):
            xs = x0.copy().ravel()
            xs[i] += s
            text = f"x = torch.tensor({xs.reshape(2, 2).tolist()}, dtype=torch.float64)\n"
            vals.append(float(run(text + body).strip()))
        fd.append((vals[0] - vals[1]) / (2 * eps))
    np.testing.assert_allclose(stale, fd, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("view", VIEWS[:11])
def test_its_grad_fn_is_pytorchs_regenerated_one(view: str) -> None:
    out = run(f"{X}h = x * 1\n{view}\nh.mul_(2)\nprint(y.grad_fn.name(), y.requires_grad)\n")
    assert out == "AsStridedBackward0 True\n"


@pytest.mark.parametrize("view", VIEWS[:11])
def test_the_same_view_used_before_the_change_keeps_the_old_values(view: str) -> None:
    # z is made before the change: its gradient is that of the old values (PyTorch's too)
    early = grads(f"{X}h = x * 1\n{view}\nz = (y * 1.5).sum()\nh.mul_(2)\nz.backward()\n")
    plain = grads(f"{X}h = x * 1\n{view}\nz = (y * 1.5).sum()\nz.backward()\n")
    assert plain.any()
    np.testing.assert_array_equal(early, plain)


def test_a_view_of_a_tensor_that_comes_to_require_grad_requires_grad() -> None:
    # h needs no grad when the view is taken; writing w into it makes it (and the view) need it:
    # the view's path to w must count (without it, w.grad would be [1, 1]: a silent wrong answer)
    out = run(
        "w = torch.tensor([2.0, 3.0], requires_grad=True)\nh = torch.zeros(3, 2)\nv = h[1]\n"
        "h[1] = w * 5\nprint(v.requires_grad, v.is_leaf)\nloss = (v * v).sum() + w.sum()\n"
        "loss.backward()\nprint(w.grad)\n"
    )
    assert out == "True False\ntensor([101., 151.])\n"


def test_a_view_taken_before_a_change_and_changed_itself_afterwards() -> None:
    # v.add_ on a view whose tensor changed since: the change goes on from the new version
    out = run(
        "w = torch.tensor([2.0, 3.0], requires_grad=True)\nh = torch.zeros(3, 2)\nv = h[1]\n"
        "h[1] = w * 5\nv.mul_(w)\n(h * 1.0).sum().backward()\nprint(w.grad)\n"
    )
    # h[1] = 5 w * w: gradient 10 w
    assert out == "tensor([20., 30.])\n"


def test_a_change_under_no_grad_leaves_views_usable() -> None:
    got = run(
        "w = torch.nn.Parameter(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))\nwt = w.t()\n"
        "with torch.no_grad():\n    w.mul_(2)\n(wt * 1.0).sum().backward()\nprint(w.grad)\n",
        "float32",
    )
    assert got == "tensor([[1., 1.],\n        [1., 1.]])\n"


def test_a_view_changed_through_itself_stays_usable() -> None:
    got = run(
        "x = torch.ones(2, 3, requires_grad=True)\nh = x * 1\ncol = h[:, 1]\ncol += 5\n"
        "(col * 2.0).sum().backward()\nprint(x.grad)\n",
        "float32",
    )
    assert got == "tensor([[0., 2., 0.],\n        [0., 2., 0.]])\n"


def test_a_value_a_node_saved_and_that_changed_is_still_refused_in_pytorchs_words() -> None:
    from gradcli.base.errors import GradcliError

    with pytest.raises(GradcliError, match="modified by an inplace operation"):
        run(f"{X}h = x.exp()\nv = h.view(-1)\nh.mul_(2)\nv.sum().backward()\n")
    # a saved view: PyTorch names its regenerated node
    with pytest.raises(GradcliError, match=r"\[4\]\], which is output 0 of AsStrided, is at"):
        run(f"{X}h = x * 1\ny = h.reshape(4)\nz = (y * y).sum()\nh.mul_(2)\nz.backward()\n")


@pytest.mark.parametrize("view", VIEWS[:11])
@pytest.mark.parametrize("change", ["h.mul_(2)", "h[1] = 4.0", "h.zero_()"])
def test_a_change_under_no_grad_regenerates_the_view_too(view: str, change: str) -> None:
    # PyTorch regenerates the grad_fn of a view whose tensor changed in any grad mode; the
    # gradient (through the view onto the unchanged graph of h) is that of a fresh view
    body = f"{X}h = x * 1\n{view}\nwith torch.no_grad():\n    {change}\n"
    out = run(body + "print(y.grad_fn.name(), y.requires_grad)\n")
    assert out == "AsStridedBackward0 True\n"
    loss = "z = (y * y * 1.5).sum()\nz.backward()\n"
    fresh = f"{X}h = x * 1\nwith torch.no_grad():\n    {change}\n{view}\n"
    np.testing.assert_array_equal(grads(body + loss), grads(fresh + loss))


def test_views_of_several_outputs_are_refused_after_a_change_under_no_grad() -> None:
    from gradcli.base.errors import GradcliError

    for make, name in (
        ("h.unbind(0)[1]", "Output 1 of Unbind"),
        ("h.split(1)[0]", "Output 0 of S"),
    ):
        with pytest.raises(GradcliError, match=f"^{name}.* its base has been modified inplace"):
            run(f"{X}h = x * 1\nv = {make}\nwith torch.no_grad():\n    h.add_(1)\nv * 2\n")
    # untouched tensors and views taken after the change are fine
    out = run(f"{X}h = x * 1\nwith torch.no_grad():\n    h.add_(1)\nv = h.unbind(0)[1]\n")
    assert out == ""
