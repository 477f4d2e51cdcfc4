"""The tensor basics tutorials use around their gradients: indexing's errors and grad_fn names,
`x[k] = v`'s value shapes, `out=`, float aranges bit for bit, dtype promotion of where / cat /
stack, the matmul family's errors, and surface/basics.py's functions (their values, their
gradients against float64 central differences, what misuse says). Expected texts and digests
were recorded from PyTorch 2.13."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.tensor import Settings, Tensor
from gradcli.lang.program import parse
from gradcli.surface import basics as BA
from gradcli.surface import constructors as K
from gradcli.surface import indexing as I
from gradcli.surface import names as N
from gradcli.surface import rearrange as RE
from gradcli.surface import scatter as SC
from gradcli.surface import statistics as ST

T = N.FUNCTIONS


@pytest.fixture(autouse=True)
def _settings_restored() -> Any:
    """PyTorch's default dtype (float32) here, as `gradcli run` has it; the process's own
    restored after (later tests expect theirs)."""
    saved = (Settings.default_dtype, Settings.draw_dtype, Settings.seed)
    Settings.default_dtype = np.dtype(np.float32)
    yield
    Settings.default_dtype, Settings.draw_dtype, Settings.seed = saved


def _run(text: str) -> str:
    """What a program prints under gradcli (as `gradcli run` runs it, in float32)."""
    return "".join(parse(text).run(dtype="float32").output)


def _error(fn: Callable[[], Any]) -> tuple[str | None, str]:
    with pytest.raises(GradcliError) as info:
        fn()
    return info.value.python_class, info.value.message


# --- indexing ----------------------------------------------------------------------------------

X = np.arange(12).reshape(3, 4)
X3 = np.arange(24).reshape(2, 3, 4)

INDEX_ERRORS = [
    (X, (None, 5), "IndexError", "index 5 is out of bounds for dimension 1 with size 3"),
    (X, (Ellipsis, 7), "IndexError", "index 7 is out of bounds for dimension 1 with size 4"),
    (X, (1, -5), "IndexError", "index -5 is out of bounds for dimension 1 with size 4"),
    (X, -4, "IndexError", "index -4 is out of bounds for dimension 0 with size 3"),
    (X, [0, 3], "IndexError", "index 3 is out of bounds for dimension 0 with size 3"),
    (X, (slice(None), [4]), "IndexError", "index 4 is out of bounds for dimension 0 with size 4"),
    (X, (0, 0, 0), "IndexError", "too many indices for tensor of dimension 2"),
    (X, (0, Ellipsis, 0, 0), "IndexError", "too many indices for tensor of dimension 2"),
    (
        X,
        ([0, 1], [0, 1, 2]),
        "IndexError",
        "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]",
    ),
    (
        X,
        (slice(None), np.array([True, False])),
        "IndexError",
        "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor "
        "[3, 4] at index 1",
    ),
    (X, slice(None, None, -1), "ValueError", "step must be greater than zero"),
    (X, slice(1, 2, 0), "ValueError", "slice step cannot be zero"),
    (
        X3,
        ([1], slice(None), [9]),
        "IndexError",
        "index 9 is out of bounds for dimension 1 with size 4",
    ),
    (X3, (None, 0, 5), "IndexError", "index 5 is out of bounds for dimension 2 with size 3"),
    (X3, (Ellipsis, None, 7), "IndexError", "index 7 is out of bounds for dimension 2 with size 4"),
    (
        np.array(5),
        0,
        "IndexError",
        "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
        "in C++ to convert a 0-dim tensor to a number",
    ),
]


def _key(k: Any) -> Any:
    if isinstance(k, np.ndarray):
        return Tensor(k)
    if isinstance(k, tuple):
        return tuple(_key(v) for v in k)
    return k


@pytest.mark.parametrize("data,key,cls,message", INDEX_ERRORS)
def test_index_errors_are_pytorchs(data: np.ndarray, key: Any, cls: str, message: str) -> None:
    x = Tensor(data)
    assert _error(lambda: I.getitem(x, _key(key))) == (cls, message)


def test_float_tensor_index_refused() -> None:
    x = Tensor(X)
    assert _error(lambda: I.getitem(x, Tensor(np.array([1.0])))) == (
        "IndexError",
        "tensors used as indices must be long, int, byte or bool tensors",
    )


GRAD_FNS = [
    ((None,), "UnsqueezeBackward0"),
    ((0, None), "UnsqueezeBackward0"),
    ((None, 0), "SelectBackward0"),
    (slice(None), "SliceBackward0"),
    (Ellipsis, "AliasBackward0"),
    ((slice(None), slice(None), slice(None)), "AliasBackward0"),
    ((slice(None), 0, slice(None)), "SelectBackward0"),
    ((0, slice(None), slice(1, 3)), "SliceBackward0"),
    ((slice(1, None), slice(None), None), "UnsqueezeBackward0"),
    ([0], "IndexBackward0"),
]


@pytest.mark.parametrize("key,label", GRAD_FNS)
def test_grad_fn_of_basic_indexing(key: Any, label: str) -> None:
    x = Tensor(np.arange(24.0).reshape(2, 3, 4), requires_grad=True)
    assert I.getitem(x, key).node.label == label


SETITEM_ERRORS = [
    (
        "x[0] = torch.ones(2)",
        "The expanded size of the tensor (3) must match the existing size (2) at non-singleton "
        "dimension 0.  Target sizes: [3].  Tensor sizes: [2]",
    ),
    (
        "x[0] = torch.ones(2, 3)",
        "expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be "
        "greater or equal to the number of dimensions in the tensor (2)",
    ),
    (
        "x[x == 0] = torch.ones(2)",
        "shape mismatch: value tensor of shape [2] cannot be broadcast to indexing result of "
        "shape [6]",
    ),
    (
        "x[:, 1:] = torch.ones(3, 1)",
        "The expanded size of the tensor (2) must match the existing size (3) at non-singleton "
        "dimension 0.  Target sizes: [2, 2].  Tensor sizes: [3, 1]",
    ),
]


@pytest.mark.parametrize("grad", [False, True])
@pytest.mark.parametrize("statement,message", SETITEM_ERRORS)
def test_setitem_value_shapes(statement: str, message: str, grad: bool) -> None:
    make = "torch.zeros(2, 3, requires_grad=True).clone()" if grad else "torch.zeros(2, 3)"
    text = f"import torch\nx = {make}\ntry:\n    {statement}\n"
    text += "except RuntimeError as e:\n    print(e)\n"
    assert _run(text) == message + "\n"


# ATen's inferExpandGeometry walks the sizes from the last one: the error names the last
# mismatching dimension (PyTorch 2.13's text, recorded)
EXPAND_ERRORS = [
    (
        "torch.zeros(3, 4).expand(5, 6)",
        "The expanded size of the tensor (6) must match the existing size (4) at non-singleton "
        "dimension 1.  Target sizes: [5, 6].  Tensor sizes: [3, 4]",
    ),
    (
        "torch.zeros(3, 4).expand(2, 5, 6)",
        "The expanded size of the tensor (6) must match the existing size (4) at non-singleton "
        "dimension 2.  Target sizes: [2, 5, 6].  Tensor sizes: [3, 4]",
    ),
    (
        "torch.zeros(3, 1, 4).expand(5, -1, 4)",
        "The expanded size of the tensor (5) must match the existing size (3) at non-singleton "
        "dimension 0.  Target sizes: [5, -1, 4].  Tensor sizes: [3, 1, 4]",
    ),
    (
        "torch.zeros(3, 4).expand(3, -2)",
        "The expanded size of the tensor (-2) must match the existing size (4) at non-singleton "
        "dimension 1.  Target sizes: [3, -2].  Tensor sizes: [3, 4]",
    ),
    (
        "torch.zeros(3, 4).expand(-1, 3, 4)",
        "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0",
    ),
    ("torch.zeros(3, 1, 4).expand(3, -2, 4)", "numel: integer multiplication overflow"),
    (
        "torch.broadcast_to(torch.zeros(3, 4), (5, 6))",
        "The expanded size of the tensor (6) must match the existing size (4) at non-singleton "
        "dimension 1.  Target sizes: [5, 6].  Tensor sizes: [3, 4]",
    ),
    (
        "torch.zeros(3, 4).expand_as(torch.zeros(2, 5))",
        "The expanded size of the tensor (5) must match the existing size (4) at non-singleton "
        "dimension 1.  Target sizes: [2, 5].  Tensor sizes: [3, 4]",
    ),
]


@pytest.mark.parametrize("expression,message", EXPAND_ERRORS)
def test_expand_errors_name_the_last_mismatch(expression: str, message: str) -> None:
    text = f"import torch\ntry:\n    {expression}\nexcept RuntimeError as e:\n    print(e)\n"
    assert _run(text) == message + "\n"


def test_expand_keeps_sizes_and_minus_one() -> None:
    out = _run(
        "import torch\nx = torch.zeros(3, 1, 4)\n"
        "print(x.expand(2, 3, -1, 4).shape, x.expand(3, 5, -1).shape)\n"
    )
    assert out == "torch.Size([2, 3, 1, 4]) torch.Size([3, 5, 4])\n"


def test_setitem_drops_leading_ones() -> None:
    out = _run(
        "import torch\nx = torch.zeros(2, 3)\nx[0] = torch.ones(1, 1, 3)\nprint(x[0].tolist())\n"
    )
    assert out == "[1.0, 1.0, 1.0]\n"


# --- constructors ------------------------------------------------------------------------------

ARANGES = [
    ((0, 1, 0.1, np.float32), "c19f968c36d3f235", 10),
    ((0, 100, 0.3, np.float32), "65cca9e1684f03a0", 334),
    ((-3.7, 50.2, 0.013, np.float32), "23afe2a9ba4607f3", 4147),
    ((5, -5, -0.37, np.float32), "83815c6fb81f0faa", 28),
    ((0, 100, 0.3, np.float64), "f4b48b34bc7aaec6", 334),
    ((-3.7, 50.2, 0.013, np.float64), "5ca365be9e11ed9a", 4147),
    ((0.1, 1000, 0.77, np.float64), "a38b84d2b38b2c02", 1299),
    ((0, 5, 0.0123, np.float16), "110f417d787aa7f4", 407),
]


@pytest.mark.parametrize("args,digest,n", ARANGES)
def test_float_arange_bit_for_bit(args: tuple, digest: str, n: int) -> None:
    s, e, st, dt = args
    a = K.arange(s, e, st, dtype=np.dtype(dt)).data
    assert len(a) == n
    assert hashlib.sha256(a.tobytes()).hexdigest()[:16] == digest


def test_logspace_float64_bit_for_bit() -> None:
    a = K.logspace(0.3, 7.7, 100, dtype=np.dtype(np.float64)).data
    assert hashlib.sha256(a.tobytes()).hexdigest()[:16] == "7012b1f9bb1e4c20"


def test_linspace_and_logspace_take_zero_dim_tensor_endpoints() -> None:
    # torch.logspace(torch.log10(smax), torch.log10(smin), steps=n): a 0-d tensor is its value
    # (the result keeps the default dtype, as PyTorch's: not the tensor's float64).
    t0 = Tensor(np.array(0.30103, dtype=np.float64))
    t1 = Tensor(np.array(-2.69897, dtype=np.float32))
    want = K.logspace(float(np.float64(0.30103)), float(np.float32(-2.69897)), 9).data
    got = K.logspace(t0, t1, 9)
    assert got.data.dtype == np.float32 and got.data.tobytes() == want.tobytes()
    lin = K.linspace(Tensor(np.array(1.5)), 3, 4, dtype=np.dtype(np.float64))
    assert lin.data.tolist() == [1.5, 2.0, 2.5, 3.0]
    with pytest.raises(GradcliError, match="only supports 0-dimensional start and end tensors"):
        K.linspace(Tensor(np.ones(2)), 3, 4)
    with pytest.raises(GradcliError, match="invalid combination of arguments"):
        K.logspace(0, "a", 3)


@pytest.mark.parametrize(
    "args,message",
    [
        ((5, 0), "upper bound and lower bound inconsistent with step sign"),
        ((0, 5, -1), "upper bound and lower bound inconsistent with step sign"),
        ((0, float("inf")), "unsupported range: 0 -> inf"),
    ],
)
def test_arange_refusals(args: tuple, message: str) -> None:
    assert _error(lambda: K.arange(*args))[1] == message


def test_eye_negative() -> None:
    assert _error(lambda: K.eye(-2))[1] == "n must be greater or equal to 0, got -2"


@pytest.mark.parametrize(
    "data,cls,message",
    [
        ([[1.0], []], "ValueError", "expected sequence of length 1 at dim 1 (got 0)"),
        ([[[1, 2]], [[3]]], "ValueError", "expected sequence of length 2 at dim 2 (got 1)"),
        ([1, [2]], "TypeError", "'list' object cannot be interpreted as an integer"),
        ([1.0, [2.0]], "TypeError", "must be real number, not list"),
        ([[1], 2], "TypeError", "not a sequence"),
        ("abc", "TypeError", "new(): invalid data type 'str'"),
        (["a"], "ValueError", "too many dimensions 'str'"),
    ],
)
def test_tensor_data_errors(data: Any, cls: str, message: str) -> None:
    assert _error(lambda: K.tensor(data)) == (cls, message)


# --- promotion and the matmul family -----------------------------------------------------------


def test_where_of_numbers_and_mixed_dtypes() -> None:
    c = Tensor(np.array([True, False]))
    assert T["where"](c, 1, -1).dtype == np.int64
    assert T["where"](c, 1.0, 0).dtype == Settings.default_dtype
    r = T["where"](c, Tensor(np.array([1, 2])), Tensor(np.array([0.5, 0.5], np.float32)))
    assert r.dtype == np.float32 and r.data.tolist() == [1.0, 0.5]
    found = T["where"](Tensor(np.array([[True, False], [False, True]])))
    assert [t.data.tolist() for t in found] == [[0, 1], [0, 1]]


def test_cat_and_stack_promote() -> None:
    a, b = Tensor(np.array([1, 2])), Tensor(np.array([0.5], np.float32))
    assert T["cat"]([a, b]).dtype == np.float32
    assert T["stack"]([Tensor(np.array([1])), b]).dtype == np.float32


@pytest.mark.parametrize(
    "shapes,message",
    [
        (
            [(2, 2), (1, 3)],
            "Sizes of tensors must match except in dimension 0. Expected size 2 but got size 3 "
            "for tensor number 1 in the list.",
        ),
        ([(2,), (2, 2)], "Tensors must have same number of dimensions: got 1 and 2"),
        ([(2, 2), ()], "zero-dimensional tensor (at position 1) cannot be concatenated"),
    ],
)
def test_cat_errors(shapes: list, message: str) -> None:
    ts = [Tensor(np.ones(s)) for s in shapes]
    assert _error(lambda: T["cat"](ts))[1] == message


def test_cat_skips_legacy_empty() -> None:
    r = T["cat"]([Tensor(np.zeros(0)), Tensor(np.ones((2, 2)))])
    assert r.shape == (2, 2)


MATMUL_ERRORS = [
    (
        (3,),
        (4,),
        "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of "
        "elements, but got 3 and 4 elements respectively",
    ),
    ((2, 3), (4,), "size mismatch, got input (2), mat (2x3), vec (4)"),
    ((2, 3, 4), (5,), "size mismatch, got input (6), mat (6x4), vec (5)"),
    ((2, 3, 4), (5, 2), "mat1 and mat2 shapes cannot be multiplied (6x4 and 5x2)"),
    (
        (5, 2, 3),
        (5, 4, 2),
        "Expected size for first two dimensions of batch2 tensor to be: [5, 3] but got: [5, 4].",
    ),
    (
        (5,),
        (2, 3, 4),
        "Expected size for first two dimensions of batch2 tensor to be: [2, 5] but got: [2, 3].",
    ),
    (
        (2, 3, 4),
        (3, 4, 5),
        "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0",
    ),
]


@pytest.mark.parametrize("a,b,message", MATMUL_ERRORS)
def test_matmul_errors(a: tuple, b: tuple, message: str) -> None:
    x, y = Tensor(np.ones(a, np.float32)), Tensor(np.ones(b, np.float32))
    assert _error(lambda: T["matmul"](x, y))[1] == message


@pytest.mark.parametrize(
    "a,b,message",
    [
        ((2, 2), (2, 2), "expected m1 and m2 to have the same dtype, but got: float != long int"),
        ((2,), (2,), "dot : expected both vectors to have same dtype, but found Float and Long"),
        (
            (2, 2),
            (2,),
            "addmv input tensors must have the same dtype, but got Long, Float, and Long",
        ),
    ],
)
def test_matmul_refuses_mixed_dtypes(a: tuple, b: tuple, message: str) -> None:
    x, y = Tensor(np.ones(a, np.float32)), Tensor(np.ones(b, np.int64))
    assert _error(lambda: T["matmul"](x, y))[1] == message


# The batched products check as ATen's kernels do, in their order (recorded from PyTorch 2.13):
# bmm's meta names batch and inner size in one message; baddbmm expands its input to
# (batch1.size(0), batch1.size(1), batch2.size(2)) before anything else, then compares the
# input's dtype with batch1's; addbmm expands to (batch1.size(1), batch2.size(2)) first and
# adds each product by addmm_ (its dtype words).
F32, F64, I32 = np.float32, np.float64, np.int32
BATCHED_PRODUCT_ERRORS = [
    (
        "bmm",
        None,
        ((2, 3, 4), F32),
        ((3, 4, 5), F32),
        None,
        "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [3, 4].",
    ),
    (
        "bmm",
        None,
        ((2, 3, 4), F32),
        ((1, 5, 5), F32),
        None,
        "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [1, 5].",
    ),
    (
        "baddbmm",
        ((2, 3, 5), F64),
        ((2, 3, 4), F32),
        ((2, 4, 5), F32),
        None,
        "Input dtypes must be the same, got: input double, batch1: float, batch2: float",
    ),
    (
        "baddbmm",
        ((5,), np.float16),
        ((2, 3, 4), F32),
        ((2, 4, 5), F32),
        None,
        "Input dtypes must be the same, got: input c10::Half, batch1: float, batch2: float",
    ),
    (
        "baddbmm",
        ((2, 3, 5), F32),
        ((3, 4), F32),
        ((2, 4, 5), F32),
        None,
        "The expanded size of the tensor (4) must match the existing size (3) at non-singleton "
        "dimension 1.  Target sizes: [3, 4, 5].  Tensor sizes: [2, 3, 5]",
    ),
    (
        "baddbmm",
        ((3, 5), F32),
        ((4,), F32),
        ((2, 4, 5), F32),
        "IndexError",
        "Dimension out of range (expected to be in range of [-1, 0], but got 1)",
    ),
    (
        "baddbmm",
        ((3, 5), F32),
        ((), F32),
        ((2, 4, 5), F32),
        "IndexError",
        "Dimension specified as 0 but tensor has no dimensions",
    ),
    (
        "baddbmm",
        ((3, 5), F32),
        ((2, 3, 4), F32),
        ((4, 5), F32),
        "IndexError",
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    (
        "baddbmm",
        ((3, 5), F32),
        ((2, 3, 4), F32),
        ((2, 5, 5), F32),
        None,
        "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 5].",
    ),
    (
        "addbmm",
        ((2, 3, 5), F32),
        ((2, 3, 4), F32),
        ((2, 4, 5), F32),
        None,
        "expand(torch.FloatTensor{[2, 3, 5]}, size=[3, 5]): the number of sizes provided (2) must "
        "be greater or equal to the number of dimensions in the tensor (3)",
    ),
    (
        "addbmm",
        ((4, 5), F32),
        ((2, 3, 4), F32),
        ((2, 4, 5), F32),
        None,
        "The expanded size of the tensor (3) must match the existing size (4) at non-singleton "
        "dimension 0.  Target sizes: [3, 5].  Tensor sizes: [4, 5]",
    ),
    (
        "addbmm",
        ((3, 5), F32),
        ((4,), F32),
        ((2, 4, 5), F32),
        "IndexError",
        "Dimension out of range (expected to be in range of [-1, 0], but got 1)",
    ),
    (
        "addbmm",
        ((3, 5), I32),
        ((2, 3, 4), np.int64),
        ((2, 4, 5), np.int64),
        None,
        "self and mat2 must have the same dtype, but got Int and Long",
    ),
    (
        "addbmm",
        ((3, 5), np.bool_),
        ((2, 3, 4), F32),
        ((2, 4, 5), F32),
        None,
        "self and mat2 must have the same dtype, but got Bool and Float",
    ),
    (
        "addbmm",
        ((3, 5), F32),
        ((3, 3, 4), F32),
        ((2, 4, 5), F32),
        None,
        "batch1 and batch2 must have same number of batches, got 3 and 2",
    ),
]


@pytest.mark.parametrize("name,inp,b1,b2,python_class,message", BATCHED_PRODUCT_ERRORS)
def test_batched_product_errors(
    name: str, inp: Any, b1: tuple, b2: tuple, python_class: str | None, message: str
) -> None:
    args = [Tensor(np.ones(shape, dt)) for shape, dt in ([inp] if inp else []) + [b1, b2]]
    got_class, got = _error(lambda: T[name](*args))
    assert got == message
    if python_class is not None:
        assert got_class == python_class


def test_products_refuse_mixed_dtypes_in_atens_words() -> None:
    """addmv ran with an input of another dtype (promoting) where PyTorch stops; inner, multi_dot,
    bilinear and masked_scatter stop with their own checks, in ATen's order (recorded from
    PyTorch 2.13)."""
    out = _run(
        "import torch\nimport torch.nn.functional as F\n"
        "f, d = torch.ones(2, 3), torch.ones(2, 3, dtype=torch.float64)\n"
        "cases = [\n"
        "    lambda: torch.addmv(torch.ones(2, dtype=torch.float64), f, torch.ones(3)),\n"
        "    lambda: torch.addmv(torch.ones(2), f, torch.ones(3, dtype=torch.int64)),\n"
        "    lambda: torch.addmv(torch.ones(4, dtype=torch.float64), f, torch.ones(3)),\n"
        "    lambda: torch.inner(f, d[0]),\n"
        "    lambda: torch.linalg.multi_dot([f, d.T]),\n"
        "    lambda: torch.linalg.multi_dot([f, torch.ones(4, 2), d[:, :2]]),\n"
        "    lambda: torch.linalg.multi_dot([f, torch.ones(4, 2), torch.ones(1, 2, 2), f]),\n"
        "    lambda: F.bilinear(f, d[0], torch.ones(4, 3, 3, dtype=torch.float64)),\n"
        "    lambda: F.bilinear(f, f, torch.ones(4, 3, 3), torch.ones(4, dtype=torch.half)),\n"
        "    lambda: f.masked_scatter(torch.ones(2, 3), d),\n"
        "]\n"
        "for c in cases:\n"
        "    try:\n        c()\n    except RuntimeError as e:\n        print(e)\n"
    )
    assert out.splitlines() == [
        "addmv input tensors must have the same dtype, but got Double, Float, and Float",
        "addmv input tensors must have the same dtype, but got Float, Float, and Long",
        "size mismatch, got input (4), mat (2x3), vec (3)",
        "both inputs should have same dtype",
        "multi_dot(): all tensors must have be the same dtype but tensor 0 is float and tensor "
        "1 double",
        "multi_dot(): tensors 0 and 1 with shapes [2, 3] and [4, 2] cannot be multiplied",
        "multi_dot(): tensor 2 must be 2D but got 3D",
        "All tensors must have the same dtype, got input1: float, input2: double, weight: double",
        "All tensors must have the same dtype, got input1: float, input2: float, weight: float, "
        "bias: c10::Half",
        "masked_scatter: expected self and source to have same dtypes but gotFloat and Double",
    ]


@pytest.mark.parametrize(
    "equation,shapes,dtype,expected",
    [
        # one operand: a dropped label is summed by `sum`, int64 (a bool's count of True)
        ("ij->i", [(2, 3)], "int32", "tensor([ 3, 12])"),
        ("ii->", [(2, 2)], "uint8", "tensor(3)"),
        ("ij->", [(2, 3)], "bool", "tensor(5)"),
        (
            "ij->ji",
            [(2, 3)],
            "int32",
            "tensor([[0, 3],\n        [1, 4],\n        [2, 5]], dtype=torch.int32)",
        ),
        # two: a label only one operand has is summed first; the pair then multiplies (promoting)
        ("ij,k->k", [(2, 3), (3,)], "int32", "tensor([ 0, 15, 30])"),
        ("ij,k->k", [(2, 3), (3,)], "bool", "tensor([0, 5, 5])"),
        ("ij,ik->", [(2, 3), (2, 3)], "int32", "tensor(153)"),
        ("ij,j->i", [(2, 3), (3,)], "int32", "tensor([ 5, 14], dtype=torch.int32)"),
        # or meets the other, not summed, in a bmm: one dtype only
        ("ij,j->", [(2, 3), (3,)], "int32", "expected scalar type Long but found Int"),
        ("ij,j->i", [(2, 3), (3,)], "bool", "\"bmm\" not implemented for 'Bool'"),
    ],
)
def test_einsum_of_integers_widens_as_atens(
    equation: str, shapes: list, dtype: str, expected: str
) -> None:
    ops = ", ".join(f"torch.arange({math.prod(s)}).view{s}.to(torch.{dtype})" for s in shapes)
    out = _run(
        f"import torch\ntry:\n    print(torch.einsum('{equation}', {ops}))\n"
        "except (RuntimeError, NotImplementedError) as e:\n    print(e)\n"
    )
    assert out == expected + "\n"


INTEGER_KERNELS = [
    # (expression on O(...) of the dtype, PyTorch 2.13's answer): ATen's CPU kernels have no
    # loop for a bool (or, transposed or dilated, a narrow integer) convolution, nor for bool
    # products; bilinear keeps an integer dtype
    (
        "bool",
        "F.conv2d(O(1, 2, 5, 5), O(3, 2, 2, 2))",
        "\"slow_conv2d_cpu\" not implemented for 'Bool'",
    ),
    (
        "bool",
        "F.conv3d(O(1, 2, 3, 3, 3), O(3, 2, 2, 2, 2))",
        "\"compute_columns3d\" not implemented for 'Bool'",
    ),
    (
        "int32",
        "F.conv_transpose1d(O(1, 2, 5), O(2, 3, 2))",
        "\"slow_conv_transpose2d_out_cpu\" not implemented for 'Int'",
    ),
    (
        "uint8",
        "F.conv_transpose3d(O(1, 2, 3, 3, 3), O(2, 3, 2, 2, 2))",
        "\"slow_conv_transpose3d_out_cpu\" not implemented for 'Byte'",
    ),
    (
        "int8",
        "F.conv_transpose2d(O(1, 2, 5, 5), torch.ones(2, 3, 2, 2))",
        "\"slow_conv_transpose2d_out_cpu\" not implemented for 'Char'",
    ),
    (
        "int16",
        "F.conv2d(O(1, 2, 5, 5), O(3, 2, 2, 2), dilation=2)",
        "\"slow_conv_dilated<>\" not implemented for 'Short'",
    ),
    ("int32", "F.conv2d(O(1, 2, 5, 5), O(3, 2, 2, 2)).dtype", "torch.int32"),
    ("int64", "F.conv_transpose2d(O(1, 2, 5, 5), O(2, 3, 2, 2), dilation=2).dtype", "torch.int64"),
    ("int32", "F.conv_transpose2d(O(0, 2, 5, 5), O(2, 3, 2, 2)).shape", "torch.Size([0, 3, 6, 6])"),
    (
        "int32",
        "F.bilinear(O(2, 3), O(2, 3), O(4, 3, 3), O(4))",
        "tensor([[10, 10, 10, 10],\n        [10, 10, 10, 10]], dtype=torch.int32)",
    ),
    ("bool", "F.bilinear(O(2, 3), O(2, 3), O(4, 3, 3))", "\"bmm\" not implemented for 'Bool'"),
    (
        "bool",
        "torch.tensordot(O(2, 3), O(3, 2), dims=0)",
        "\"addmm_impl_cpu_\" not implemented for 'Bool'",
    ),
    ("bool", "torch.matmul(O(2, 2, 3), O(3))", "\"addmv_impl_cpu\" not implemented for 'Bool'"),
    ("bool", "torch.matmul(O(2, 3), O(2, 3, 2))", "\"bmm\" not implemented for 'Bool'"),
    (
        "bool",
        "torch.baddbmm(O(2), O(2, 2, 3), O(2, 3, 2))",
        "\"baddbmm\" not implemented for 'Bool'",
    ),
]


@pytest.mark.parametrize("dtype,expr,expected", INTEGER_KERNELS)
def test_integer_and_bool_kernels_as_atens(dtype: str, expr: str, expected: str) -> None:
    out = _run(
        "import torch\nimport torch.nn.functional as F\n"
        f"O = lambda *s: torch.ones(*s, dtype=torch.{dtype})\n"
        f"try:\n    print({expr})\nexcept NotImplementedError as e:\n    print(e)\n"
    )
    assert out == expected + "\n"


def test_spatial_class_targets_are_int64_but_flat_ones_may_be_bytes() -> None:
    """nll_loss takes uint8 class indices for an (N, C) input; nll_loss2d (an image's or a
    sequence's positions) reads int64 only (PyTorch 2.13's words); other integers neither."""
    out = _run(
        "import torch\nimport torch.nn.functional as F\nx = torch.zeros(2, 3, 2)\n"
        "y = torch.zeros(2, 2, dtype=torch.uint8)\n"
        "print(F.cross_entropy(x[..., 0], y[:, 0]))\n"
        "for t in (y, y.int()):\n"
        "    for f in (F.cross_entropy, F.nll_loss):\n"
        "        try:\n            f(x, t)\n"
        "        except RuntimeError as e:\n            print(e)\n"
    )
    assert out.splitlines() == [
        "tensor(1.0986)",
        "expected scalar type Long but found Byte",
        "expected scalar type Long but found Byte",
        "expected target dtype to be Long or Byte, but got Int",
        "expected target dtype to be Long or Byte, but got Int",
    ]


@pytest.mark.parametrize(
    "call,message",
    [
        (
            "torch.zeros(3).addmm_(torch.ones(2, 4), torch.ones(4, 3))",
            "[3] and output tensor size [2, 3]",
        ),
        (
            "torch.zeros(1).addmv_(torch.ones(2, 4), torch.ones(4))",
            "[1] and output tensor size [2]",
        ),
        (
            "torch.zeros(1, 3, 5).baddbmm_(torch.ones(2, 3, 4), torch.ones(2, 4, 5))",
            "[1, 3, 5] and output tensor size [2, 3, 5]",
        ),
    ],
)
def test_structured_inplace_products_keep_the_shape(call: str, message: str) -> None:
    """addmm_, addmv_ and baddbmm_ are structured kernels: an input that only broadcasts to the
    result is refused in their words (PyTorch 2.13), not as an in-place broadcast."""
    out = _run(f"import torch\ntry:\n    {call}\nexcept RuntimeError as e:\n    print(e)\n")
    assert out == f"Bad in-place call: input tensor size {message} should match\n"


def test_baddbmm_of_one_dtype_still_runs() -> None:
    out = _run(
        "import torch\na = torch.arange(12.).view(2, 3, 2)\nb = torch.ones(2, 2, 1)\n"
        "print(torch.baddbmm(torch.ones(1), a, b, beta=0.5))\n"
        "print(torch.addbmm(torch.zeros(3, 1, dtype=torch.int64), a.long(), b.long()))\n"
    )
    assert out == (
        "tensor([[[ 1.5000],\n         [ 5.5000],\n         [ 9.5000]],\n\n"
        "        [[13.5000],\n         [17.5000],\n         [21.5000]]])\n"
        "tensor([[14],\n        [22],\n        [30]])\n"
    )


# --- out= and in-place views --------------------------------------------------------------------


def test_out_argument() -> None:
    out = _run(
        "import torch\no = torch.empty(2)\ny = torch.add(torch.tensor([1., 2.]), 1, out=o)\n"
        "print(y is o, o)\n"
        "try:\n    torch.mul(torch.ones(2), 2.5, out=torch.zeros(2, dtype=torch.int64))\n"
        "except RuntimeError as e:\n    print(e)\n"
        "try:\n    torch.add(torch.ones(2, requires_grad=True), 1, out=torch.zeros(2))\n"
        "except RuntimeError as e:\n    print(e)\n"
    )
    assert out == (
        "True tensor([2., 3.])\n"
        "result type Float can't be cast to the desired output type Long\n"
        "add(): functions with out=... arguments don't support automatic differentiation, but "
        "one of the arguments requires grad.\n"
    )


def test_inplace_views_keep_the_graph() -> None:
    w = Tensor(np.array([1.0, 2.0, 3.0]), requires_grad=True)
    y = w * 2
    N.METHODS["unsqueeze_"](y, 0)
    assert y.shape == (1, 3) and y.node.label == "UnsqueezeBackward1"
    N.METHODS["t_"](y)
    assert y.shape == (3, 1) and y.node.label == "TBackward1"
    (y * Tensor(np.arange(3.0).reshape(3, 1))).sum().backward()
    assert w.grad.data.tolist() == [0.0, 2.0, 4.0]


# --- surface/basics.py ---------------------------------------------------------------------------


def _fd_check(f: Callable[[Tensor], Tensor], x0: np.ndarray) -> None:
    """f's VJP against float64 central differences."""
    x = Tensor(x0.copy(), requires_grad=True)
    out = f(x)
    out = out[0] if isinstance(out, tuple) else out
    w = np.random.default_rng(0).uniform(-1, 1, size=out.shape)
    (out * Tensor(w)).sum().backward()
    h = 1e-6
    want = np.zeros_like(x0)
    for i in np.ndindex(x0.shape):
        up, down = x0.copy(), x0.copy()
        up[i] += h
        down[i] -= h
        fu, fd = f(Tensor(up)), f(Tensor(down))
        fu = fu[0] if isinstance(fu, tuple) else fu
        fd = fd[0] if isinstance(fd, tuple) else fd
        want[i] = np.sum((fu.data - fd.data) * w) / (2 * h)
    np.testing.assert_allclose(x.grad.data, want, rtol=1e-6, atol=1e-8)


