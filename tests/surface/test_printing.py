"""gradcli.printing prints tensors exactly like PyTorch's repr().

The first tests pin exact strings and need no torch; the rest compare against torch itself and
are skipped when torch is not installed.
"""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

from gradcli.surface.printing import MaxMin, Size, format_array, format_value, tensor_repr

NAN = float("nan")
INF = float("inf")


class FakeNode:
    def __init__(self, name: str) -> None:
        self._name = name

    def name(self) -> str:
        return self._name


class FakeTensor:
    """Just what tensor_repr needs: .data, .requires_grad, .node."""

    def __init__(self, data, requires_grad=False, grad_fn=None):
        self.data = np.asarray(data)
        self.requires_grad = requires_grad or grad_fn is not None
        self.node = None if grad_fn is None else FakeNode(grad_fn)


# --- exact strings, no torch -------------------------------------------------------------------

PINNED = [
    (np.array([[2.0, 0.0, 0.0, 0.0]]), {}, "tensor([[2., 0., 0., 0.]])"),
    (np.array([1.5, -2.25]), {}, "tensor([ 1.5000, -2.2500])"),
    (np.array([1.234e-3, 12345.6]), {}, "tensor([1.2340e-03, 1.2346e+04])"),
    (np.array(3.5), {}, "tensor(3.5000)"),
    (np.array(2.0), {}, "tensor(2.)"),
    (np.array(7), {}, "tensor(7)"),
    (np.array(True), {}, "tensor(True)"),
    (
        np.array([[2.0, 4.0, 6.0, 8.0]]),
        {"grad_fn": "MulBackward0"},
        "tensor([[2., 4., 6., 8.]], grad_fn=<MulBackward0>)",
    ),
    (
        np.array([[2.0, 4.0]]),
        {"grad_fn": "MulBackward0"},
        "tensor([[2., 4.]], grad_fn=<MulBackward0>)",
    ),
    (np.array([1.0, 2.0]), {"requires_grad": True}, "tensor([1., 2.], requires_grad=True)"),
    (
        np.array([1.0, 2.0]),
        {"requires_grad": True, "grad_fn": "AddBackward0"},
        "tensor([1., 2.], grad_fn=<AddBackward0>)",
    ),
    (np.array([1, 2, 3]), {}, "tensor([1, 2, 3])"),
    (np.array([True, False]), {}, "tensor([ True, False])"),
    (np.array([10, -200]), {}, "tensor([  10, -200])"),
    (np.array([], dtype=np.float64), {}, "tensor([])"),
    (np.zeros((0, 3)), {}, "tensor([], size=(0, 3))"),
    (np.zeros((0, 3)), {"requires_grad": True}, "tensor([], size=(0, 3), requires_grad=True)"),
    (np.array([], dtype=np.int64), {}, "tensor([], dtype=torch.int64)"),
    (
        np.array([1.0, 2.0]),
        {"dtype_suffix": "torch.float64"},
        "tensor([1., 2.], dtype=torch.float64)",
    ),
    (
        np.array([1.0, 2.0]),
        {"dtype_suffix": "torch.float64", "requires_grad": True},
        "tensor([1., 2.], dtype=torch.float64, requires_grad=True)",
    ),
    (np.array([1, 2], dtype=np.int32), {}, "tensor([1, 2], dtype=torch.int32)"),
    (np.array([1.0, 2.0], dtype=np.float32), {}, "tensor([1., 2.])"),
    (np.array([NAN, 1.0, -INF]), {}, "tensor([nan, 1., -inf])"),
    (np.array([NAN, INF]), {}, "tensor([nan, inf])"),
    (np.array(NAN), {}, "tensor(nan)"),
    (np.array([-0.0, 1.0]), {}, "tensor([-0., 1.])"),
    (np.array([-0.0, 0.5]), {}, "tensor([-0.0000, 0.5000])"),
    (np.array([0.0, 0.0]), {}, "tensor([0., 0.])"),
    (np.array([1e-5, 1.0]), {}, "tensor([1.0000e-05, 1.0000e+00])"),
    (np.array([1e9]), {}, "tensor([1.0000e+09])"),
    (np.array([[1.0, 2.0], [3.0, 4.0]]), {}, "tensor([[1., 2.],\n        [3., 4.]])"),
    (
        np.arange(8.0).reshape(2, 2, 2),
        {},
        "tensor([[[0., 1.],\n         [2., 3.]],\n\n        [[4., 5.],\n         [6., 7.]]])",
    ),
    (
        np.arange(1001.0),
        {},
        "tensor([   0.,    1.,    2.,  ...,  998.,  999., 1000.])",
    ),
    (
        np.arange(2000).reshape(2, 1000),
        {},
        "tensor([[   0,    1,    2,  ...,  997,  998,  999],\n"
        "        [1000, 1001, 1002,  ..., 1997, 1998, 1999]])",
    ),
]


