"""A custom autograd.Function called so that it records no node (grad mode off, or no tensor
argument requiring grad), as PyTorch 2.13: what ctx.save_for_backward was given is not checked
(PyTorch checks it only when it records the node), and an output that requires grad but was
made outside forward is detached in place and returned itself (a returned input comes back
as a new tensor outside the graph)."""

from __future__ import annotations

from tests.helpers.programs import error, out

PASS = """
class P(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n):
        ctx.save_for_backward(n)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2, None
"""


def test_a_non_tensor_saved_is_an_error_only_when_the_call_records() -> None:
    e = error(PASS + "x = torch.ones(2, requires_grad=True)\nP.apply(x, 3)\n")
    assert "save_for_backward can only save variables, but argument 0 is of type int" in str(e)
    assert out(PASS + "x = torch.ones(2)\nprint(P.apply(x, 3))\n") == "tensor([2., 2.])\n"
    text = out(
        PASS + "x = torch.ones(2, requires_grad=True)\n"
        "with torch.no_grad():\n    print(P.apply(x, 3))\n"
    )
    assert text == "tensor([2., 2.])\n"


def test_the_first_non_tensor_is_named() -> None:
    prog = PASS.replace("save_for_backward(n)", "save_for_backward(x, None, [n], n)")
    e = error(prog + "x = torch.ones(2, requires_grad=True)\nP.apply(x, 3)\n")
    assert "argument 2 is of type list" in str(e)


IDENT = """
class I(torch.autograd.Function):
    @staticmethod
    def forward(ctx, pair):
        ctx.save_for_backward(pair)
        return pair

    @staticmethod
    def backward(ctx, *gs):
        return gs
"""


def test_a_tuple_argument_records_nothing_and_detaches_what_it_returns() -> None:
    text = out(
        IDENT + "w = torch.ones(2, requires_grad=True)\n"
        "a, b = w * 2, w * 3\n"
        "r = I.apply((a, b))\n"
        "print(type(r).__name__, r[0] is a, r[1] is b, a.requires_grad, a.grad_fn, a.is_leaf)\n"
        "a.add_(1)\n"
        "print(a, w)\n"
    )
    first = "tuple True True False None True\n"
    assert text == first + "tensor([3., 3.]) tensor([1., 1.], requires_grad=True)\n"


def test_a_single_output_made_outside_forward_is_detached_in_place() -> None:
    prog = """
w = torch.ones(2, requires_grad=True)
o = w * 5
v = (w * 7)[:1]

class Keep(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return o

    @staticmethod
    def backward(ctx, g):
        return g

class View(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return v

    @staticmethod
    def backward(ctx, g):
        return g

class Same(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g

r = Keep.apply(torch.zeros(2))
print(r is o, o.requires_grad, o.grad_fn)
i = torch.ones(3)
s = Same.apply(i)
print(s is i, s.requires_grad)
u = View.apply(torch.zeros(1))
print(u is v, u.requires_grad, type(u.grad_fn).__name__)
"""
    # (a view keeps its history, as PyTorch leaves views as they are)
    assert out(prog) == "True False None\nFalse False\nTrue True SliceBackward0\n"


def test_a_recording_call_still_builds_its_node() -> None:
    text = out(
        IDENT.replace("ctx.save_for_backward(pair)", "pass").replace(
            "def forward(ctx, pair):\n        pass\n        return pair",
            "def forward(ctx, x):\n        return x * 1",
        )
        + "x = torch.ones(2, requires_grad=True)\n"
        "y = I.apply(x)\n"
        "print(type(y.grad_fn).__name__, x.requires_grad)\n"
    )
    assert text == "IBackward True\n"