def _x(shape: tuple[int, ...]) -> np.ndarray:
    rng = np.random.default_rng(3)
    n = int(np.prod(shape))
    return (-2.0 + 0.1 * rng.permutation(2 * n)[:n] + rng.uniform(-0.02, 0.02, n)).reshape(shape)


GRADS: dict[str, tuple[Callable[[Tensor], Tensor], tuple[int, ...]]] = {
    "hstack": (lambda x: BA.hstack([x, x * 2]), (2, 3)),
    "vstack": (lambda x: BA.vstack([x, x[0]]), (2, 3)),
    "dstack": (lambda x: BA.dstack([x, x]), (2, 3)),
    "column_stack": (lambda x: BA.column_stack([x[0], x[1]]), (2, 3)),
    "tensor_split": (lambda x: BA.tensor_split(x, 3, 1)[1], (2, 7)),
    "tensor_split_at": (lambda x: BA.tensor_split(x, [1, 4], 1)[2], (2, 7)),
    "movedim": (lambda x: BA.movedim(x, 0, -1), (2, 3, 4)),
    "unflatten": (lambda x: BA.unflatten(x, 1, (2, -1)), (2, 6)),
    "select": (lambda x: BA.select(x, 1, -1), (2, 3)),
    "kthvalue": (lambda x: BA.kthvalue(x, 2, 1)[0], (3, 4)),
    "msort": (lambda x: BA.msort(x), (4, 2)),
    "inner": (lambda x: BA.inner(x, x * 3), (2, 3)),
    "inner_vec": (lambda x: BA.inner(x, x[0]), (2, 3)),
    "lerp": (lambda x: BA.lerp(x, x * x, 0.3), (2, 3)),
    "addcmul": (lambda x: BA.addcmul(x, x, x, value=0.5), (2, 3)),
    "addcdiv": (lambda x: BA.addcdiv(x, x, x * x + 3, value=2), (2, 3)),
    "hypot": (lambda x: BA.hypot(x, x + 3), (2, 3)),
    "nansum": (lambda x: BA.nansum(x, 1), (2, 3)),
    "nanmean": (lambda x: BA.nanmean(x), (2, 3)),
    "aminmax": (lambda x: BA.aminmax(x, dim=1)[1], (2, 3)),
    "deg2rad": (lambda x: BA.deg2rad(x), (2, 3)),
    "rad2deg": (lambda x: BA.rad2deg(x), (2, 3)),
    "fmax": (lambda x: BA.fmax(x, x.flip(1)), (2, 3)),
    "fmin": (lambda x: BA.fmin(x[0], x), (2, 3)),
    "hsplit": (lambda x: BA.hsplit(x, [1])[1], (2, 3, 2)),
    "vsplit": (lambda x: BA.vsplit(x, 2)[1], (4, 3)),
    "dsplit": (lambda x: BA.dsplit(x, 2)[0], (2, 3, 4)),
    "diagflat": (lambda x: BA.diagflat(x, -1), (2, 3)),
    "vdot": (lambda x: BA.vdot(x[0], x[1] * x[1]), (2, 3)),
    "sum_to_size": (lambda x: BA.sum_to_size(x, 3, 1), (2, 3, 4)),
    "sum_to_size_kept": (lambda x: BA.sum_to_size(x, (1, 4)), (3, 4)),
    "cumulative_trapezoid": (lambda x: ST.cumulative_trapezoid(x, dx=0.5, dim=0), (3, 2)),
    "index_put": (
        lambda x: SC.index_put(x, (Tensor(np.array([1, 0])),), x.flip(0) * x),
        (2, 3),
    ),
    "index_put_accumulate": (
        lambda x: SC.index_put(
            x, (Tensor(np.array([1, 1, 0])), Tensor(np.array([0, 0, 2]))), x[0] * 3, True
        ),
        (2, 3),
    ),
    "masked_scatter": (
        lambda x: SC.masked_scatter(x, Tensor(np.array([True, False, True])), x * x),
        (2, 3),
    ),
    "unfold": (lambda x: RE.unfold(x, 1, 3, 2) * RE.unfold(x, 1, 3, 2), (2, 7)),
    "unfold_overlapping": (lambda x: RE.unfold(x, 0, 2, 1).sin(), (4, 2)),
    "cumulative_trapezoid_x": (lambda x: ST.cumulative_trapezoid(x, x[0] * x[0]), (2, 4)),
}


