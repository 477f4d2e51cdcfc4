"""`inputs` of backward() and autograd.grad() as PyTorch 2.13 takes them (explore29): a
module's parameters() generator, any iterable, a dict (grad() then answers a dict by its
keys), with PyTorch's words for an empty one, another mapping and an item that is not a
tensor. Gradients are checked against central finite differences in float64."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float64").output)


def _f(w: np.ndarray, b: np.ndarray, x: np.ndarray) -> float:
    return float(np.sum(np.tanh(x @ w.T + b) ** 2))


def _numeric(fn, a: np.ndarray, h: float = 1e-6) -> np.ndarray:
    g = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        up, down = a.copy(), a.copy()
        up[i] += h
        down[i] -= h
        g[i] = (fn(up) - fn(down)) / (2 * h)
    return g


W = [[0.3, -0.7, 0.2], [0.5, 0.1, -0.4]]
B = [0.05, -0.2]
X = [[1.0, 2.0, -1.0], [0.5, -0.3, 0.8], [-1.2, 0.4, 0.9], [0.0, 1.5, -0.6]]
SETUP = (
    "import torch\n"
    f"w = torch.tensor({W}, dtype=torch.float64, requires_grad=True)\n"
    f"b = torch.tensor({B}, dtype=torch.float64, requires_grad=True)\n"
    f"x = torch.tensor({X}, dtype=torch.float64, requires_grad=True)\n"
    "loss = torch.tanh(x @ w.T + b).pow(2).sum()\n"
)


def _values(text: str) -> list[np.ndarray]:
    return [np.array(eval(line)) for line in text.strip().splitlines()]  # noqa: S307 (our text)


def test_a_dict_of_inputs_gives_a_dict_of_gradients_by_its_keys() -> None:
    got = out(
        SETUP + "g = torch.autograd.grad(loss, {'bias': b, 'weight': w})\n"
        "print(type(g).__name__, list(g))\n"
        "print(g['weight'].tolist())\nprint(g['bias'].tolist())\n"
    )
    head, *rest = got.splitlines()
    assert head == "dict ['bias', 'weight']"
    gw, gb = _values("\n".join(rest))
    w, b, x = np.array(W), np.array(B), np.array(X)
    np.testing.assert_allclose(gw, _numeric(lambda v: _f(v, b, x), w), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(gb, _numeric(lambda v: _f(w, v, x), b), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize(
    "inputs",
    ["(t for t in [w, b])", "iter([w, b])", "{'a': w, 'c': b}", "(w, b)", "[w, b]"],
)
def test_backward_accumulates_into_exactly_the_given_tensors(inputs: str) -> None:
    got = out(
        SETUP + f"loss.backward(inputs={inputs})\n"
        "print(w.grad.tolist())\nprint(b.grad.tolist())\nprint(x.grad)\n"
    )
    *vals, xg = got.strip().splitlines()
    gw, gb = _values("\n".join(vals))
    w, b, x = np.array(W), np.array(B), np.array(X)
    np.testing.assert_allclose(gw, _numeric(lambda v: _f(v, b, x), w), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(gb, _numeric(lambda v: _f(w, v, x), b), rtol=1e-7, atol=1e-9)
    assert xg == "None"  # x requires grad but was not asked for


def test_module_parameters_generator_restricts_backward_to_that_module() -> None:
    got = out(
        "import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\n"
        "a = nn.Linear(2, 2)\nc = nn.Linear(2, 1)\n"
        "loss = c(a(torch.ones(3, 2))).sum()\n"
        "loss.backward(inputs=c.parameters())\n"
        "print(a.weight.grad, a.bias.grad, c.bias.grad)\n"
    )
    assert got == "None None tensor([3.])\n"


@pytest.mark.parametrize("api", ["backward", "grad"])
@pytest.mark.parametrize(
    ("bad", "words", "kind"),
    [
        ("[]", "`inputs` argument to `{api}()` cannot be empty.", "RuntimeError"),
        ("{}", "`inputs` argument to `{api}()` cannot be empty.", "RuntimeError"),
        ("()", "`inputs` argument to `{api}()` cannot be empty.", "RuntimeError"),
        ("[w, 1]", "all inputs have to be Tensors or GradientEdges, but got int", "RuntimeError"),
        ("'wb'", "all inputs have to be Tensors or GradientEdges, but got str", "RuntimeError"),
        (
            "collections.OrderedDict(a=w)",
            "`inputs` argument to `{api}()` must be a dict, not OrderedDict. Other Mapping "
            "types are not supported.",
            "TypeError",
        ),
        ("5", "'int' object is not iterable", "TypeError"),
    ],
)
def test_bad_inputs_raise_pytorchs_errors_a_program_can_catch(
    api: str, bad: str, words: str, kind: str
) -> None:
    call = (
        f"loss.backward(inputs={bad})" if api == "backward" else f"torch.autograd.grad(loss, {bad})"
    )
    got = out(
        "import collections\n" + SETUP + f"try:\n    {call}\nexcept {kind} as e:\n    print(e)\n"
    )
    assert got == words.format(api=api) + "\n"


def test_an_uncaught_bad_inputs_error_names_the_call() -> None:
    with pytest.raises(GradcliError, match="cannot be empty") as info:
        out(SETUP + "loss.backward(inputs=[])\n")
    assert info.value.span is not None and info.value.span.line == 6