@pytest.mark.parametrize(("arr", "kwargs", "expected"), PINNED)
def test_pinned_strings(arr, kwargs, expected):
    assert format_array(arr, **kwargs) == expected


def test_line_wrapping_pinned():
    expected = (
        "tensor([0.1000, 0.2000, 0.3000, 0.4000, 0.5000, 0.6000, 0.7000, 0.8000, 0.9000,\n"
        "        1.0000, 1.1000, 1.2000])"
    )
    assert format_array(np.arange(1, 13) / 10) == expected


def test_suffix_wraps_pinned():
    out = format_array(np.arange(1, 10) / 10 + 0.05, grad_fn="MulBackward0")
    assert out == (
        "tensor([0.1500, 0.2500, 0.3500, 0.4500, 0.5500, 0.6500, 0.7500, 0.8500, 0.9500],\n"
        "       grad_fn=<MulBackward0>)"
    )


def test_tensor_repr_fake():
    assert tensor_repr(FakeTensor([[2.0, 4.0]], grad_fn="MulBackward0")) == (
        "tensor([[2., 4.]], grad_fn=<MulBackward0>)"
    )
    assert tensor_repr(FakeTensor([1.0, 2.0], requires_grad=True)) == (
        "tensor([1., 2.], requires_grad=True)"
    )
    assert tensor_repr(FakeTensor(np.array(3.5))) == "tensor(3.5000)"
    assert tensor_repr(FakeTensor(np.array([1, 2, 3]))) == "tensor([1, 2, 3])"


def test_format_value_pinned():
    g = FakeTensor(np.full((2, 2), 2.0))
    assert format_value((g,)) == "(tensor([[2., 2.],\n        [2., 2.]]),)"
    assert format_value([FakeTensor(1.0), FakeTensor(2.0)]) == "[tensor(1.), tensor(2.)]"
    assert format_value(Size([2, 3])) == "torch.Size([2, 3])"
    assert format_value(Size([])) == "torch.Size([])"
    assert repr(Size((4,))) == "torch.Size([4])"
    assert format_value((Size([2]),)) == "(torch.Size([2]),)"
    assert format_value(3.5) == "3.5"
    assert format_value(np.float64(3.5)) == "3.5"
    assert format_value(7) == "7"
    assert format_value(None) == "None"
    assert format_value(True) == "True"
    assert format_value("hi") == "hi"
    assert format_value(("hi", 1.0)) == "('hi', 1.0)"
    mm = MaxMin(FakeTensor([2.0, 4.0], grad_fn="MaxBackward0"), FakeTensor(np.array([1, 1])))
    expected = (
        "torch.return_types.max(\n"
        "values=tensor([2., 4.], grad_fn=<MaxBackward0>),\n"
        "indices=tensor([1, 1]))"
    )
    assert format_value(mm) == expected
    assert repr(mm) == expected
    values, indices = mm
    assert values is mm.values and indices is mm.indices
    mn = MaxMin(FakeTensor([1.0]), FakeTensor(np.array([0])), kind="min")
    assert format_value(mn).startswith("torch.return_types.min(\nvalues=")


# --- against torch ------------------------------------------------------------------------------