@pytest.mark.parametrize("name", sorted(GRADS))
def test_basics_gradients(name: str) -> None:
    f, shape = GRADS[name]
    _fd_check(f, _x(shape))


def test_basics_values() -> None:
    v = Tensor(np.arange(7))
    assert [t.data.tolist() for t in BA.tensor_split(v, 3)] == [[0, 1, 2], [3, 4], [5, 6]]
    assert BA.movedim(Tensor(np.zeros((2, 3, 4))), (0, 1), (2, 0)).shape == (3, 4, 2)
    assert BA.hstack([Tensor(np.array([1, 2])), Tensor(np.array([3]))]).data.tolist() == [1, 2, 3]
    assert BA.argsort(Tensor(np.array([3, 1, 2])), descending=True).data.tolist() == [0, 2, 1]
    r = BA.kthvalue(Tensor(np.array([[2.0, 8.0, 5.0]])), 2, 1)
    assert r.values.data.tolist() == [5.0] and r.indices.data.tolist() == [2]
    assert BA.nonzero(Tensor(np.array([[0, 1], [2, 0]]))).data.tolist() == [[0, 1], [1, 0]]
    values, counts = BA.unique(Tensor(np.array([3, 1, 3])), return_counts=True)
    assert values.data.tolist() == [1, 3] and counts.data.tolist() == [1, 2]
    assert BA.bincount(Tensor(np.array([3, 1, 3]))).data.tolist() == [0, 1, 0, 2]
    assert BA.count_nonzero(Tensor(np.array([[0, 1], [2, 0]])), 0).data.tolist() == [1, 1]
    assert BA.isin(Tensor(np.array([1, 2, 3])), Tensor(np.array([3, 1]))).data.tolist() == [
        True,
        False,
        True,
    ]
    assert tuple(BA.broadcast_shapes((5, 1, 4), (3, 1))) == (5, 3, 4)
    assert BA.element_size(Tensor(np.zeros(2, np.int16))) == 2


