"""The hooks of the outputs of one call returning several (split, unbind, chunk, a custom
Function's): PyTorch's single node runs them together, in the order each output's first hook
was registered, giving None to an output no gradient reached (and refusing a value returned
for it). Expected texts are PyTorch 2.13's."""

from __future__ import annotations

from tests.helpers.programs import error, out

_SPLIT = (
    "import torch\n"
    "a = torch.tensor([1., 2., 3., 4., 5., 6.], requires_grad=True)\n"
    "p, q, r = a.{call}\n"
    "{hooks}"
    "{use}.backward()\n"
    "print(a.grad)\n"
)


def _hooks(*names: str) -> str:
    return "".join(f"{n}.register_hook(lambda g: print('{n}', g))\n" for n in names)


def test_an_output_no_gradient_reached_gets_none_when_its_siblings_node_runs() -> None:
    got = out(_SPLIT.format(call="split(2)", hooks=_hooks("p", "q", "r"), use="(q * 2).sum()"))
    assert got == "p None\nq tensor([2., 2.])\nr None\ntensor([0., 0., 2., 2., 0., 0.])\n"
    # nothing reached any piece: no hook runs
    got = out(_SPLIT.format(call="split(2)", hooks=_hooks("p"), use="(a * 1).sum()"))
    assert got == "tensor([1., 1., 1., 1., 1., 1.])\n"


def test_hooks_run_in_the_order_they_were_first_registered_not_output_order() -> None:
    got = out(_SPLIT.format(call="unbind()[:3]", hooks=_hooks("r", "p"), use="(p + r * 3)"))
    assert got == "r tensor(3.)\np tensor(1.)\ntensor([1., 0., 3., 0., 0., 0.])\n"
    got = out(_SPLIT.format(call="chunk(3)", hooks=_hooks("q", "p", "r"), use="p.sum()"))
    assert got.splitlines()[:3] == ["q None", "p tensor([1., 1.])", "r None"]


def test_a_value_returned_for_no_gradient_is_refused() -> None:
    hook = "p.register_hook(lambda g: torch.zeros(2) if g is None else g)\n"
    e = error(_SPLIT.format(call="split(2)", hooks=hook, use="q.sum()"))
    assert "can't replace a None gradient with a non-None value" in str(e)


def test_a_custom_functions_outputs_share_their_hooks_run() -> None:
    got = out(
        "import torch\n"
        "class Two(torch.autograd.Function):\n"
        "    @staticmethod\n    def forward(ctx, x):\n        return x * 2, x * 3\n"
        "    @staticmethod\n    def backward(ctx, g1, g2):\n        return g1 * 2 + g2 * 3\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "s, t = Two.apply(x)\n"
        "s.register_hook(lambda g: print('s', g))\n"
        "t.sum().backward()\n"
        "print(x.grad)\n"
    )
    assert got == "s None\ntensor([3., 3.])\n"


def test_decompositions_and_paired_statistics_share_their_hooks_run() -> None:
    got = out(
        "import torch\n"
        "m = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)\n"
        "q, r = torch.linalg.qr(m)\n"
        "q.register_hook(lambda g: print('q', g))\n"
        "r.sum().backward()\n"
        "u, s, vh = torch.linalg.svd(m)\n"
        "vh.register_hook(lambda g: print('vh', g))\n"
        "u.register_hook(lambda g: print('u', g))\n"
        "s.sum().backward()\n"
        "sd, mean = torch.std_mean(m, dim=1)\n"
        "sd.register_hook(lambda g: print('sd', g))\n"
        "mean.sum().backward()\n"
        "lo, hi = torch.aminmax(m)\n"
        "lo.register_hook(lambda g: print('lo', g))\n"
        "hi.backward()\n"
    )
    assert got == "q None\nvh None\nu None\nsd None\nlo None\n"