def _random_float_arrays():
    rng = np.random.default_rng(20240611)
    shapes = [(), (1,), (5,), (13,), (30,), (3, 4), (7, 11), (2, 3, 4), (4, 1, 6), (2, 2, 2, 3)]
    cases = []
    for i in range(120):
        shape = shapes[i % len(shapes)]
        kind = i % 8
        size = int(np.prod(shape))
        if kind == 0:  # plain normal
            a = rng.normal(size=size)
        elif kind == 1:  # mixed magnitudes
            a = rng.normal(size=size) * 10.0 ** rng.integers(-7, 10, size=size)
        elif kind == 2:  # integer-valued floats
            a = rng.integers(-1000, 1000, size=size).astype(np.float64)
        elif kind == 3:  # small positives around the 1e-4 sci-mode boundary
            a = rng.uniform(0.5e-4, 3e-4, size=size)
        elif kind == 4:  # ratio around 1000
            a = rng.uniform(1, 1200, size=size)
        elif kind == 5:  # huge integer-valued
            a = np.round(rng.normal(size=size) * 10.0 ** rng.integers(0, 12))
        elif kind == 6:  # with zeros, nan, inf, -0.
            a = rng.normal(size=size) * 100
            specials = np.array([0.0, -0.0, NAN, INF, -INF])
            mask = rng.random(size) < 0.4
            a[mask] = rng.choice(specials, size=int(mask.sum()))
        else:  # negatives, values on rounding boundaries
            a = -np.abs(rng.integers(1, 99999, size=size) / 10.0 ** rng.integers(0, 6))
        cases.append(a.reshape(shape))
    return cases


SPECIAL_FLOATS = [
    np.array([1e-4, 1.0]),
    np.array([0.99e-4, 1.0]),
    np.array([1.0, 1000.0]),
    np.array([1.0, 1000.5]),
    np.array([1e8]),
    np.array([1.0000001e8]),
    np.array([0.00005, 0.00015, 0.00025]),
    np.array([0.12345, 0.12355, 2.5e-5 * 4]),
    np.array([1e300, 1e-300]),
    np.array([np.finfo(np.float64).max, -np.finfo(np.float64).tiny]),
    np.array([5e-324, 1.0]),
    np.array([NAN, NAN]),
    np.array([INF, -INF, 0.0]),
    np.array([-0.0]),
    np.array(-0.0),
    np.array(1e-9),
    np.array(-123456789.0),
    np.array([[NAN, 1.5], [-INF, 2.0]]),
    np.array([[-0.0, 1e-5], [1e5, 0.0]]),
    np.array([123456.0, 1.0, -7.0]),
    np.array([99999.5, 0.5]),
    np.linspace(-1, 1, 40).reshape(2, 20),
    np.linspace(-1000, 1000, 17),
    np.arange(60.0).reshape(3, 4, 5) - 30,
    np.arange(120.0).reshape(2, 3, 4, 5) / 7,
    np.arange(24.0).reshape(1, 2, 1, 3, 4) * 1e5,
    np.ones((1, 1, 1)),
]

BIG_FLOATS = [
    np.arange(1001.0),
    np.arange(5000.0) / 3,
    np.linspace(-1e-6, 1e6, 2001),
    np.arange(1200.0).reshape(40, 30),
    np.arange(1200.0).reshape(400, 3) * 0.5,
    np.arange(1200.0).reshape(3, 400) * -1.25,
    np.arange(1470.0).reshape(7, 7, 30),
    np.arange(1331.0).reshape(11, 11, 11) / 1e4,
    np.arange(1200.0).reshape(2, 3, 4, 50),
    np.arange(2000.0).reshape(2, 1000) ** 3,
    np.arange(1010.0).reshape(1010, 1),
    np.concatenate([np.arange(3.0), np.full(1000, 1e-7), [NAN, INF, -0.0]]),
]