def test_nan_ignoring_maximum_and_the_small_predicates() -> None:
    """fmax / fmin take the number where one side is nan (nan only where both are), the
    input's element on a tie, and their gradient goes to the element taken."""
    nan = float("nan")
    x = Tensor(np.array([1.0, nan, 2.0, nan, 3.0]), requires_grad=True)
    y = Tensor(np.array([0.5, 4.0, nan, nan, 3.0]), requires_grad=True)
    out = BA.fmax(x, y)
    np.testing.assert_array_equal(out.data, [1.0, 4.0, 2.0, nan, 3.0])
    np.testing.assert_array_equal(BA.fmin(x, y).data, [0.5, 4.0, 2.0, nan, 3.0])
    assert out.node.name() == "FmaxBackward0"
    out.sum().backward()
    assert x.grad.data.tolist() == [1.0, 0.0, 1.0, 1.0, 1.0]
    assert y.grad.data.tolist() == [0.0, 1.0, 0.0, 0.0, 0.0]
    v = Tensor(np.array([-0.0, 0.0, -1.0, np.inf, -np.inf]))
    assert BA.signbit(v).data.tolist() == [True, False, True, False, True]
    assert BA.isposinf(v).data.tolist() == [False, False, False, True, False]
    assert BA.isneginf(v).data.tolist() == [False, False, False, False, True]
    assert BA.positive(v) is v
    with pytest.raises(GradcliError, match="on a bool tensor is not supported"):
        BA.positive(Tensor(np.array([True])))
    assert BA.is_nonzero(Tensor(np.array([0.5]))) and not BA.is_nonzero(Tensor(np.array(0)))
    with pytest.raises(GradcliError, match="more than one value is ambiguous"):
        BA.is_nonzero(Tensor(np.ones(2)))
    assert BA.is_same_size(Tensor(np.ones((2, 3))), Tensor(np.zeros((2, 3))))
    assert not BA.is_same_size(Tensor(np.ones((2, 3))), Tensor(np.zeros((3, 2))))
    with pytest.raises(GradcliError, match="not divisible by the split_size 2"):
        BA.hsplit(Tensor(np.ones((2, 3))), 2)
    with pytest.raises(GradcliError, match="at least 3 dimension, but got a tensor with 2"):
        BA.dsplit(Tensor(np.ones((2, 3))), 1)
    with pytest.raises(GradcliError, match=r"size \{\[5\]\} is not expandable"):
        BA.sum_to_size(Tensor(np.ones((2, 3))), 5)
    with pytest.raises(GradcliError, match=r"fmax\(\): argument 'other' \(position 2\) must be"):
        BA.fmax(Tensor(np.ones(2)), 2.0)
    d = BA.deg2rad(Tensor(np.array([180, 90])))
    assert d.dtype == Settings.default_dtype


