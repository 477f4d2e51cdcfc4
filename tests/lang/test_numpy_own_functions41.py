"""A program's own NumPy (fixnumpy41): complex dtypes and scalars, and the NumPy functions
added beside them, each result compared with NumPy's own on the same data."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse("import numpy as np\nimport torch\n" + text, "t.py").run().output)


def test_complex_dtypes_and_scalars_are_numpys() -> None:
    a = np.array([1 + 2j, 3 - 1j], dtype=np.complex64)
    s = a[1]
    exprs = [
        ("type(s) is np.complex64", type(s) is np.complex64),
        ("repr(s * s)", repr(s * s)),
        ("s.real + s.imag", s.real + s.imag),
        ("repr(a.astype(complex))", repr(a.astype(complex))),
        ("repr(np.complex128(2) + s)", repr(np.complex128(2) + s)),
        ("np.conj(a)", np.conj(a)),
        ("repr(np.zeros(2, dtype=np.csingle))", repr(np.zeros(2, dtype=np.csingle))),
        ("np.double is np.float64", True),
        ("type(np.complex128(1j).real).__name__", "float64"),
        ("repr(np.float32(2.5).imag)", repr(np.float32(2.5).imag)),
    ]
    prog = "a = np.array([1 + 2j, 3 - 1j], dtype=np.complex64)\ns = a[1]\n" + "".join(
        f"print({e})\n" for e, _ in exprs
    )
    assert out(prog) == "".join(f"{v}\n" for _, v in exprs)


def test_complex_into_real_scalar_is_numpys_error() -> None:
    assert out("try:\n    np.int64(1j)\nexcept TypeError as e:\n    print(e)\n").startswith(
        "int() argument must be a string"
    )
    # a complex64 scalar beside a tensor is read as its real part (PyTorch's __float__)
    assert out("print(torch.tensor([1.0, 2.0]) + np.complex64(1 + 1j))\n") == ("tensor([2., 3.])\n")


def test_complex_scalar_type_refuses_text() -> None:
    with pytest.raises(GradcliError, match="takes a number"):
        out("np.complex128('1+2j')\n")


def test_ufunc_methods_are_numpys() -> None:
    a = np.arange(12).reshape(3, 4)
    x = np.linspace(0.1, 2.0, 5)
    counts = np.zeros(3, dtype=np.int64)
    np.add.at(counts, [0, 2, 2], 1)
    exprs = [
        ("np.add.reduce(a, axis=1)", np.add.reduce(a, axis=1)),
        ("np.maximum.accumulate([1, 3, 2, 5])", np.maximum.accumulate([1, 3, 2, 5])),
        ("np.multiply.outer([1, 2], [3, 4, 5])", np.multiply.outer([1, 2], [3, 4, 5])),
        (
            "np.add.reduceat(np.arange(8), [0, 4, 1, 5])",
            np.add.reduceat(np.arange(8), [0, 4, 1, 5]),
        ),
        ("np.subtract.reduce(x)", np.subtract.reduce(x)),
        ("repr(np.add)", repr(np.add)),
        ("isinstance(np.exp, np.ufunc), isinstance(len, np.ufunc)", "True False"),
    ]
    prog = (
        "a = np.arange(12).reshape(3, 4)\nx = np.linspace(0.1, 2.0, 5)\n"
        "c = np.zeros(3, dtype=np.int64)\nnp.add.at(c, [0, 2, 2], 1)\nprint(c)\n"
        + "".join(f"print({e})\n" for e, _ in exprs)
    )
    assert out(prog) == f"{counts}\n" + "".join(f"{v}\n" for _, v in exprs)


def test_ufunc_methods_size_and_refusals() -> None:
    from gradcli.base.limits import LimitError

    with pytest.raises(LimitError):
        out("v = np.arange(100000)\nnp.multiply.outer(v, v)\n")
    with pytest.raises(GradcliError, match="not supported"):
        out("np.add.at(torch.zeros(3), [0], 1)\n")
    assert out("try:\n    np.exp.outer([1], [2])\nexcept ValueError as e:\n    print(e)\n") == (
        "outer product only supported for binary functions\n"
    )


def test_index_and_contraction_functions_are_numpys() -> None:
    a = np.arange(24.0).reshape(2, 3, 4)
    b = np.arange(12.0).reshape(4, 3)
    exprs = [
        ("np.unravel_index(17, a.shape)", np.unravel_index(17, a.shape)),
        (
            "np.ravel_multi_index(([1, 0], [2, 1]), (2, 3))",
            np.ravel_multi_index(([1, 0], [2, 1]), (2, 3)),
        ),
        ("np.tensordot(a, b, axes=([2], [0]))[1]", np.tensordot(a, b, axes=([2], [0]))[1]),
        ("np.inner(b, b)[2]", np.inner(b, b)[2]),
        ("np.broadcast_to([1, 2], (2, 2))", np.broadcast_to([1, 2], (2, 2))),
        ("np.triu_indices(3, 1)", np.triu_indices(3, 1)),
        ("np.vander([1, 2, 3])", np.vander([1, 2, 3])),
        ("np.polydiv([1, 0, -1], [1, 1])", np.polydiv([1, 0, -1], [1, 1])),
        ("np.asin(0.5)", np.asin(0.5)),
    ]
    prog = "a = np.arange(24.0).reshape(2, 3, 4)\nb = np.arange(12.0).reshape(4, 3)\n" + "".join(
        f"print({e})\n" for e, _ in exprs
    )
    assert out(prog) == "".join(f"{v}\n" for _, v in exprs)


def test_in_place_functions_change_the_array_and_its_tensor() -> None:
    expected = np.arange(6.0).reshape(2, 3)
    np.put_along_axis(expected, np.array([[0], [2]]), -1.0, axis=1)
    prog = (
        "t = torch.arange(6.0).reshape(2, 3)\nnp.put_along_axis(t.numpy(), "
        "np.array([[0], [2]]), -1.0, axis=1)\nprint(t.numpy())\n"
    )
    assert out(prog) == f"{expected}\n"
    with pytest.raises(GradcliError, match="not supported"):
        out("np.fill_diagonal(torch.zeros(2, 2), 1)\n")
    with pytest.raises(GradcliError, match="read-only"):
        out("np.copyto(np.broadcast_to(np.zeros(2), (3, 2)), 1)\n")


def test_new_functions_are_sized_first() -> None:
    from gradcli.base.limits import LimitError

    for text in (
        "np.broadcast_to(1.0, (10**6, 10**6))",
        "np.tensordot(np.ones(10**5), np.ones(10**5), 0)",
        "np.tri(10**6)",
        "np.indices((10**4, 10**4))",
        "np.lib.stride_tricks.sliding_window_view(np.zeros(10**5), 10**4)",
    ):
        with pytest.raises(LimitError):
            out(text + "\n")


def test_text_dtype_and_error_settings_are_numpys() -> None:
    w = np.array([[0.123456, -2.5], [1e-6, 3.0]])
    exprs = [
        (
            "np.array2string(w, precision=2, separator=', ')",
            np.array2string(w, precision=2, separator=", "),
        ),
        ("np.array_repr(w, precision=3)", np.array_repr(w, precision=3)),
        ("np.array_str(w, suppress_small=True)", np.array_str(w, suppress_small=True)),
        ("repr(np.dtype('c8'))", repr(np.dtype("c8"))),
        ("np.dtype(np.uint8).itemsize", 1),
    ]
    prog = f"w = np.array({w.tolist()})\n" + "".join(f"print({e})\n" for e, _ in exprs)
    assert out(prog) == "".join(f"{v}\n" for _, v in exprs)
    # the settings a block sets are read back in it, and put back after it
    prog = (
        "with np.errstate(over='ignore'):\n    print(np.geterr()['over'])\n"
        "print(np.geterr()['over'])\n"
    )
    assert out(prog) == "ignore\nwarn\n"
    with pytest.raises(GradcliError, match="not supported"):
        out("np.seterr(all='raise')\n")
    with pytest.raises(GradcliError, match="print options|string"):
        out(
            "s = np.array2string(np.zeros(10**6), threshold=10**7, precision=8, "
            "floatmode='fixed')\n"
        )


def test_bit_generators_and_legacy_state_are_numpys() -> None:
    ss = np.random.SeedSequence(99)
    expected = [np.random.default_rng(k).integers(1000) for k in ss.spawn(2)]
    g = np.random.Generator(np.random.SFC64(4))
    prog = (
        "ss = np.random.SeedSequence(99)\n"
        "print([np.random.default_rng(k).integers(1000) for k in ss.spawn(2)])\n"
        "print(np.random.Generator(np.random.SFC64(4)).random(3))\n"
        "np.random.seed(5)\ns = np.random.get_state()\na = np.random.randn(2)\n"
        "np.random.set_state(s)\nprint((a == np.random.randn(2)).all())\n"
        "print(isinstance(np.random.default_rng(1), np.random.Generator))\n"
    )
    assert out(prog) == f"{expected}\n{g.random(3)}\nTrue\nTrue\n"
    with pytest.raises(GradcliError, match="624"):
        out("np.random.set_state(('MT19937', np.zeros(3, dtype=np.uint32), 0, 0, 0.0))\n")


def test_vectorize_calls_the_function_as_numpy_does() -> None:
    prog = (
        "seen = []\ndef f(x):\n    seen.append(type(x).__name__)\n    return x + 1\n"
        "print(repr(np.vectorize(f)(np.array([1, 2]))), seen)\n"
        "print(repr(np.vectorize(lambda a, b: a * b, otypes=[float])([1, 2], [[1], [3]])))\n"
    )
    expected_a = repr(np.vectorize(lambda x: x + 1)(np.array([1, 2])))
    expected_b = repr(np.vectorize(lambda a, b: a * b, otypes=[float])([1, 2], [[1], [3]]))
    assert out(prog) == f"{expected_a} ['int64', 'int', 'int']\n{expected_b}\n"
    with pytest.raises(GradcliError, match="not supported"):
        out("np.vectorize(lambda x: 'a')([1])\n")


def test_linalg_additions_are_numpys() -> None:
    a = np.array([[0.9, 0.1], [0.2, 0.8]])
    exprs = [
        ("np.linalg.matrix_power(a, 5)", np.linalg.matrix_power(a, 5)),
        ("np.linalg.outer([1, 2], [3])", np.linalg.outer([1, 2], [3])),
        ("np.linalg.vecdot(a, a)", np.linalg.vecdot(a, a)),
        ("np.linalg.tensordot(a, a, axes=1)", np.linalg.tensordot(a, a, axes=1)),
    ]
    prog = f"a = np.array({a.tolist()})\n" + "".join(f"print({e})\n" for e, _ in exprs)
    assert out(prog) == "".join(f"{v}\n" for _, v in exprs)


def test_type_queries_and_grids_are_numpys() -> None:
    exprs = [
        ("np.issubdtype(np.arange(2).dtype, np.integer)", True),
        ("isinstance(np.float32(1), np.floating)", True),
        ("np.result_type(np.int8, 1.0)", np.result_type(np.int8, 1.0)),
        ("np.can_cast(np.float64, np.float32)", np.can_cast(np.float64, np.float32)),
        ("list(np.ndindex(2, 1))", list(np.ndindex(2, 1))),
        ("np.fromfunction(lambda i: i * 2, (3,))", np.fromfunction(lambda i: i * 2, (3,))),
        ("np.histogram2d([0, 1], [1, 0], bins=2)[0]", np.histogram2d([0, 1], [1, 0], bins=2)[0]),
    ]
    assert out("".join(f"print({e})\n" for e, _ in exprs)) == "".join(f"{v}\n" for _, v in exprs)


def test_poly1d_is_numpys() -> None:
    p = np.poly1d([1.0, -3.0, 2.0])
    prog = (
        "p = np.poly1d([1.0, -3.0, 2.0])\nprint(p)\nprint(repr(p.deriv()))\n"
        "print(p(np.array([0.0, 3.0])), p.order)\nprint(p.integ(2))\n"
    )
    assert out(prog) == f"{p}\n{p.deriv()!r}\n{p(np.array([0.0, 3.0]))} 2\n{p.integ(2)}\n"


def test_small_helpers_are_numpys() -> None:
    x = np.linspace(-1, 1, 5)
    exprs = [
        ("np.arange(6)[np.s_[1::2]]", np.arange(6)[np.s_[1::2]]),
        ("np.fromiter((k + 1 for k in range(3)), dtype=float)", np.arange(1.0, 4.0)),
        (
            "np.piecewise(x, [x < 0], [lambda v: -v, lambda v: 2 * v])",
            np.piecewise(x, [x < 0], [lambda v: -v, lambda v: 2 * v]),
        ),
        ("np.format_float_positional(0.1 + 0.2)", np.format_float_positional(0.1 + 0.2)),
        ("np.emath.sqrt(-9)", np.emath.sqrt(-9)),
        ("np.binary_repr(-5, width=6)", np.binary_repr(-5, width=6)),
    ]
    prog = "x = np.linspace(-1, 1, 5)\n" + "".join(f"print({e})\n" for e, _ in exprs)
    assert out(prog) == "".join(f"{v}\n" for _, v in exprs)