INTS = [
    np.array([1, 2, 3]),
    np.array(5),
    np.array([-1, 100, 2**40]),
    np.arange(12).reshape(3, 4) - 5,
    np.arange(24).reshape(2, 3, 4),
    np.arange(1001),
    np.arange(3000).reshape(30, 100) * 12345,
    np.arange(40) * 1000,
    np.array([], dtype=np.int64),
    np.zeros((2, 0), dtype=np.int64),
]

BOOLS = [
    np.array([True, False]),
    np.array(True),
    np.array([[True], [False]]),
    np.array([True, True, True]),
    np.arange(1500).reshape(30, 50) % 3 == 0,
    np.array([], dtype=bool),
]

EMPTY_FLOATS = [
    np.zeros(0),
    np.zeros((0, 3)),
    np.zeros((2, 0, 4)),
    np.zeros((0,), dtype=np.float32),
]

OTHER_DTYPES = [
    np.array([1, 2], dtype=np.int32),
    np.array([-3, 4], dtype=np.int8),
    np.array([7, 300], dtype=np.int16),
    np.array([1, 255], dtype=np.uint8),
    np.array([1.5, 2.0], dtype=np.float16),
    np.array([], dtype=np.int32),
    np.array([[1.0 + 2.0j, -0.5 - 1e-5j], [3.0, 0.0]], dtype=np.complex128),
    np.array(1.5 - 2j),
]


@contextlib.contextmanager
def _torch_default_dtype(dtype):
    torch = pytest.importorskip("torch")
    old = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        yield torch
    finally:
        torch.set_default_dtype(old)


def _torch_repr(arr, *, requires_grad=False, grad_fn=False):
    """repr() of the same tensor in torch, with float64 as the default dtype if arr is float64."""
    torch = pytest.importorskip("torch")
    default = torch.float64 if arr.dtype in (np.float64, np.complex128) else torch.float32
    with _torch_default_dtype(default):
        t = torch.from_numpy(np.array(arr))
        if requires_grad or grad_fn:
            t.requires_grad_()
        if grad_fn:
            t = t * 1
        return repr(t)


def _ids(arrs):
    return [f"{a.dtype}-{'x'.join(map(str, a.shape)) or 'scalar'}-{i}" for i, a in enumerate(arrs)]


ALL_FLOATS = _random_float_arrays() + SPECIAL_FLOATS + EMPTY_FLOATS


@pytest.mark.parametrize("arr", ALL_FLOATS, ids=_ids(ALL_FLOATS))
def test_float64_matches_torch(arr):
    assert format_array(arr) == _torch_repr(arr)


@pytest.mark.parametrize("arr", ALL_FLOATS, ids=_ids(ALL_FLOATS))
def test_float32_matches_torch(arr):
    with np.errstate(over="ignore"):
        arr32 = arr.astype(np.float32)
    assert format_array(arr32) == _torch_repr(arr32)


@pytest.mark.parametrize("arr", BIG_FLOATS, ids=_ids(BIG_FLOATS))
def test_summarized_matches_torch(arr):
    assert format_array(arr) == _torch_repr(arr)
    arr32 = arr.astype(np.float32)
    assert format_array(arr32) == _torch_repr(arr32)


@pytest.mark.parametrize("arr", INTS + BOOLS + OTHER_DTYPES, ids=_ids(INTS + BOOLS + OTHER_DTYPES))
def test_other_dtypes_match_torch(arr):
    assert format_array(arr) == _torch_repr(arr)


GRAD_CASES = [a for a in ALL_FLOATS[::3] if a.size] + BIG_FLOATS[:3]


@pytest.mark.parametrize("arr", GRAD_CASES, ids=_ids(GRAD_CASES))
def test_grad_suffixes_match_torch(arr):
    assert format_array(arr, requires_grad=True) == _torch_repr(arr, requires_grad=True)
    assert format_array(arr, grad_fn="MulBackward0") == _torch_repr(arr, grad_fn=True)
    assert tensor_repr(FakeTensor(arr, grad_fn="MulBackward0")) == _torch_repr(arr, grad_fn=True)