def test_asarray_scalar_tensor_unravel_index_cumulative_trapezoid() -> None:
    t = Tensor(np.ones(2, np.float32))
    assert BA.asarray(t) is t and BA.asarray(t, copy=True) is not t
    assert BA.asarray(t, dtype=np.float64).dtype == np.float64
    a = np.arange(3.0)
    shared = BA.asarray(a)
    a[0] = 7.0
    assert shared.data[0] == 7.0 and BA.asarray([1, 2]).dtype == np.int64
    assert BA.asarray(2.5, requires_grad=True).requires_grad
    s = BA.scalar_tensor(3)
    assert s.shape == () and s.dtype == Settings.default_dtype and s.item() == 3.0
    rows, cols = BA.unravel_index(Tensor(np.array([4, 1, 6, -1])), (3, 2))
    assert rows.data.tolist() == [2, 0, 0, 2] and cols.data.tolist() == [0, 1, 0, 1]
    with pytest.raises(GradcliError, match="expected 'indices' to be integer dtype"):
        BA.unravel_index(Tensor(np.array([1.0])), (2, 3))
    y = Tensor(np.array([1.0, 4.0, 9.0, 16.0]))
    assert ST.cumulative_trapezoid(y).data.tolist() == [2.5, 9.0, 21.5]
    x = Tensor(np.array([0.0, 1.0, 3.0, 6.0]))
    assert ST.cumulative_trapezoid(y, x).data.tolist() == [2.5, 15.5, 53.0]
    with pytest.raises(GradcliError, match="one `x` value for each sample point"):
        ST.cumulative_trapezoid(y, Tensor(np.array([0.0, 1.0])))


