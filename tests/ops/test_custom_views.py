"""The outputs of a custom Function that PyTorch makes views (an input returned as-is, a view
made inside forward): changing one in place while gradients are recorded is refused in
PyTorch's words; under no_grad, or when nothing requires grad, it is an ordinary change."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core import inplace
from gradcli.core.tensor import Tensor, no_grad
from gradcli.ops.custom import custom_apply
from tests.helpers.programs import error, out


def _identity(x: Tensor) -> Tensor:
    return custom_apply("Ident", [x], lambda: x, lambda g: g)


def _mul2(t: Tensor) -> Tensor:
    return inplace.inplace(t, lambda old: old * 2.0)


def test_an_input_returned_as_is_refuses_a_change_in_place() -> None:
    h = Tensor(np.ones(3), requires_grad=True) * 1.0
    out = _identity(h)
    with pytest.raises(GradcliError, match="Output 0 of Ident is a view and is being modified"):
        _mul2(out)
    with no_grad():
        _mul2(out)  # allowed, and seen through h, whose storage it shares
    assert out.data.tolist() == [2.0, 2.0, 2.0] and h.data.tolist() == [2.0, 2.0, 2.0]


def test_a_fresh_output_or_no_grad_input_is_an_ordinary_tensor() -> None:
    h = Tensor(np.ones(2), requires_grad=True) * 1.0
    fresh = custom_apply("Twice", [h], lambda: Tensor(h.data * 2), lambda g: g * 2)
    _mul2(fresh)  # a tensor made inside forward: changing it is recorded as usual
    assert fresh.grad_fn is not None and fresh.data.tolist() == [4.0, 4.0]
    plain = _identity(Tensor(np.ones(2)))
    _mul2(plain)
    assert plain.data.tolist() == [2.0, 2.0]


def test_several_outputs_use_the_multiple_views_message() -> None:
    h = Tensor(np.ones(2), requires_grad=True) * 1.0
    a, b = custom_apply("Pair", [h, h], lambda: (h, Tensor(h.data / 2)), lambda ga, gb: (ga, gb))
    with pytest.raises(GradcliError, match="Output 0 of Pair .* function that returns multiple"):
        _mul2(a)
    _mul2(b)  # made inside forward: not a view


def test_the_mark_goes_with_the_tensor() -> None:
    h = Tensor(np.ones(2), requires_grad=True) * 1.0
    out = _identity(h)
    assert id(out) in inplace._CUSTOM_VIEWS
    key = id(out)
    del out  # freed by reference counting (no cycle): its mark goes with it
    assert key not in inplace._CUSTOM_VIEWS


_FN = (
    "import torch\nimport torch.autograd.forward_ad as fwAD\n"
    "class F(torch.autograd.Function):\n"
    "    @staticmethod\n    def forward(ctx, x, y):\n        return {fwd}\n"
    "    @staticmethod\n    def backward(ctx, g):\n        return g, g\n"
    "    @staticmethod\n    def jvp(ctx, tx, ty):\n        return {jvp}\n"
    "with fwAD.dual_level():\n"
    "    x = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([3., 4.]))\n"
    "    y = fwAD.make_dual(torch.tensor([5., 6.]), torch.tensor([7., 8.]))\n"
    "    t = fwAD.unpack_dual(F.apply(x, y)).tangent\n"
    "    print(t, t._base is not None)\n"
)


def _jvp(fwd: str, jvp: str) -> str:
    return out(_FN.format(fwd=fwd, jvp=jvp))


def test_an_input_returned_as_is_needs_a_view_of_its_tangent() -> None:
    for jvp in ("tx", "tx * 1", "tx.clone()", "ty"):
        e = error(_FN.format(fwd="x", jvp=jvp))
        assert "forward is returning a view (or an input as-is) but the jvp is not" in str(e)
    assert _jvp("x", "tx.view_as(tx)") == "tensor([3., 4.]) True\n"
    assert _jvp("x", "tx.view(-1)") == "tensor([3., 4.]) True\n"


def test_a_view_of_an_input_needs_a_view_of_its_tangent() -> None:
    assert "jvp is not returning a view" in str(error(_FN.format(fwd="x[0]", jvp="tx[0] * 1")))
    assert _jvp("x[0]", "tx[0]") == "tensor(3.) True\n"
    assert _jvp("y.view(2)", "ty.view(2)") == "tensor([7., 8.]) True\n"
    # a fresh output takes any tangent, and an input without a tangent is not checked
    assert _jvp("x * 2", "tx * 2") == "tensor([6., 8.]) False\n"
    assert _jvp("x.clone()", "tx") == "tensor([3., 4.]) False\n"


def test_a_view_of_another_tangent_is_refused_in_pytorchs_words() -> None:
    e = error(_FN.format(fwd="x", jvp="ty.view_as(ty)"))
    assert "jvp is not returning a view of the given grad input." in str(e)
    e = error(_FN.format(fwd="y[1:]", jvp="tx[1:]"))
    assert "jvp is not returning a view of the given grad input." in str(e)


_DIRTY = (
    "import torch\nimport torch.autograd.forward_ad as fwAD\n"
    "class F(torch.autograd.Function):\n"
    "    @staticmethod\n    def forward(ctx, x):\n        x.mul_(2)\n"
    "        ctx.mark_dirty(x)\n        return x\n"
    "    @staticmethod\n    def backward(ctx, g):\n        return g * 2\n"
    "    @staticmethod\n    def jvp(ctx, t):\n{body}"
    "with fwAD.dual_level():\n"
    "    x = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([3., 4.]))\n"
    "    o = F.apply(x)\n"
    "    print(fwAD.unpack_dual(o).tangent, o is x)\n"
)


def test_an_input_changed_in_place_needs_its_tangent_changed_in_place_and_returned() -> None:
    body = "        t.mul_(2)\n        return t\n"
    assert out(_DIRTY.format(body=body)) == "tensor([6., 8.]) True\n"
    for body in ("        return t * 2\n", "        t.mul_(2)\n        return t.clone()\n"):
        e = error(_DIRTY.format(body=body))
        assert "is not modifying the forward mode gradients inplace" in str(e)
    body = "        t.mul_(2)\n        return t.view_as(t)\n"
    e = error(_DIRTY.format(body=body))
    assert "is not returning the forward mode gradients as-is" in str(e)


def test_an_input_without_a_tangent_returned_as_is_takes_the_jvps_tangent() -> None:
    got = out(
        _FN.format(fwd="x", jvp="ty * 2").replace(
            "x = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([3., 4.]))",
            "x = torch.tensor([1., 2.])",
        )
        + "    print(fwAD.unpack_dual(x).tangent, fwAD.unpack_dual(x * x).tangent)\n"
    )
    # d(x*x) = 2 x dx with dx = 2 * [7, 8]
    assert got == "tensor([14., 16.]) False\ntensor([14., 16.]) tensor([28., 64.])\n"


_TWO = (
    "import torch\nimport torch.autograd.forward_ad as fwAD\n"
    "class F(torch.autograd.Function):\n"
    "    @staticmethod\n    def forward(ctx, x):\n        i = x.argmax()\n{mark}"
    "        return x * 2, i\n"
    "    @staticmethod\n    def backward(ctx, g, gi):\n        return g * 2\n"
    "    @staticmethod\n    def jvp(ctx, t):\n        return {jvp}\n"
    "with fwAD.dual_level():\n"
    "    x = fwAD.make_dual(torch.tensor([1., 3., 2.]), torch.tensor([1., 0., 2.]))\n"
    "    y, i = F.apply(x)\n"
    "    print(fwAD.unpack_dual(y).tangent, fwAD.unpack_dual(i).tangent)\n"
)


def test_a_tangent_for_an_output_that_is_not_differentiable_is_refused() -> None:
    mark = "        ctx.mark_non_differentiable(i)\n"
    for m in ("", mark):
        assert out(_TWO.format(mark=m, jvp="t * 2, None")) == "tensor([2., 0., 4.]) None\n"
        e = error(_TWO.format(mark=m, jvp="t * 2, t.sum()"))
        assert "jvp returned a gradient at position 1, but  the corresponding forward" in str(e)
    e = error(_TWO.format(mark="", jvp="t * 2"))
    assert "invalid number of forward gradients (expected 2 but got 1)" in str(e)
