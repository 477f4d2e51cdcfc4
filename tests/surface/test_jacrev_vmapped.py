"""jacrev whose result is differentiated again (jacrev(jacrev(f)), hessian's inner jacrev)
computes its rows in one recorded backward pass with a batch of one-hot gradients, as
PyTorch's vmap over the VJP: the recorded rules broadcast the batch against the tensors that
do not depend on it, so a gradient reaching those is reduced by a sum, and a sum of -0.
is +0. (one pass a row, recorded, left the -0. of each row's product). The signs and
float32 values expected are PyTorch 2.13's (elementwise functions: no matrix product whose
bits depend on the machine); the values are checked against central differences."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.lang.program import parse

HEAD = (
    "import torch\n"
    "import torch.nn.functional as F\n"
    "from torch.func import jacrev, hessian\n"
    "x = torch.tensor([0.7, -1.3, 2.1, 0.3])\n"
)


def _env(text: str, dtype: str = "float32") -> dict:
    return parse(HEAD + text, "t.py").run(dtype=dtype).env


def _signs(t) -> str:
    a = np.asarray(t.data).ravel()
    return "".join("x" if v != 0 else ("-" if np.signbit(v) else "0") for v in a)


DIAG = "x" + "0" * 20 + "x" + "0" * 20 + "x" + "0" * 20 + "x"
SIGNS = [
    ("torch.tanh(t)", DIAG),
    ("torch.sigmoid(t)", DIAG),
    ("torch.log(t.abs() + 1)", "x-000-000-000-000-000x000-000-000-000-000-x00-000-000-000-000-0x"),
    ("1 / t", "x0---0---0---0---0---x---0---0---0---0---0x--0---0---0---0---0-x"),
    ("F.gelu(t)", DIAG),
    ("torch.sin(t) * torch.cos(t)", DIAG),
]


@pytest.mark.parametrize(("f", "want"), SIGNS)
def test_jacrev_of_jacrev_signs(f: str, want: str) -> None:
    assert _signs(_env(f"h = jacrev(jacrev(lambda t: {f}))(x)\n")["h"]) == want


@pytest.mark.parametrize(
    ("f", "want"),
    [
        (
            "(t.sin() * t.cos()).sum()",
            [-1.9708994626998901, 1.0310029983520508, 1.7431514263153076, -1.1292849779129028],
        ),
        (
            "F.gelu(t).sum()",
            [0.47150349617004395, 0.053124308586120605, -0.10600047558546066, 0.7284507751464844],
        ),
    ],
)
def test_jacrev_of_jacrev_float32_bits(f: str, want: list[float]) -> None:
    h = np.asarray(_env(f"h = jacrev(jacrev(lambda t: {f}))(x)\n")["h"].data)
    assert h.dtype == np.float32
    assert np.diag(h).tolist() == want
    off = h[~np.eye(4, dtype=bool)]
    assert not off.any() and not np.signbit(off).any()


def test_values_match_central_differences() -> None:
    env = _env(
        "x = x.double()\n"
        "W = torch.tensor([[0.5, -1.0, 0.25, 2.0], [1.5, 0.3, -0.7, 0.1]], dtype=torch.float64)\n"
        "f = lambda t: torch.tanh(W @ t).pow(2).sum() + torch.sigmoid(t).prod()\n"
        "a = jacrev(jacrev(f))(x)\n"
        "b = hessian(f)(x)\n",
        dtype="float64",
    )
    w = np.array([[0.5, -1.0, 0.25, 2.0], [1.5, 0.3, -0.7, 0.1]])
    x0 = np.array([0.7, -1.3, 2.1, 0.3])

    def f(t: np.ndarray) -> float:
        return float((np.tanh(w @ t) ** 2).sum() + np.prod(1 / (1 + np.exp(-t))))

    eps = 1e-4
    want = np.zeros((4, 4))
    for i in range(4):
        for j in range(4):
            ei, ej = np.eye(4)[i] * eps, np.eye(4)[j] * eps
            want[i, j] = (f(x0 + ei + ej) - f(x0 + ei - ej) - f(x0 - ei + ej) + f(x0 - ei - ej)) / (
                4 * eps * eps
            )
    for name in ("a", "b"):
        np.testing.assert_allclose(np.asarray(env[name].data), want, rtol=1e-6, atol=1e-7)


# jacfwd inside another transform (jacfwd(jacfwd(f)), jacrev(jacfwd(f))): its tangents'
# computations recorded, PyTorch's forward formulas on a batch of one-hot tangents (one
# reverse pass a row gave the transposed rules' zeros)
FORWARD = [
    (
        "torch.sin(t)",
        "x---------------00000x0000000000----------x--------------------x",
        "x0---0---0---0---0---x---0---0---0---0---0x--0---0---0---0---0-x",
    ),
    (
        "t ** 3",
        "x000000000000000-----x----------0000000000x00000000000000000000x",
        "x-000-000-000-000-000x000-000-000-000-000-x00-000-000-000-000-0x",
    ),
    (
        "torch.cos(t)",
        "x--------------------x----------0000000000x00000---------------x",
        "x-0---0---0---0---0--x0---0---0---0---0---x---0---0---0---0---0x",
    ),
    ("F.softsign(t)", "x---------------00000x0000000000----------x--------------------x", DIAG),
    ("torch.tanh(t)", DIAG, DIAG),
    (
        "1 / t",
        "x000000000000000-----x----------0000000000x00000000000000000000x",
        "x0---0---0---0---0---x---0---0---0---0---0x--0---0---0---0---0-x",
    ),
    ("(t ** 3).mean()", "x0000x0000x0000x", "x-000x000-x00-0x"),
]


@pytest.mark.parametrize(("f", "ff", "rf"), FORWARD)
def test_jacfwd_inside_a_transform_signs(f: str, ff: str, rf: str) -> None:
    env = _env(
        f"a = torch.func.jacfwd(torch.func.jacfwd(lambda t: {f}))(x)\n"
        f"b = jacrev(torch.func.jacfwd(lambda t: {f}))(x)\n"
    )
    assert _signs(env["a"]) == ff
    assert _signs(env["b"]) == rf


def test_jacfwd_of_jacfwd_float32_bits_and_values() -> None:
    env = _env(
        "a = torch.func.jacfwd(torch.func.jacfwd(lambda t: (t.sin() * t.cos()).sum()))(x)\n"
        "b = torch.func.jacfwd(torch.func.jacfwd(F.gelu))(x).sum((1, 2))\n"
        "x = x.double()\n"
        "c = torch.func.jacfwd(torch.func.jacfwd(lambda t: torch.tanh(t * t.sin()).sum()))(x)\n",
    )
    assert np.diag(np.asarray(env["a"].data)).tolist() == [
        -1.9708994626998901,
        1.0310029983520508,
        1.7431514263153076,
        -1.1292849779129028,
    ]
    assert np.asarray(env["b"].data).tolist() == [
        0.47150349617004395,
        0.053124308586120605,
        -0.10600047558546066,
        0.7284507751464844,
    ]
    x0 = np.array([0.7, -1.3, 2.1, 0.3])

    def f(t: np.ndarray) -> float:
        return float(np.tanh(t * np.sin(t)).sum())

    eps = 1e-4
    d2 = [(f(x0 + e) - 2 * f(x0) + f(x0 - e)) / eps**2 for e in np.eye(4) * eps]
    c = np.asarray(env["c"].data)
    np.testing.assert_allclose(np.diag(c), d2, rtol=1e-6, atol=1e-6)
    assert not c[~np.eye(4, dtype=bool)].any()