def test_index_put_and_masked_scatter_values() -> None:
    x = Tensor(np.zeros(5))
    out = SC.index_put(x, (Tensor(np.array([1, 1, 3])),), Tensor(np.array([1.0, 2.0, 3.0])), True)
    assert out.data.tolist() == [0.0, 3.0, 0.0, 3.0, 0.0] and x.data.tolist() == [0.0] * 5
    SC._in_place(SC.index_put)(x, (Tensor(np.array([4])),), Tensor(np.array(7.0)))
    assert x.data.tolist() == [0.0, 0.0, 0.0, 0.0, 7.0]
    with pytest.raises(GradcliError, match="must be tuple of Tensors, not Tensor"):
        SC.index_put(x, Tensor(np.array([1])), Tensor(np.array(1.0)))
    m = Tensor(np.array([[True, False], [False, True]]))
    got = SC.masked_scatter(Tensor(np.zeros((2, 2))), m, Tensor(np.array([5.0, 6.0, 7.0])))
    assert got.data.tolist() == [[5.0, 0.0], [0.0, 6.0]]
    with pytest.raises(GradcliError, match="Number of elements of source < number of ones"):
        SC.masked_scatter(Tensor(np.zeros((2, 2))), m, Tensor(np.array([5.0])))


def test_unfold_is_a_view_and_refuses_as_pytorch() -> None:
    got = "".join(
        parse(
            "import torch\nz = torch.arange(6.)\nv = z.unfold(0, 2, 2)\nv[0, 0] = 100\n"
            "z.mul_(2)\nprint(z)\nprint(v)\nprint(v.storage_offset(), v[1].storage_offset())\n"
            "print(torch.tensor(5.).unfold(0, 1, 1), torch.arange(4.).unfold(0, 0, 1).shape)\n",
            "t.py",
        )
        .run(dtype="float32")
        .output
    )
    assert got == (
        "tensor([200.,   2.,   4.,   6.,   8.,  10.])\n"
        "tensor([[200.,   2.],\n        [  4.,   6.],\n        [  8.,  10.]])\n"
        "0 2\ntensor([5.]) torch.Size([5, 0])\n"
    )
    x = Tensor(np.arange(7.0))
    with pytest.raises(GradcliError, match="maximum size for tensor at dimension 0 is 7"):
        RE.unfold(x, 0, 8, 1)
    with pytest.raises(GradcliError, match="step is 0 but must be > 0"):
        RE.unfold(x, 0, 3, 0)


