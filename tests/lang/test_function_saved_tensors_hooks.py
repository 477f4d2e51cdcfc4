"""saved_tensors_hooks and a custom autograd.Function, as PyTorch 2.13: pack_hook is called for
each tensor ctx.save_for_backward saved once the call is recorded (after the nodes recorded
before it, never under no_grad), and every read of ctx.saved_tensors calls unpack_hook, what
it gives back taking the saved tensor's place in the graph (was: the hooks never called)."""

from __future__ import annotations

from tests.helpers.programs import error, out

SQ = """
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x * x
        ctx.save_for_backward(x, None, y)
        return y

    @staticmethod
    def backward(ctx, g):
        x, n, y = ctx.saved_tensors
        x2, _, _ = ctx.saved_tensors
        print("backward", n, y)
        return 2 * g * x2
"""

HOOKS = """
store = []
def pack(t):
    store.append(t.detach().clone())
    print("pack", tuple(t.shape), t.grad_fn is not None)
    return len(store) - 1
def unpack(i):
    print("unpack", i)
    return store[i]
x = torch.tensor([1., 2.], requires_grad=True)
"""


def test_pack_and_unpack_in_pytorchs_order() -> None:
    text = out(
        SQ + HOOKS + "with torch.autograd.graph.saved_tensors_hooks(pack, unpack):\n"
        "    a = x.exp()\n    b = Sq.apply(a)\n    c = (b * x).sum()\n"
        "    with torch.no_grad():\n        Sq.apply(x)\n"
        "c.backward()\nprint(x.grad)\n"
    )
    assert text == (
        "pack (2,) True\npack (2,) True\npack (2,) True\npack (2,) False\npack (2,) True\n"
        "unpack 3\nunpack 4\nunpack 1\nunpack 2\nunpack 1\nunpack 2\n"
        "backward None tensor([ 7.3891, 54.5982], grad_fn=<SqBackward>)\n"
        "unpack 0\ntensor([ 22.1672, 272.9908])\n"
    )


def test_unpack_must_give_a_tensor() -> None:
    e = error(
        SQ + "x = torch.ones(2, requires_grad=True)\n"
        "with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: None):\n"
        "    d = Sq.apply(x).sum()\nd.backward()\n"
    )
    assert "unpack_hook expected to be a Tensor but got result of type NoneType" in str(e)
