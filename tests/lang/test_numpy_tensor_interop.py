"""A tensor meeting NumPy as PyTorch 2.13 with NumPy 2 lets them meet: `t op array` is NumPy's
operation on `t.numpy()` made a tensor again (NumPy's dtypes: a 0-d float64 array makes a
float32 tensor's result float64), `array op t` is Python's TypeError (but `array / t`, which
is `t.reciprocal() * array`), `==` is the tensor's own, `!=` identity, an ordering a TypeError;
NumPy's ufuncs on a tensor compute NumPy's values (not torch's kernels), its reductions call
the tensor's method with keywords PyTorch refuses; and the legacy constructors take no
`requires_grad`. The expected values are NumPy's own, computed here."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.lang.program import parse
from tests.helpers.hostnp import HOST as H

TENSORS = {
    "f32": ("torch.tensor([0.1, 2.5, -1.75])", np.array([0.1, 2.5, -1.75], dtype=np.float32)),
    "f64": (
        "torch.tensor([0.1, 2.5, -1.75], dtype=torch.float64)",
        np.array([0.1, 2.5, -1.75]),
    ),
    "i64": ("torch.tensor([3, 7, -2])", np.array([3, 7, -2])),
}
ARRAYS = {
    "f64_0d": ("np.array(0.3)", np.array(0.3)),
    "f32_1d": (
        "np.array([0.7, 1.3, 2.9], dtype=np.float32)",
        np.array([0.7, 1.3, 2.9], np.float32),
    ),
    "i64_1d": ("np.array([2, 3, 5])", np.array([2, 3, 5])),
}
OPS = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.true_divide, "**": np.power}
OPS.update({"//": np.floor_divide, "%": np.remainder})


def run(body: str) -> list[str]:
    text = "import numpy as np\nimport torch\n" + body
    return "".join(parse(text, "t.py").run(dtype="float32").output).splitlines()


def shown(r: np.ndarray) -> tuple[str, str]:
    """What the program prints of a tensor NumPy made: its dtype and exact values."""
    arr = np.asarray(r)
    name = {"bool": "uint8"}.get(arr.dtype.name, arr.dtype.name)
    return f"torch.{name}", repr(arr.astype(name).tolist())


@pytest.mark.parametrize("tname", TENSORS)
@pytest.mark.parametrize("aname", ARRAYS)
@pytest.mark.parametrize("op", OPS)
def test_tensor_op_array_is_numpys_operation(tname: str, aname: str, op: str) -> None:
    tsrc, tval = TENSORS[tname]
    asrc, aval = ARRAYS[aname]
    with np.errstate(all="ignore"):  # (the host's NumPy: tests/helpers/hostnp.py)
        want = H.power(tval, aval) if op == "**" else OPS[op](tval, aval)
    out = run(
        f"r = {tsrc} {op} {asrc}\nprint(type(r).__name__, r.dtype)\nprint(repr(r.tolist()))\n"
    )
    dtype, values = shown(want)
    assert out == [f"Tensor {dtype}", values]


def test_the_rule_is_numpys_promotion_not_torchs() -> None:
    # torch's own rule would keep float32 with a 0-d array (a "wrapped" operand): the values
    # differ in the low bits, so the test above can tell the two rules apart
    t = np.array([0.1, 2.5, -1.75], dtype=np.float32)
    numpy_rule = t * np.array(0.3)
    torch_rule = (t * np.float32(0.3)).astype(np.float64)
    assert numpy_rule.dtype == np.float64 and not np.array_equal(numpy_rule, torch_rule)
    assert run("print(repr((torch.tensor([0.1, 2.5, -1.75]) * np.array(0.3)).tolist()))") == [
        repr(numpy_rule.tolist())
    ]


def test_array_divided_by_tensor_is_reciprocal_times_array() -> None:
    t = np.array([7.0, 3.0, 0.1], dtype=np.float32)
    a = np.array([3.0, 3.0, 3.0])
    want = (np.float32(1) / t) * a  # not a / t: another rounding
    assert not np.array_equal(want, a / t)
    out = run(
        "r = np.array([3.0, 3.0, 3.0]) / torch.tensor([7.0, 3.0, 0.1])\nprint(repr(r.tolist()))"
    )
    assert out == [repr(want.tolist())]


REFUSED = {
    "+": "Concatenation operation is not implemented for NumPy arrays, use np.concatenate() "
    "instead. Please do not rely on this error; it may not be given on all Python "
    "implementations.",
    "-": "unsupported operand type(s) for -: 'numpy.ndarray' and 'Tensor'",
    "*": "unsupported operand type(s) for *: 'numpy.ndarray' and 'Tensor'",
    "**": "unsupported operand type(s) for ** or pow(): 'numpy.ndarray' and 'Tensor'",
    "//": "unsupported operand type(s) for //: 'numpy.ndarray' and 'Tensor'",
    "@": "unsupported operand type(s) for @: 'numpy.ndarray' and 'Tensor'",
    "&": "unsupported operand type(s) for &: 'numpy.ndarray' and 'Tensor'",
}


@pytest.mark.parametrize("op", REFUSED)
def test_array_op_tensor_is_pythons_type_error(op: str) -> None:
    body = (
        f"try:\n    np.array([1, 2]) {op} torch.tensor([3, 4])\n"
        "except TypeError as e:\n    print(e)\n"
    )
    assert run(body) == [REFUSED[op]]


def test_comparisons() -> None:
    body = (
        "t = torch.tensor([0.1, 2.0])\n"
        "print(t == np.array([0.1, 2.0]), t == np.array(0.1), np.array([0.1, 2.0]) == t)\n"
        "print(t != np.array([0.1, 2.0]))\n"
        "try:\n    t > np.zeros(2)\nexcept TypeError as e:\n    print(e)\n"
        "try:\n    np.zeros(2) <= t\nexcept TypeError as e:\n    print(e)\n"
    )
    assert run(body) == [
        # a 0-d array compares as a 0-d tensor (float32 here), a 1-d float64 one promotes
        "tensor([False,  True]) tensor([ True, False]) tensor([False,  True])",
        "True",
        "'>' not supported between instances of 'Tensor' and 'numpy.ndarray'",
        "'<=' not supported between instances of 'numpy.ndarray' and 'Tensor'",
    ]


def test_requires_grad_and_augmented_assignment() -> None:
    body = (
        "w = torch.ones(2, requires_grad=True)\n"
        "try:\n    w + np.ones(2)\nexcept RuntimeError as e:\n    print(e)\n"
        "with torch.no_grad():\n    print((w + np.ones(2)).dtype)\n"
        "x = torch.tensor([1.0, 2.0])\ny = x\nx += np.array([0.5, 0.5])\n"
        "print(x.dtype, x is y, y)\n"
        "a = np.ones(2)\ntry:\n    a *= torch.ones(2)\nexcept TypeError as e:\n    print(e)\n"
    )
    assert run(body) == [
        "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.",
        "torch.float64",
        "torch.float64 False tensor([1., 2.])",
        "unsupported operand type(s) for *=: 'numpy.ndarray' and 'Tensor'",
    ]


def test_matmul_with_a_number_is_pythons_type_error() -> None:
    body = (
        "x = torch.ones(2)\n"
        "for v in (2.0, 3, np.float32(2)):\n"
        "    try:\n        x @ v\n    except TypeError as e:\n        print(e)\n"
        "f = lambda: 2.0 @ x\ntry:\n    f()\nexcept TypeError as e:\n    print(e)\n"
    )
    assert run(body) == [
        "unsupported operand type(s) for @: 'Tensor' and 'float'",
        "unsupported operand type(s) for @: 'Tensor' and 'int'",
        "unsupported operand type(s) for @: 'Tensor' and 'numpy.float32'",
        "unsupported operand type(s) for @: 'float' and 'Tensor'",
    ]


UFUNCS = ["exp", "log", "sqrt", "tanh", "sin", "cos", "log1p", "expm1", "arctan", "square"]


@pytest.mark.parametrize("name", UFUNCS)
def test_numpy_ufunc_on_a_tensor_is_numpys_values(name: str) -> None:
    x = np.linspace(0.05, 3.0, 41, dtype=np.float32)
    with np.errstate(all="ignore"):
        want = getattr(H, name)(x)
    body = (
        f"t = torch.tensor({x.tolist()})\n"
        f"r = np.{name}(t)\nprint(type(r).__name__, r.dtype)\nprint(repr(r.tolist()))\n"
    )
    assert run(body) == ["Tensor torch.float32", repr(want.tolist())]


def test_numpy_comparison_ufunc_and_dot_and_methods() -> None:
    body = (
        "t = torch.tensor([[0.25, -1.5], [2.0, 3.0]])\n"
        "print(np.isnan(t).dtype, np.greater(t, 0.5) if False else np.maximum(t, 0).dtype)\n"
        "print(type(np.dot(t[0], t[1])).__name__, np.argmax(t), np.cumsum(t[0]).dtype)\n"
        "print(type(np.sort(t[0])).__name__, np.squeeze(t[None]).shape)\n"
    )
    assert run(body) == [
        "torch.uint8 torch.float32",
        "float32 tensor(3) torch.float32",
        "ndarray torch.Size([2, 2])",
    ]


REDUCTIONS = {
    "np.sum(t)": "sum() got an unexpected keyword argument 'axis'",
    "np.mean(t, axis=0)": "mean() got an unexpected keyword argument 'axis'",
    "np.max(t)": "max(): argument 'dim' must be int, not NoneType",
    "np.min(t, 1)": "min() got an unexpected keyword argument 'axis'",
    "np.prod(t)": "prod(): argument 'dim' must be int, not NoneType",
    "np.sum(t, dtype=np.float64)": "sum(): argument 'dtype' must be torch.dtype, not type",
}


@pytest.mark.parametrize("call", REDUCTIONS)
def test_numpy_reduction_of_a_tensor_is_pytorchs_parser_error(call: str) -> None:
    body = f"t = torch.ones(2, 2)\ntry:\n    {call}\nexcept TypeError as e:\n    print(e)\n"
    assert run(body) == [REDUCTIONS[call]]


def test_numpy_std_of_a_tensor_lists_the_overloads() -> None:
    body = (
        "t = torch.ones(2, 2)\ntry:\n    np.std(t, axis=0)\nexcept TypeError as e:\n    print(e)\n"
    )
    assert run(body)[0] == (
        "std() received an invalid combination of arguments - got (ddof=int, dtype=NoneType, "
        "out=NoneType, axis=int, ), but expected one of:"
    )


LEGACY = [
    "torch.Tensor([1.0], requires_grad=True)",
    "torch.FloatTensor([1.0], requires_grad=True)",
    "torch.DoubleTensor(2, requires_grad=True)",
    "torch.LongTensor([1], requires_grad=False)",
    "torch.Tensor([1.0], dtype=torch.float64)",
]


@pytest.mark.parametrize("call", LEGACY)
def test_legacy_constructors_refuse_requires_grad(call: str) -> None:
    body = f"try:\n    {call}\nexcept TypeError as e:\n    print(str(e).splitlines()[0])\n"
    kw = "requires_grad" if "requires_grad" in call else "dtype"
    first = run(body)[0]
    assert first.startswith("new() received an invalid combination of arguments - got (")
    assert f"{kw}=" in first


def test_legacy_constructors_keep_sizes_and_device() -> None:
    body = (
        "print(torch.Tensor(torch.Size([3, 1])).shape, torch.LongTensor(torch.Size([2])).shape)\n"
        "print(torch.Tensor([1.0, 2.0], device='cpu'))\n"
        "try:\n    torch.Tensor(2.5)\nexcept TypeError as e:\n    print(e)\n"
    )
    assert run(body) == [
        "torch.Size([3, 1]) torch.Size([2])",
        "tensor([1., 2.])",
        "new(): data must be a sequence (got float)",
    ]


def test_requires_grad_tensor_in_a_list_given_to_numpy() -> None:
    body = (
        "print(np.mean([torch.tensor(1.0), torch.tensor(2.0)]).dtype)\n"
        "try:\n    np.array([torch.ones(2, requires_grad=True)])\nexcept RuntimeError as e:\n"
        "    print(e)\n"
    )
    assert run(body) == [
        "float32",
        "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.",
    ]


def test_asarray_of_a_tensor_shares_its_memory_and_array_copies() -> None:
    body = (
        "t = torch.zeros(3)\nc = np.asarray(t)\nc[0] = 9\nd = np.array(t)\nd[1] = 7\n"
        "e = np.asarray(t, dtype=np.float64)\ne[2] = 5\nprint(t)\n"
        "try:\n    torch.tensor([np.array(1.5), np.array(2.5)])\nexcept TypeError as e:\n"
        "    print(e)\n"
    )
    assert run(body) == ["tensor([9., 0., 0.])", "len() of unsized object"]
