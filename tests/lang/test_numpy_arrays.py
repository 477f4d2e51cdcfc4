"""NumPy arrays in programs: their reductions (with axis, keepdims, ddof), shape methods,
comparisons, `@`, and numpy's functions on them give NumPy's values; sizes are checked before
the work."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse
from tests.helpers.hostnp import HOST as H

A = np.array([[0.5, -1.25, 2.0], [3.5, 0.0, -0.75]])


def run(expr: str) -> str:
    text = f"import numpy as np\na = np.array({A.tolist()})\nprint({expr})\n"
    return "".join(parse(text, "t.py").run(dtype="float32").output).rstrip("\n")


CASES = {
    "a.sum(axis=0)": lambda a: a.sum(axis=0),
    "a.mean(axis=1, keepdims=True)": lambda a: a.mean(axis=1, keepdims=True),
    "a.std()": lambda a: a.std(),
    "a.var(axis=0, ddof=1)": lambda a: a.var(axis=0, ddof=1),
    "a.max(axis=-1)": lambda a: a.max(axis=-1),
    "a.argmin()": lambda a: a.argmin(),
    "a.argmax(axis=0)": lambda a: a.argmax(axis=0),
    "a.prod(axis=(0, 1))": lambda a: a.prod(axis=(0, 1)),
    "a.cumsum(axis=1)": lambda a: a.cumsum(axis=1),
    "a.ravel()": lambda a: a.ravel(),
    "a.transpose(1, 0)": lambda a: a.transpose(1, 0),
    "a.clip(-1, 1)": lambda a: a.clip(-1, 1),
    "a[:1].squeeze()": lambda a: a[:1].squeeze(),
    "a > 0.25": lambda a: a > 0.25,
    "a == a.T.T": lambda a: a == a,
    "a @ a.T": lambda a: a @ a.T,
    "a // 1 % 2": lambda a: a // 1 % 2,
    "np.std(a, axis=0)": lambda a: np.std(a, axis=0),
    "np.argmax(a)": lambda a: np.argmax(a),
    "np.concatenate([a, a], axis=1)": lambda a: np.concatenate([a, a], axis=1),
    "np.vstack([a, a])": lambda a: np.vstack([a, a]),
    "np.stack([a, a])": lambda a: np.stack([a, a]),
    "np.where(a > 0, a, 0.0)": lambda a: np.where(a > 0, a, 0.0),
    "np.square(a)": lambda a: np.square(a),
    "np.allclose(a, a + 1e-9)": lambda a: np.allclose(a, a + 1e-9),
    "(a > 0) & (a < 2)": lambda a: (a > 0) & (a < 2),
    "(a > 3) | (a < -1)": lambda a: (a > 3) | (a < -1),
    "(a > 0) ^ True": lambda a: (a > 0) ^ True,
    "a.astype(np.int64) & 6 | 1": lambda a: a.astype(np.int64) & 6 | 1,
    "((a >= 0) & (a <= 2)).astype(np.float32)": lambda a: ((a >= 0) & (a <= 2)).astype(np.float32),
    "np.argsort(a)": lambda a: np.argsort(a),
    "a.argsort(axis=0, kind='stable')": lambda a: a.argsort(axis=0, kind="stable"),
    "np.argsort(a, axis=None)": lambda a: np.argsort(a, axis=None),
    "np.sort(a, axis=0)": lambda a: np.sort(a, axis=0),
    "np.argpartition(a.ravel(), -2)": lambda a: np.argpartition(a.ravel(), -2),
    "a.argpartition([0, 2], axis=1)": lambda a: a.argpartition([0, 2], axis=1),
    "np.sort([3, 1, 2])": lambda a: np.sort([3, 1, 2]),
    "np.zeros_like(a)": lambda a: np.zeros_like(a),
    "np.ones_like(a, dtype=np.int64)": lambda a: np.ones_like(a, dtype=np.int64),
    "np.full_like(a, 7)": lambda a: np.full_like(a, 7),
    "np.zeros_like(a, np.int32)": lambda a: np.zeros_like(a, np.int32),
    "np.unique(a > 0, return_counts=True)": lambda a: np.unique(a > 0, return_counts=True),
    "np.unique([3, 1, 3])": lambda a: np.unique([3, 1, 3]),
    "np.flip(a, axis=1)": lambda a: np.flip(a, axis=1),
    "np.expand_dims(a, 0).shape": lambda a: np.expand_dims(a, 0).shape,
    "np.reshape(a, (3, 2))": lambda a: np.reshape(a, (3, 2)),
    "np.any(a > 3)": lambda a: np.any(a > 3),
    "np.all(a > -2, axis=0)": lambda a: np.all(a > -2, axis=0),
    "np.median(a, axis=1)": lambda a: np.median(a, axis=1),
    "np.cumprod(a, axis=1)": lambda a: np.cumprod(a, axis=1),
    "np.count_nonzero(a)": lambda a: np.count_nonzero(a),
    "np.percentile(a, [25, 50])": lambda a: np.percentile(a, [25, 50]),
    "np.isclose(a, a + 1e-9)": lambda a: np.isclose(a, a + 1e-9),
    "np.array_equal(a, a.copy())": lambda a: np.array_equal(a, a.copy()),
    "np.nonzero(a)": lambda a: np.nonzero(a),
    "np.outer(a[0], a[1])": lambda a: np.outer(a[0], a[1]),
    "np.tile(a, (2, 1))": lambda a: np.tile(a, (2, 1)),
    "np.repeat(a, 2, axis=0)": lambda a: np.repeat(a, 2, axis=0),
    "np.repeat([1, 2, 3], [2, 0, 1])": lambda a: np.repeat([1, 2, 3], [2, 0, 1]),
    "np.diag(a[0], 1)": lambda a: np.diag(a[0], 1),
    "np.trace(a)": lambda a: np.trace(a),
    "np.log1p(np.abs(a))": lambda a: np.log1p(np.abs(a)),
    "np.floor(a) + np.sign(a)": lambda a: np.floor(a) + np.sign(a),
    "np.isfinite(a)": lambda a: np.isfinite(a),
    "np.arctan(a) * np.exp2(a)": lambda a: np.arctan(a) * np.exp2(a),
    "(np.inf, -np.nan, a[:, np.newaxis].shape)": lambda a: (np.inf, -np.nan, a[:, None].shape),
    "np.split(a, 3, axis=1)": lambda a: np.split(a, 3, axis=1),
    "np.split(a.ravel(), [2, 5])": lambda a: np.split(a.ravel(), [2, 5]),
    "np.split(a, 4 / 2)": lambda a: np.split(a, 4 / 2),
    "np.meshgrid(a[0], a[1, :2])": lambda a: np.meshgrid(a[0], a[1, :2]),
    "np.meshgrid(a[0], a[1], indexing='ij', sparse=True)": lambda a: np.meshgrid(
        a[0], a[1], indexing="ij", sparse=True
    ),
    "np.clip(a, a[0] - 1, [0.5, 0.0, 1.0])": lambda a: np.clip(a, a[0] - 1, [0.5, 0.0, 1.0]),
    "a.clip(np.float32(-1), a[1])": lambda a: a.clip(np.float32(-1), a[1]),
    "a.dot(a.T)": lambda a: a.dot(a.T),
    "np.convolve(a[0], [0.25] * 4)": lambda a: np.convolve(a[0], [0.25] * 4),
    "np.convolve(a[1], a[0], mode='same')": lambda a: np.convolve(a[1], a[0], mode="same"),
    "np.convolve([1, 2, 3], a[0], 'valid')": lambda a: np.convolve([1, 2, 3], a[0], "valid"),
}


@pytest.mark.parametrize("expr", list(CASES))
def test_array_expressions_give_numpys_values(expr: str) -> None:
    assert run(expr) == str(CASES[expr](A.copy()))


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("np.concatenate([np.zeros(10**6)] * 100)", "over the limit of 10,000,000"),
        ("np.zeros((10**4, 1)) > np.zeros(10**4)", "over the limit of 10,000,000"),
        ("a.sum(axis=2)", "Dimension out of range"),
        ("a.squeeze(0)", "cannot select an axis to squeeze out"),
        ("np.zeros(0).max()", "zero-size array"),
        ("np.zeros((10**4, 1), dtype=bool) & np.zeros(10**4, dtype=bool)", "over the limit"),
        ("a & 1", "ufunc 'bitwise_and' not supported for the input types"),
        ("(a > 0) | 0.5", "ufunc 'bitwise_or' not supported for the input types"),
        ("(a > 0) & 'x'", "unsupported operand type"),
        ("a.astype(np.uint8) ^ 300", "Python integer 300 out of bounds for uint8"),
        ("np.argpartition(a, 3)", "kth(=3"),
        ("np.argpartition(a, 1.5)", "Partition index must be integer"),
        ("np.argsort(a, axis=2)", "axis 2 is out of bounds for array of dimension 2"),
        ("a.argsort(kind='fast')", "sort kind must be one of"),
        ("np.tile(a, (10**4, 10**3))", "over the limit of 10,000,000"),
        ("np.repeat(a, 10**7)", "over the limit of 10,000,000"),
        ("np.outer(np.zeros(10**4), np.zeros(10**4))", "over the limit of 10,000,000"),
        ("np.diag(np.zeros(10**4))", "over the limit of 10,000,000"),
        ("np.percentile(np.zeros(10**4), np.zeros(10**4))", "over the limit of 10,000,000"),
        ("np.tile(a, -1)", "negative dimensions are not allowed"),
        ("np.convolve(np.zeros(10**5), np.zeros(10**5))", "multiply-adds of numpy.convolve"),
        ("np.convolve([], [1.0])", "a cannot be empty"),
        ("np.convolve(a[0], a[1], mode='bad')", "mode must be one of"),
        ("np.flip(a, axis=5)", "axis 5 is out of bounds"),
        ("np.full_like(a, 'x')", "expected a number, not str"),
        ("np.unique(print)", "takes arrays, numbers or lists"),
        ("np.repeat(a, 2.5)", "cannot be interpreted as an integer"),
        ("np.split(a, 4)", "array split does not result in an equal division"),
        ("np.split(a, 1.5)", "array split does not result in an equal division"),
        ("np.split(np.zeros(0), 10**6)", "into over 100,000 sections is not supported"),
        ("np.meshgrid(np.zeros(4000), np.zeros(4000))", "over the limit of 10,000,000"),
        ("np.meshgrid(a[0], indexing='xx')", "Valid values for `indexing` are 'xy' and 'ij'"),
        ("np.clip(a, np.zeros(4), 1.0)", "could not be broadcast together"),
        ("np.clip(np.zeros((4000, 1)), np.zeros(4000), 1)", "over the limit of 10,000,000"),
        ("np.clip(a, 'x', 1)", "takes numbers or numeric arrays, not str"),
    ],
)
def test_array_misuse_is_refused_before_the_work(expr: str, message: str) -> None:
    with pytest.raises(GradcliError, match=message.replace("(", r"\(")):
        run(expr)


def program(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def test_array_indexed_by_arrays_as_numpy_does() -> None:
    # Integer positions (a shuffled np.arange), boolean masks read and written, a 0-d index.
    out = program(
        "import numpy as np\n"
        "x = np.array([[0.5, 1.0], [-2.0, 3.0], [4.0, -5.0]])\n"
        "idx = np.array([2, 0])\n"
        "y = np.ones(3)\n"
        "y[x[:, 0] * x[:, 1] < 0] = 0\n"
        "print(x[idx], y, x[idx, 1], x[np.array(1)])\n"
    )
    x = np.array([[0.5, 1.0], [-2.0, 3.0], [4.0, -5.0]])
    y = np.ones(3)
    y[x[:, 0] * x[:, 1] < 0] = 0
    assert out == f"{x[[2, 0]]} {y} {x[[2, 0], 1]} {x[1]}\n"


def test_array_indexed_by_a_float_array_is_refused() -> None:
    with pytest.raises(GradcliError, match="arrays used as indices must be of integer"):
        program("import numpy as np\nx = np.ones(3)\nprint(x[np.array([0.5])])\n")


def test_augmented_assignment_changes_the_array_in_place() -> None:
    # `a += 1` is NumPy's in-place operation: the tensor torch.from_numpy / as_tensor made of
    # the array and every name bound to it see the change; a list's += extends it.
    out = program(
        "import numpy as np\nimport torch\n"
        "a = np.ones(3)\nb = torch.from_numpy(a)\nc = torch.as_tensor(a)\nd = a\n"
        "a += 1\na *= np.array([1.0, 2.0, 3.0])\n"
        "xs = [1]\nys = xs\nxs += [2]\n"
        "print(b, c, d, ys)\n"
    )
    assert out == (
        "tensor([2., 4., 6.], dtype=torch.float64) tensor([2., 4., 6.], dtype=torch.float64) "
        "[2. 4. 6.] [1, 2]\n"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a = np.arange(3)\na += 1.5", "Cannot cast ufunc 'add' output"),
        ("a = np.ones(3)\na += np.ones((2, 3))", "non-broadcastable output operand"),
        ("a = np.ones(3)\na += 'x'", "unsupported operand"),
    ],
)
def test_in_place_array_misuse_is_numpys_error(text: str, message: str) -> None:
    with pytest.raises(GradcliError, match=message):
        program("import numpy as np\n" + text + "\n")


# A float32 array's element, sum or np.dot is a NumPy float32: it prints with float32's
# shortest digits, computes in float32 with Python numbers (NumPy 2's weak scalars), compares
# as NumPy, has a 0-d array's methods, and is its Python value in math, float(), round().
SCALAR_LINES = [
    "print(b[0], b.sum(), np.sum(b), b[0] + 1.0, [b[1]], b[0] < 0.1, -b[0], abs(-b[0]))",
    "print(2 ** b[1], b[1] ** 2, 1 - b[1], b * b[0], -b[0] + math.log(3.0), b[0] / 3)",
    "print(np.dot(b, b), np.dot(b, b).mean(), b[1].item(), float(b[0]), round(b[1], 1))",
    "print(np.exp(b[0]), '%.4f' % b[0], '{}'.format(b[0]), f'{b[1]:.3f}', str(b[0]))",
    "print(math.sqrt(b[1]), max(b[0], b[1]), sum([b[0], b[1]]), round(b[0]), type(b[0]))",
    "print('%.3f' % np.array(2.5, dtype=np.float32), x)",
]


@pytest.mark.parametrize("line", SCALAR_LINES)
def test_numpy_float32_scalars_are_numpys(line: str) -> None:
    import contextlib
    import io
    import math

    setup = (
        "import math\nimport numpy as np\n"
        "b = np.array([0.1, 0.2], dtype=np.float32)\nx = 0.0\nx -= 0.1 * b[0]\n"
    )
    want = io.StringIO()
    with contextlib.redirect_stdout(want), np.errstate(all="ignore"):
        exec(setup + line, {"math": math})  # noqa: S102 - NumPy's own answer
    assert program(setup + line + "\n") == want.getvalue()


def test_np_abs_of_integers_stays_integer() -> None:
    assert program("import numpy as np\nprint(np.abs([-1, -2, 1, 2]), np.abs(-3))\n") == (
        f"{np.abs([-1, -2, 1, 2])} {np.abs(-3)}\n"
    )


FINFO_LINES = [
    "print(repr(np.finfo(np.float32)), np.finfo(np.float64).eps, np.finfo(float).max)",
    "f = np.finfo(np.float32)\nprint(f.eps, f.max, f.min, f.tiny, f.resolution, f.bits, f.dtype)",
    "f = np.finfo(np.float16)\nprint(f.precision, f.smallest_normal, f.epsneg)",
    "print(np.finfo(np.float16).smallest_subnormal)",
    "print(np.finfo(np.float16))",
    "print(float(np.finfo(np.float32).eps), np.finfo('float64').tiny, np.finfo(3.0).eps)",
    "print(np.log(np.finfo(np.float64).tiny), 1.0 + np.finfo(np.float32).eps > 1.0)",
    "print(np.finfo(np.array([1.0], dtype=np.float32).dtype).max)",
]


@pytest.mark.parametrize("line", FINFO_LINES)
def test_numpy_finfo_is_numpys(line: str) -> None:
    import contextlib
    import io

    setup = "import numpy as np\n"
    want = io.StringIO()
    with contextlib.redirect_stdout(want):
        exec(setup + line)  # noqa: S102 - NumPy's own answer
    assert program(setup + line + "\n") == want.getvalue()


@pytest.mark.parametrize(
    "arg, words",
    [
        ("np.int32", "data type <class 'numpy.int32'> not inexact"),
        ("int", "data type <class 'numpy.int64'> not inexact"),
        ("'xyz'", "data type <class 'numpy.str_'> not inexact"),
        ("torch.float32", "data type <class 'numpy.object_'> not inexact"),
        ("torch.ones(2)", "data type <class 'numpy.object_'> not inexact"),
        ("np.ones(2)", "data type <class 'numpy.object_'> not inexact"),
        ("[1.0]", "data type <class 'numpy.object_'> not inexact"),
    ],
)
def test_numpy_finfo_of_what_is_not_a_float_dtype_is_numpys_error(arg: str, words: str) -> None:
    # (NumPy's own words for each, checked with /work/torchenv; a long string is not parsed)
    text = (
        "import numpy as np\nimport torch\n"
        f"try:\n    np.finfo({arg})\nexcept ValueError as e:\n    print(e)\n"
    )
    assert program(text) == words + "\n"


def test_numpy_finfo_with_torch() -> None:
    # torch takes NumPy's float32 scalar as a number (PyTorch 2.13's output)
    text = (
        "import numpy as np\nimport torch\n"
        "t = torch.ones(2) * np.finfo(np.float32).eps\nprint(t, t.dtype)\n"
        "print(torch.clamp(torch.tensor([1e-9, 1.0]), min=np.finfo(np.float32).eps))\n"
    )
    assert program(text) == (
        "tensor([1.1921e-07, 1.1921e-07]) torch.float32\ntensor([1.1921e-07, 1.0000e+00])\n"
    )


# float32 data where NumPy's own exp, tanh, sin... and its BLAS products differ from torch's in
# the last bit: the functions of `np` on arrays give NumPy's values, not torch's (the host's
# NumPy's: `H`, tests/helpers/hostnp.py).
_F32 = np.random.default_rng(7).uniform(-6.0, 6.0, size=(6, 5)).astype(np.float32)
_F32_CASES = {
    "np.exp(x / 2)": lambda x: H.exp(x / 2),
    "np.tanh(x)": lambda x: np.tanh(x),
    "np.sin(x + 0.3)": lambda x: np.sin(x + 0.3),
    "np.cos(x)": lambda x: np.cos(x),
    "np.log(np.abs(x) + 1)": lambda x: H.log(np.abs(x) + 1),
    "np.sqrt(np.abs(x))": lambda x: np.sqrt(np.abs(x)),
    "np.sin(x.astype(np.float64))": lambda x: np.sin(x.astype(np.float64)),
    "np.dot(x, x.T)": lambda x: H.dot(x, x.T),
    "np.matmul(x.T, x)": lambda x: H.matmul(x.T, x),
    "x @ x[0]": lambda x: H.matmul(x, x[0]),
    "x[1] @ x[2]": lambda x: H.matmul(x[1], x[2]),
    "np.dot(x[0], x[3])": lambda x: H.dot(x[0], x[3]),
    "np.matmul(np.stack([x, x]), x.T)": lambda x: H.matmul(np.stack([x, x]), x.T),
}


@pytest.mark.parametrize("expr", list(_F32_CASES))
def test_numpy_functions_of_float32_arrays_are_numpys_own(expr: str) -> None:
    text = (
        "import numpy as np\n"
        f"x = np.array({_F32.tolist()}, dtype=np.float32)\n"
        f"r = {expr}\n"
        "print(np.asarray(r).tolist(), np.asarray(r).dtype)\n"
    )
    want = np.asarray(_F32_CASES[expr](_F32.copy()))
    assert program(text) == f"{want.tolist()} {want.dtype}\n"


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("np.ones((3, 4)) @ np.ones(3)", "matmul: Input operand 1 has a mismatch"),
        ("np.dot(np.ones((3, 4)), np.ones(3))", "shapes (3,4) and (3,) not aligned"),
        ("np.matmul(2.0, np.ones(3))", "does not have enough dimensions"),
        ("np.ones((4000, 1)) @ np.ones((1, 4000))", "over the limit of 10,000,000"),
        ("np.ones((3000, 3000)) @ np.ones((3000, 3000))", "over the limit"),
    ],
)
def test_numpy_matrix_products_refused_in_numpys_words_or_before_the_work(
    expr: str, message: str
) -> None:
    with pytest.raises(GradcliError, match=message.replace("(", r"\(").replace(")", r"\)")):
        run(expr)


def test_format_specs_of_arrays_as_numpys() -> None:
    """A 0-d array formats as its element; another array with a spec is NumPy's TypeError."""
    import contextlib
    import io

    program = (
        "import numpy as np\na = np.array(3.14159)\n"
        "print(f'{a:.2f}', '{:.3e}'.format(np.array(2.5, dtype=np.float32)))\n"
        "print(f'{np.array(7):5d}|')\n"
        "print(f'{a}', f'{np.float32(0.1):.10f}', f'{np.array([1.5, 2]):}')\n"
        "try:\n    print(f'{np.array([1.0, 2.0]):.2f}')\nexcept TypeError as e:\n    print(e)\n"
    )
    want = io.StringIO()
    with contextlib.redirect_stdout(want):
        exec(program, {})
    assert "".join(parse(program, "t.py").run(dtype="float32").output) == want.getvalue()