@pytest.mark.parametrize("n", range(1, 14))
def test_suffix_wrapping_matches_torch(n):
    # lines of every length up to and past 80 characters, so the suffix wraps at the right place
    arr = np.arange(1, n + 1) / 7.0
    assert format_array(arr, grad_fn="MulBackward0") == _torch_repr(arr, grad_fn=True)
    assert format_array(arr, requires_grad=True) == _torch_repr(arr, requires_grad=True)
    arr2 = np.arange(1, n + 1, dtype=np.float64).reshape(1, n) * 1000
    assert format_array(arr2, grad_fn="MulBackward0") == _torch_repr(arr2, grad_fn=True)


@pytest.mark.parametrize(
    "arr",
    [np.array([1.0, 2.0]), np.arange(30.0) / 3, np.zeros((0, 2)), np.array(2.5)],
    ids=["small", "wrapping", "empty", "scalar"],
)
def test_explicit_dtype_suffix_matches_torch(arr):
    torch = pytest.importorskip("torch")
    with _torch_default_dtype(torch.float32):
        t = torch.from_numpy(arr)  # float64 while the default is float32: torch adds the suffix
        assert format_array(arr, dtype_suffix="torch.float64") == repr(t)
        t = t.detach().requires_grad_()
        expected = repr(t)
        assert format_array(arr, dtype_suffix="torch.float64", requires_grad=True) == expected
        if arr.size:
            expected = repr(t * 1)
            assert format_array(arr, dtype_suffix="torch.float64", grad_fn="MulBackward0") == (
                expected
            )


@pytest.fixture
def float32_default():
    """gradcli's default dtype as PyTorch's (float32), as in `gradcli run`."""
    from gradcli.core.tensor import Settings

    old = Settings.default_dtype
    Settings.default_dtype = np.dtype(np.float32)
    yield
    Settings.default_dtype = old


@pytest.mark.parametrize(
    ("dtype", "default", "suffix"),
    [
        (np.float32, np.float32, False),
        (np.float64, np.float32, True),
        (np.float32, np.float64, True),
        (np.float64, np.float64, False),
        (np.int64, np.float32, False),
        (np.bool_, np.float64, False),
        (np.int32, np.float32, True),
        (np.float16, np.float32, True),
    ],
)
def test_suffix_follows_the_default_dtype(dtype, default, suffix):
    arr = np.array([1.5, 2.0]).astype(dtype)
    text = format_array(arr, default_dtype=np.dtype(default))
    assert ("dtype=" in text) == suffix, text
    empty = format_array(np.zeros(0, dtype), default_dtype=np.dtype(default))
    assert ("dtype=" in empty) == (np.dtype(dtype) != np.dtype(default)), empty


def test_format_value_matches_torch(float32_default):
    torch = pytest.importorskip("torch")
    x = torch.tensor([[1.0, -2.0], [3.5, 4.0]], requires_grad=True)
    (g,) = torch.autograd.grad((x * x).sum(), x)
    assert format_value((FakeTensor(g.numpy()),)) == str((g,))
    y = x * 2
    res = y.max(dim=1)
    fake_max = MaxMin(
        FakeTensor(res.values.detach().numpy(), grad_fn="MaxBackward0"),
        FakeTensor(res.indices.numpy()),
    )
    assert format_value(fake_max) == str(res)
    res = torch.tensor([[1.0, 2.0], [3.0, 4.0]]).min(dim=0)
    fake_min = MaxMin(FakeTensor(res.values.numpy()), FakeTensor(res.indices.numpy()), "min")
    assert format_value(fake_min) == str(res)
    assert format_value(Size([2, 3])) == str(torch.Size([2, 3]))
    assert format_value(Size([])) == str(torch.Size([]))
    pair = (
        FakeTensor(np.arange(4.0, dtype=np.float32).reshape(2, 2)),
        FakeTensor(np.array(1.5, dtype=np.float32)),
    )
    assert format_value(pair) == str((torch.arange(4.0).reshape(2, 2), torch.tensor(1.5)))
    assert format_value(list(pair)) == str([torch.arange(4.0).reshape(2, 2), torch.tensor(1.5)])
