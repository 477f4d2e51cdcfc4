"""vmap's batched tensors (PyTorch's BatchedTensor) as gradcli tracks them while it runs the
function once per element: what depends on the mapped inputs is refused where PyTorch refuses a
BatchedTensor (`.item()`, `if`, `.numpy()`, writing it into an unbatched tensor, out_dims=None),
whatever the values are; what does not is free. Expected words are PyTorch 2.13's."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError, NotSupported
from gradcli.core.tensor import _GradMode
from gradcli.lang.program import parse

HEAD = "import torch\nfrom torch.func import vmap\nx = torch.ones(4, 3)\n"


def run(body: str) -> str:
    return "".join(parse(HEAD + body, "t.py").run(dtype="float32").output)


def error(body: str) -> str:
    with pytest.raises(GradcliError) as e:
        run(body)
    return str(e.value.message)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("vmap(lambda v: v.sum().item())(x)", "calling .item() on a Tensor"),
        ("vmap(lambda v: torch.tensor(int(v[0])))(x)", "calling .item() on a Tensor"),
        ("vmap(lambda v: v if v.sum() > 0 else -v)(x)", "data-dependent control flow"),
        ("vmap(lambda v: v if bool(v[0] == 1) else -v)(x)", "data-dependent control flow"),
        ("vmap(lambda v: torch.tensor(v.tolist()))(x)", "doesn't have storage"),
        ("vmap(lambda v: torch.from_numpy(v.numpy()))(x)", "doesn't have storage"),
        ("vmap(lambda v: torch.zeros(3).mul_(v))(x)", "inplace arithmetic(self"),
        ("vmap(lambda v: torch.zeros(3).copy_(v))(x)", "inplace arithmetic(self"),
        ("vmap(lambda v: torch.zeros(3).add_(v))(x)", "broadcast shape [4, 3]"),
        # equal values in every element are still batched (the rule is dependence, not value)
        ("vmap(lambda v: v.sum(), out_dims=None)(x)", "can not return a BatchedTensor"),
        # through a comparison (computed without a recorded operation) and a function call
        ("vmap(lambda v: 1 if torch.any(v > 0) else 0)(x)", "data-dependent control flow"),
        # nested: the inner element depends on the outer batch
        ("vmap(vmap(lambda s: s.item()))(x)", "calling .item() on a Tensor"),
    ],
)
def test_what_depends_on_the_mapped_input_is_refused_as_pytorch(body: str, words: str) -> None:
    assert words in error(body)
    assert not _GradMode.vmapped  # the levels are gone after the error


def test_what_does_not_depend_on_it_is_free() -> None:
    got = run(
        "c = torch.tensor(2.0)\n"
        "def f(v):\n"
        "    k = c.item() * torch.ones(1)\n"  # a captured tensor: not batched
        "    z = torch.zeros(3)\n"
        "    z.add_(1)\n"  # in place with nothing batched
        "    if z.sum() > 2:\n"  # control flow on an unbatched value
        "        z = z * 2\n"
        "    return v * k + z, torch.arange(3.0)\n"
        "a, b = vmap(f, out_dims=(0, None))(x)\n"
        "print(a[0], b)\n"
    )
    assert got == "tensor([4., 4., 4.]) tensor([0., 1., 2.])\n"


def test_a_function_prints_once_as_pytorch_runs_it_once() -> None:
    got = run(
        "def f(v):\n"
        "    print('shape', v.shape)\n"
        "    return v * 2\n"
        "y = vmap(f)(x)\nprint(y.shape)\n"
        "z = vmap(vmap(f))(x)\n"
    )
    assert got == "shape torch.Size([3])\ntorch.Size([4, 3])\nshape torch.Size([])\n"


def test_printing_a_batched_tensor_is_refused_in_plain_words() -> None:
    with pytest.raises(NotSupported) as e:
        run("vmap(lambda v: print(v) or v)(x)")
    assert "BatchedTensor" in e.value.message and "once per batch element" in e.value.message
    assert "outside" in (e.value.hint or "")
    # an unbatched tensor prints as usual
    assert run("c = torch.ones(1)\nvmap(lambda v: print(c) or v)(x)\n") == "tensor([1.])\n"


# Every in-place method PyTorch refuses (measured) with a batched tensor argument written into
# an unbatched tensor, called as programs call it: none may run (each element's value written
# in turn would leave the last one: a silent wrong answer), each refused in its own words.
_WRITES = {
    "add_": "state.add_(y)",
    "sub_": "state.sub_(y)",
    "mul_": "state.mul_(y)",
    "div_": "state.div_(y)",
    "true_divide_": "state.true_divide_(y)",
    "multiply_": "state.multiply_(y)",
    "subtract_": "state.subtract_(y)",
    "pow_": "state.pow_(y)",
    "fmod_": "state.fmod_(y)",
    "remainder_": "state.remainder_(y)",
    "atan2_": "state.atan2_(y)",
    "hypot_": "state.hypot_(y)",
    "copysign_": "state.copysign_(y)",
    "clamp_": "state.clamp_(min=y)",
    "clip_": "state.clip_(max=y)",
    "clamp_min_": "state.clamp_min_(y)",
    "addcmul_": "state.addcmul_(y, y)",
    "addcdiv_": "state.addcdiv_(y, y)",
    "lerp_": "state.lerp_(y, 0.5)",
    "masked_fill_": "state.masked_fill_(y > 1, 1.0)",
    "copy_": "state.copy_(y)",
    "fill_": "state.fill_(y.sum())",
    "index_add_": "state.index_add_(0, torch.tensor([0, 1, 2]), y)",
    "index_fill_": "state.index_fill_(0, torch.tensor([0]), y.sum())",
    "scatter_add_": "state.scatter_add_(0, torch.tensor([0, 1, 2]), y)",
    "logical_and_": "state.logical_and_(y > 1)",
    "eq_": "state.eq_(y)",
    "gt_": "state.gt_(y)",
    "greater_": "state.greater_(y)",
    "xlogy_": "state.xlogy_(y)",
}
_WORDS = {
    "shape": "doesn't match the broadcast shape [4, 3]",
    "named": "vmap: {name}(self, *extra_args) is not possible",
    "fallback": "vmap: aten::{aten}(self, *extra_args) is not possible",
    "arith": "vmap: inplace arithmetic(self, *extra_args) is not possible",
}


@pytest.mark.parametrize("name", sorted(_WRITES))
def test_a_batched_value_written_in_place_into_an_unbatched_tensor_is_refused(
    name: str,
) -> None:
    from gradcli.core.tensor import _VMAP_WRITE_ALIASES, _VMAP_WRITE_WORDS

    kind = _VMAP_WRITE_WORDS.get(name, "arith")
    words = _WORDS[kind].format(name=name, aten=_VMAP_WRITE_ALIASES.get(name, name))
    with pytest.raises(GradcliError) as e:
        run(f"state = torch.zeros(3)\nvmap(lambda y: {_WRITES[name]})(x + 0.5)\n")
    assert words in e.value.message
    # into a batched tensor (a clone of the sample) it runs
    run(f"vmap(lambda y: y.clone().{_WRITES[name].partition('.')[2]})(x + 0.5)\n")