@pytest.mark.parametrize(
    ("x", "bias", "message"),
    [
        ((1, 3), "float32", "mat1 and mat2 must have the same dtype, but got Double and Float"),
        ((3,), "float32", "mat1 and mat2 must have the same dtype, but got Double and Float"),
        ((2, 1, 3), "float32", "mat1 and mat2 must have the same dtype, but got Double and"),
        ((2, 1, 3), None, "expected m1 and m2 to have the same dtype, but got: double != float"),
    ],
)
def test_linear_refuses_mixed_dtypes_in_addmms_words(x: tuple, bias: Any, message: str) -> None:
    from gradcli.surface import functional as FU

    w = Tensor(np.ones((2, 3), np.float32))
    b = None if bias is None else Tensor(np.ones(2, bias))
    with pytest.raises(GradcliError, match=message):
        FU.linear_forward(Tensor(np.ones(x)), w, b)
    with pytest.raises(
        GradcliError, match="self and mat2 must have the same dtype, but got Double"
    ):
        FU.linear_forward(Tensor(np.ones((1, 3), np.float32)), w, Tensor(np.ones(2)))


def test_unary_plus_refuses_a_bool_tensor() -> None:
    got = "".join(
        parse(
            "import torch\nx = torch.ones(2)\nprint(+x is x)\ntry:\n"
            "    +torch.tensor([True])\nexcept RuntimeError as e:\n    print(e)\n",
            "t.py",
        )
        .run(dtype="float32")
        .output
    )
    assert got == "True\nThe `+` operator, on a bool tensor is not supported.\n"


