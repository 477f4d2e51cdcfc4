"""nn.RNN / nn.LSTM / nn.GRU and their cells: shapes, parameter names and order, PyTorch's
initial weights, the grad_fn names a program prints, the values against recorded PyTorch 2.13
output, float64 gradients against central finite differences, and the checks in PyTorch's
words. The recorded numbers come from /work/torchenv (PyTorch 2.13 CPU) running the same
program text."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.tensor import Settings, Tensor
from gradcli.lang.program import parse
from gradcli.surface import recurrent as RC


@pytest.fixture(autouse=True)
def _settings_restored() -> Any:
    saved = (Settings.default_dtype, Settings.draw_dtype, Settings.seed)
    yield
    Settings.default_dtype, Settings.draw_dtype, Settings.seed = saved


def out(text: str, dtype: str = "float32") -> str:
    head = "import torch\nimport torch.nn as nn\n"
    return "".join(parse(head + text, "t.py").run(dtype=dtype).output)


def numbers(text: str) -> np.ndarray:
    return np.array([float(v) for v in re.findall(r"-?\d+\.\d+(?:e[-+]\d+)?", text)])


def test_lstm_parameters_are_pytorchs_draws_in_pytorchs_order() -> None:
    got = out(
        "torch.set_printoptions(precision=8)\ntorch.manual_seed(0)\nm = nn.LSTM(3, 4)\n"
        "print([n for n, _ in m.named_parameters()])\n"
        "print(m.weight_ih_l0[:2].tolist(), m.bias_hh_l0[-3:].tolist())\n"
    )
    lines = got.split("\n")
    assert lines[0] == "['weight_ih_l0', 'weight_hh_l0', 'bias_ih_l0', 'bias_hh_l0']"
    # PyTorch 2.13: torch.manual_seed(0); nn.LSTM(3, 4)
    want = [-0.00374341, 0.26822180, -0.41152257, -0.36796951, -0.19257718, 0.13407868]
    want += [0.31752795, 0.47470677, -0.03616083]
    np.testing.assert_allclose(numbers(lines[1]), want, rtol=0, atol=5e-9)


def test_gru_stack_shapes_names_and_values() -> None:
    got = out(
        "torch.set_printoptions(precision=8)\ntorch.manual_seed(1)\n"
        "g = nn.GRU(2, 3, num_layers=2, bidirectional=True, batch_first=True)\nprint(g)\n"
        "print([tuple(p.shape) for p in g.parameters()])\n"
        "x = torch.randn(2, 4, 2)\nout, h = g(x)\nprint(tuple(out.shape), tuple(h.shape))\n"
        "print(out[1, -1].tolist(), h[:, 0].tolist())\n"
        "print(out.grad_fn.name(), h.grad_fn.name(), h[-1].grad_fn.name())\n"
        "print([n for n, _ in g.named_parameters()][4:8])\n"
    )
    lines = got.split("\n")
    assert lines[0] == "GRU(2, 3, num_layers=2, batch_first=True, bidirectional=True)"
    assert lines[1] == str([(9, 2), (9, 3), (9,), (9,)] * 2 + [(9, 6), (9, 3), (9,), (9,)] * 2)
    assert lines[2] == "(2, 4, 6) (4, 2, 3)"
    # PyTorch 2.13 (its matrix products add the 6 inputs of layer 1 in another order than
    # NumPy's: a few float32 ulps apart there; layer 0's values are equal)
    want = [0.12949428, 0.46427166, 0.39221174, -0.28052819, 0.15747111, -0.06341346]
    want += [-0.57935697, 0.53690100, -0.11333313, 0.08044244, 0.51449162, 0.46871996]
    want += [0.04616986, 0.47431520, 0.43392813, -0.59449100, 0.14042352, -0.04402954]
    np.testing.assert_allclose(numbers(lines[3]), want, rtol=0, atol=1e-7)
    np.testing.assert_allclose(numbers(lines[3])[6:12], want[6:12], rtol=0, atol=5e-9)  # layer 0
    assert lines[4] == "TransposeBackward1 StackBackward0 SelectBackward0"
    assert lines[5] == "['weight_ih_l0_reverse', 'weight_hh_l0_reverse', 'bias_ih_l0_reverse', " + (
        "'bias_hh_l0_reverse']"
    )


def test_rnn_relu_dropout_unbatched_and_gru_cell_are_pytorchs_bits() -> None:
    got = out(
        "torch.set_printoptions(precision=8)\ntorch.manual_seed(2)\n"
        "r = nn.RNN(2, 3, 2, 'relu', dropout=0.5)\nx = torch.randn(3, 2)\no, h = r(x)\n"
        "print(r)\nprint(o.tolist(), h.tolist(), o.grad_fn.name())\n"
        "c = nn.GRUCell(2, 3)\nprint(c(x[0]).tolist())\n"
    )
    lines = got.split("\n")
    assert lines[0] == "RNN(2, 3, num_layers=2, dropout=0.5)"
    # PyTorch 2.13: the dropout mask between the layers drawn as PyTorch draws it
    want = [0.0, 0.03033082, 0.0, 0.0, 0.04406767, 0.0, 0.0, 0.25092301, 0.0]
    want += [0.0, 0.67904115, 0.0, 0.0, 0.25092301, 0.0]
    np.testing.assert_allclose(numbers(lines[1]), want, rtol=0, atol=5e-9)
    assert lines[1].endswith("SqueezeBackward1")
    np.testing.assert_allclose(
        numbers(lines[2]), [0.06151507, 0.15161379, -0.45237607], rtol=0, atol=5e-9
    )


def test_lstm_grad_fn_names_follow_pytorchs_cpu_paths() -> None:
    got = out(
        "x = torch.randn(5, 2, 3)\n"
        "o, (h, c) = nn.LSTM(3, 4)(x)\n"
        "print(o.grad_fn.name(), h.grad_fn.name(), c.grad_fn.name())\n"
        "o, (h, c) = nn.LSTM(3, 4, batch_first=True)(x)\nprint(o.grad_fn.name())\n"
        "o, (h, c) = nn.LSTM(3, 4, bidirectional=True)(x)\nprint(o.grad_fn.name())\n"
        "o, (h, c) = nn.LSTM(3, 4).double()(x.double())\nprint(o.grad_fn.name())\n"
        "o, h = nn.GRU(3, 4)(x)\nprint(o.grad_fn.name(), h[-1].grad_fn.name())\n"
        "print(nn.LSTMCell(3, 4)(x[0])[0].grad_fn.name(), nn.GRUCell(3, 4)(x[0]).grad_fn.name())\n"
        "print(nn.RNNCell(3, 4)(x[0]).grad_fn.name(), nn.RNN(3, 4)(x)[0].grad_fn.name())\n"
    )
    assert got.split("\n")[:-1] == [
        "MkldnnRnnLayerBackward0 StackBackward0 StackBackward0",
        "TransposeBackward0",
        "CatBackward0",
        "StackBackward0",
        "StackBackward0 SelectBackward0",
        "MulBackward0 AddBackward0",
        "TanhBackward0 StackBackward0",
    ]


def test_shapes_of_every_kind() -> None:
    got = out(
        "x = torch.randn(5, 2, 3)\n"
        "o, (h, c) = nn.LSTM(3, 6, num_layers=3, proj_size=2, bidirectional=True)(x)\n"
        "print(o.shape, h.shape, c.shape)\n"
        "o, (h, c) = nn.LSTM(3, 4, batch_first=True)(x[0])\nprint(o.shape, h.shape, c.shape)\n"
        "o, h = nn.GRU(3, 4, 2)(x, torch.zeros(2, 2, 4))\nprint(o.shape, h.shape)\n"
        "h, c = nn.LSTMCell(3, 4)(x[0, 0])\nprint(h.shape, c.shape)\n"
        "print(len(nn.GRU(3, 4, 2, bidirectional=True).all_weights))\n"
    )
    assert got.split("\n")[:-1] == [
        "torch.Size([5, 2, 4]) torch.Size([6, 2, 2]) torch.Size([6, 2, 6])",
        "torch.Size([2, 4]) torch.Size([1, 4]) torch.Size([1, 4])",
        "torch.Size([5, 2, 4]) torch.Size([2, 2, 4])",
        "torch.Size([4]) torch.Size([4])",
        "4",
    ]


def _central_differences(
    loss: Any, t: Tensor, eps: float = 1e-6, at: np.ndarray | None = None
) -> np.ndarray:
    """The central differences of `loss` in each element of `t` (or those of flat indices
    `at`, in that order)."""
    flat = t.data.reshape(-1)
    where = np.arange(flat.size) if at is None else at
    g = np.zeros(where.size)
    for j, i in enumerate(where):
        keep = flat[i]
        flat[i] = keep + eps
        up = float(loss().data)
        flat[i] = keep - eps
        down = float(loss().data)
        flat[i] = keep
        g[j] = (up - down) / (2 * eps)
    return g if at is not None else g.reshape(t.data.shape)


# Elements of a tensor checked by differences, spread evenly over it: every gate's block of
# rows of a stacked weight has two (a rule that is off in one gate, one direction or one layer
# shows), at two loss evaluations an element (the 2-layer bidirectional LSTM's every element
# took 30-80 s).
_PER_TENSOR = 8


CASES = [
    (RC.LSTM, {"num_layers": 2, "bidirectional": True}),
    (RC.LSTM, {"proj_size": 2, "batch_first": True}),
    (RC.GRU, {"num_layers": 2, "bias": False}),
    (RC.GRU, {"bidirectional": True}),
    (RC.RNN, {"nonlinearity": "tanh", "num_layers": 2}),
    (RC.RNN, {"nonlinearity": "relu", "bidirectional": True}),
]


@pytest.mark.parametrize("cls,kw", CASES, ids=lambda v: getattr(v, "__name__", str(v)))
def test_float64_gradients_equal_central_differences(cls: type, kw: dict) -> None:
    Settings.default_dtype = np.dtype(np.float64)
    m = cls(3, 4, dtype=np.float64, **kw)
    rng = np.random.default_rng(0)
    seq = (2, 4) if kw.get("batch_first") else (4, 2)
    x = Tensor(rng.normal(size=(*seq, 3)), requires_grad=True)
    lstm = cls is RC.LSTM
    d = 2 if kw.get("bidirectional") else 1
    n = kw.get("num_layers", 1) * d
    h0 = Tensor(rng.normal(size=(n, 2, kw.get("proj_size") or 4)), requires_grad=True)
    c0 = Tensor(rng.normal(size=(n, 2, 4)), requires_grad=True)
    weights = Tensor(rng.normal(size=(*seq, 4 * d)))

    def loss() -> Tensor:
        o, h = m(x, (h0, c0) if lstm else h0)
        hn = h[0] if lstm else h
        r = (o * Tensor(weights.data[..., : o.shape[-1]])).sum() + (hn * hn).sum()
        return r + (h[1] ** 2).sum() if lstm else r

    loss().backward()
    checked = [x, h0, *m.parameters()] + ([c0] if lstm else [])
    for t in checked:
        n = t.data.size
        at = np.linspace(0, n - 1, min(n, _PER_TENSOR)).round().astype(np.intp)
        np.testing.assert_allclose(
            t.grad.data.reshape(-1)[at], _central_differences(loss, t, at=at), atol=1e-7, rtol=1e-6
        )


@pytest.mark.parametrize("cls", [RC.RNNCell, RC.LSTMCell, RC.GRUCell], ids=lambda c: c.__name__)
def test_cell_gradients_equal_central_differences(cls: type) -> None:
    Settings.default_dtype = np.dtype(np.float64)
    m = cls(3, 4, dtype=np.float64)
    rng = np.random.default_rng(1)
    x = Tensor(rng.normal(size=(2, 3)), requires_grad=True)
    h = Tensor(rng.normal(size=(2, 4)), requires_grad=True)
    c = Tensor(rng.normal(size=(2, 4)), requires_grad=True)

    def loss() -> Tensor:
        r = m(x, (h, c)) if cls is RC.LSTMCell else m(x, h)
        if isinstance(r, tuple):
            return (r[0] * r[0]).sum() + (r[1] * 3).sum()
        return (r * r).sum() + r.sum()

    loss().backward()
    for t in [x, h, *m.parameters()] + ([c] if cls is RC.LSTMCell else []):
        np.testing.assert_allclose(t.grad.data, _central_differences(loss, t), atol=1e-7, rtol=1e-6)


ERRORS = [
    ("nn.LSTM(3, 0)", "hidden_size must be greater than zero"),
    ("nn.LSTM(3, 4, num_layers=0)", "num_layers must be greater than zero"),
    ("nn.LSTM(3, 4.0)", "hidden_size should be of type int, got: float"),
    ("nn.LSTM(3.0, 4)", "input_size should be of type int, got: float"),
    ("nn.LSTM(3, 4, num_layers=2.0)", "'float' object cannot be interpreted as an integer"),
    ("nn.LSTM(3, 4, dropout=1.5)", "dropout should be a number in range [0, 1]"),
    ("nn.LSTM(3, 4, proj_size=4)", "proj_size has to be smaller than hidden_size"),
    ("nn.GRU(3, 4, proj_size=2)", "proj_size argument is only supported for LSTM"),
    ("nn.RNN(3, 4, nonlinearity='foo')", "Unknown nonlinearity 'foo'. Select from 'tanh'"),
    ("nn.LSTM(3, 4)(torch.randn(5))", "LSTM: Expected input to be 2D or 3D, got 1D instead"),
    ("nn.RNN(3, 4)(torch.randn(5))", "RNN: Expected input to be 2D or 3D, got 1D tensor instead"),
    (
        "nn.GRU(3, 4)(torch.randn(5, 2, 7))",
        "input.size(-1) must be equal to input_size. Expected 3, got 7",
    ),
    (
        "nn.LSTM(3, 4)(torch.randn(5, 2, 3), (torch.zeros(1, 3, 4), torch.zeros(1, 2, 4)))",
        "Expected hidden[0] size (1, 2, 4), got [1, 3, 4]",
    ),
    (
        "nn.LSTM(3, 4)(torch.randn(5, 2, 3), (torch.zeros(1, 2, 4), torch.zeros(1, 2, 5)))",
        "Expected hidden[1] size (1, 2, 4), got [1, 2, 5]",
    ),
    (
        "nn.GRU(3, 4)(torch.randn(5, 2, 3), torch.zeros(2, 2, 4))",
        "Expected hidden size (1, 2, 4), got [2, 2, 4]",
    ),
    (
        "nn.GRU(3, 4)(torch.randn(5, 2, 3), torch.zeros(2, 4))",
        "For batched 3-D input, hx should also be 3-D but got 2-D tensor",
    ),
    (
        "nn.LSTM(3, 4)(torch.randn(5, 3), (torch.zeros(1, 1, 4), torch.zeros(1, 4)))",
        "For unbatched 2-D input, hx and cx should also be 2-D but got (3-D, 2-D) tensors",
    ),
    (
        "nn.GRU(3, 4)(torch.randn(5, 2, 3).double())",
        "RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert "
        "input: input.to(torch.float32), or convert model: model.to(torch.float64)",
    ),
    ("nn.GRU(3, 4)(torch.randn(0, 2, 3))", "Expected sequence length to be larger than 0 in RNN"),
    ("nn.RNNCell(3, 4)(torch.randn(2, 3, 3))", "RNNCell: Expected input to be 1D or 2D, got 3D"),
    ("nn.LSTMCell(3, 4)(torch.randn(2, 5))", "input has inconsistent input_size: got 5 expected 3"),
    (
        "nn.GRUCell(3, 4)(torch.randn(2, 3), torch.zeros(3, 4))",
        "Input batch size 2 doesn't match hidden0 batch size 3",
    ),
    (
        "nn.GRUCell(3, 4)(torch.randn(2, 3), torch.zeros(2, 5))",
        "hidden0 has inconsistent hidden_size: got 5, expected 4",
    ),
    (
        "nn.LSTMCell(3, 4)(torch.randn(2, 3), torch.zeros(2, 4))",
        "lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not Tensor",
    ),
]


@pytest.mark.parametrize("code,message", ERRORS, ids=[c for c, _ in ERRORS])
def test_misuse_is_reported_in_pytorchs_words(code: str, message: str) -> None:
    with pytest.raises(GradcliError) as e:
        out(f"r = {code}\n")
    assert message in str(e.value)


def test_sizes_are_checked_before_anything_is_drawn() -> None:
    for code in ("nn.LSTM(3, 10**6)", "nn.GRU(3, 4, num_layers=10**12)", "nn.RNNCell(10**9, 4)"):
        with pytest.raises(GradcliError, match="limit|exceeds|too"):
            out(f"r = {code}\n")


def test_live_against_pytorch() -> None:
    torch = pytest.importorskip("torch")
    text = (
        "torch.manual_seed(3)\nm = nn.GRU(3, 4, num_layers=2, dropout=0.25)\n"
        "x = torch.randn(6, 2, 3)\no, h = m(x)\nprint(o[0].tolist(), h.tolist())\n"
        "c = nn.LSTMCell(3, 4)\nprint([t.tolist() for t in c(x[1])])\n"
    )
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(text, {"torch": torch, "nn": torch.nn})  # noqa: S102 - the test's own program
    np.testing.assert_allclose(numbers(out(text)), numbers(buf.getvalue()), rtol=0, atol=1e-7)


@pytest.mark.parametrize("cls", [RC.LSTM, RC.GRU], ids=lambda c: c.__name__)
def test_packed_gradients_equal_central_differences(cls: type) -> None:
    """A packed, unsorted batch through a bidirectional layer and back to padding: the
    gradients of the padded input, the initial states and a reverse-direction weight."""
    from gradcli.surface import packed as P

    Settings.default_dtype = np.dtype(np.float64)
    m = cls(1, 1, bidirectional=True, dtype=np.float64)
    rng = np.random.default_rng(2)
    x = Tensor(rng.normal(size=(3, 3, 1)), requires_grad=True)
    h0 = Tensor(rng.normal(size=(2, 3, 1)), requires_grad=True)
    c0 = Tensor(rng.normal(size=(2, 3, 1)), requires_grad=True)
    weights = Tensor(rng.normal(size=(3, 4, 2)))
    lstm = cls is RC.LSTM

    def loss() -> Tensor:
        p = P.pack_padded_sequence(x, [1, 3, 2], batch_first=True, enforce_sorted=False)
        o, h = m(p, (h0, c0) if lstm else h0)
        padded, _ = P.pad_packed_sequence(o, batch_first=True, total_length=4)
        hn = h[0] if lstm else h
        r = (padded * weights).sum() + (hn * hn * Tensor(np.arange(6.0).reshape(2, 3, 1))).sum()
        return r + (h[1] ** 2).sum() if lstm else r

    loss().backward()
    checked = [x, h0, m._parameters["weight_hh_l0_reverse"]] + ([c0] if lstm else [])
    for t in checked:
        np.testing.assert_allclose(t.grad.data, _central_differences(loss, t), atol=1e-7, rtol=1e-6)