def test_storage_offset_of_views() -> None:
    got = "".join(
        parse(
            "import torch\na = torch.arange(12.).reshape(3, 4)\n"
            "print(a.storage_offset(), a[1].storage_offset(), a[:, 2].storage_offset())\n"
            "print(a[1:, 1:][1].storage_offset(), a.t()[3].storage_offset())\n"
            "print(a.clone()[2].storage_offset(), a.nbytes, a[0].nbytes, a.itemsize)\n"
            "print(a.is_cpu, a.get_device(), a.layout, a.layout == torch.strided)\n",
            "t.py",
        )
        .run(dtype="float32")
        .output
    )
    assert got == "0 4 2\n9 3\n8 48 16 4\nTrue -1 torch.strided True\n"


def test_bit_operations() -> None:
    y = Tensor(np.array([3, 1, -2]))
    assert BA.bitwise_left_shift(y, 1).data.tolist() == [6, 2, -4]
    assert BA.bitwise_right_shift(y, 1).data.tolist() == [1, 0, -1]
    assert BA.bitwise_left_shift(y, 70).data.tolist() == [0, 0, 0]
    assert BA.bitwise_right_shift(y, 70).data.tolist() == [0, 0, -1]
    i8 = Tensor(np.array([1], np.int8))
    assert BA.bitwise_left_shift(i8, 7).data.tolist() == [-128]
    assert BA.bitwise_and(i8, 300).dtype == np.int8
    assert _error(lambda: BA.bitwise_xor(Tensor(np.ones(1, np.float32)), 1)) == (
        "NotImplementedError",
        "\"bitwise_xor_cpu\" not implemented for 'Float'",
    )
    assert _error(lambda: BA.bitwise_right_shift(y, 1.0))[1] == (
        "\"rshift_cpu\" not implemented for 'Float'"
    )


def test_broadcast_shapes_error() -> None:
    assert _error(lambda: BA.broadcast_shapes((2, 3), (4, 3)))[1] == (
        "Attempting to broadcast a dimension of length 4 at -2! Mismatching argument at index 1 "
        "had (4, 3); but expected shape should be broadcastable to [2, 3]"
    )


def test_result_type() -> None:
    i = Tensor(np.array([1, 2]))
    assert BA.result_type(i, 1.0) == np.float32
    assert BA.result_type(i, Tensor(np.array(2.5, np.float64))) == np.float64
    assert BA.result_type(Tensor(np.array([1], np.int8)), 1000) == np.int8
    assert BA.result_type(Tensor(np.array([True])), 2) == np.int64
    assert BA.can_cast(np.float32, np.int32) is False
    assert BA.can_cast(np.int32, np.float32) is True


def test_programs_print_as_pytorch() -> None:
    out = _run(
        "import torch\nimport numpy as np\n"
        "x = torch.tensor([[2.0, 8.0], [7.0, 1.0]])\n"
        "print(torch.aminmax(x))\n"
        "r = x.max(1)\nprint(type(r).__name__, x.dtype is torch.float, x.shape[1:])\n"
        "print(torch.iinfo(torch.int8).max, torch.finfo(torch.float16).eps)\n"
        "print(torch.result_type(torch.tensor([1]), 1.0), torch.tensor(np.float64(1.5)))\n"
        "t = torch.ones(3)\nn = t.numpy()\nn[1] = 5\nnp.add(n, 1, out=n)\nprint(t)\n"
        "print(torch.tensor([6, 1]) >> 1, 1 << 4)\n"
    )
    assert out == (
        "torch.return_types.aminmax(\nmin=tensor(1.),\nmax=tensor(8.))\n"
        "max True torch.Size([2])\n"
        "127 0.0009765625\n"
        "torch.float32 tensor(1.5000, dtype=torch.float64)\n"
        "tensor([2., 6., 2.])\n"
        "tensor([3, 0]) 16\n"
    )


@pytest.mark.parametrize("seed", range(5))
def test_unique_consecutive_matches_a_plain_loop_over_runs(seed: int) -> None:
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 3, size=(6, 4))
    for dim in (None, 0, 1):
        rows = (
            [(v,) for v in data.reshape(-1)]
            if dim is None
            else [tuple(r) for r in np.moveaxis(data, dim, 0).reshape(data.shape[dim], -1)]
        )
        runs: list[tuple] = []
        counts: list[int] = []
        inverse: list[int] = []
        for r in rows:
            if not runs or runs[-1] != r:
                runs.append(r)
                counts.append(0)
            counts[-1] += 1
            inverse.append(len(runs) - 1)
        values, inv, cnt = BA.unique_consecutive(
            Tensor(data), return_inverse=True, return_counts=True, dim=dim
        )
        assert cnt.data.tolist() == counts
        assert inv.data.reshape(-1).tolist() == inverse
        expect = np.array(runs).reshape(-1) if dim is None else np.array(runs)
        got = values.data if dim in (None, 0) else np.moveaxis(values.data, 1, 0)
        assert got.reshape(expect.shape).tolist() == expect.tolist()
    nan = BA.unique_consecutive(Tensor(np.array([1.0, np.nan, np.nan])))
    assert np.isnan(nan.data).sum() == 2  # NaN is never equal to NaN: two runs


def test_addcmul_and_addcdiv_take_the_deprecated_value_first_overload() -> None:
    # `exp_avg_sq.mul_(beta2).addcmul_(1 - beta2, grad, grad)`: PyTorch still accepts the old
    # (Number value, Tensor tensor1, Tensor tensor2) order, with a warning; the same values.
    x = Tensor(np.array([1.0, 1.0, 1.0], dtype=np.float32))
    t1 = Tensor(np.array([1.0, 2.0, 3.0], dtype=np.float32))
    t2 = Tensor(np.array([2.0, 2.0, 4.0], dtype=np.float32))
    assert BA.addcmul(x, 0.5, t1, t2).data.tolist() == [2.0, 3.0, 7.0]
    assert (
        BA.addcmul(x, 0.5, t1, t2).data.tobytes() == BA.addcmul(x, t1, t2, value=0.5).data.tobytes()
    )
    assert BA.addcdiv(x, 2, t1, t2).data.tolist() == [2.0, 3.0, 2.5]
    with pytest.raises(GradcliError, match="takes 3 positional arguments but 4 were given"):
        BA.addcmul(x, t1, t2, 0.5)
    with pytest.raises(GradcliError, match="unrecognized keyword arguments: value"):
        BA.addcdiv(x, 0.5, t1, t2, value=2)
