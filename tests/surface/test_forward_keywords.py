"""torch.nn's modules called with their inputs by keyword, under PyTorch's forward's
parameter names (`nn.Linear(2, 3)(input=x)`, `nn.LSTM(...)(input=x, hx=h)`), and the calls
that do not fit in Python's words as PyTorch's forward raises them (checked with
/work/torchenv)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse
from gradcli.surface.callerrors import forward_params

# (module, its inputs): each called positionally and then with every input by keyword
MODULES = [
    ("nn.Linear(3, 2)", "x"),
    ("nn.Bilinear(3, 3, 2)", "x, x"),
    ("nn.Conv1d(2, 1, 2)", "x.reshape(1, 2, 3)"),
    ("nn.Conv2d(1, 2, 2)", "x.reshape(1, 1, 2, 3)"),
    ("nn.ConvTranspose1d(2, 1, 2)", "x.reshape(1, 2, 3)"),
    ("nn.MaxPool1d(2)", "x"),
    ("nn.AvgPool2d(1)", "x.unsqueeze(0)"),
    ("nn.AdaptiveAvgPool1d(1)", "x"),
    ("nn.BatchNorm1d(3)", "x"),
    ("nn.LayerNorm(3)", "x"),
    ("nn.GroupNorm(1, 3)", "x"),
    ("nn.Embedding(5, 2)", "torch.tensor([1, 4])"),
    ("nn.RNN(3, 2)", "x.unsqueeze(1), torch.zeros(1, 1, 2)"),
    ("nn.GRU(3, 2)", "x.unsqueeze(1)"),
    ("nn.LSTMCell(3, 2)", "x, (torch.zeros(2, 2), torch.ones(2, 2))"),
    ("nn.Dropout(0.0)", "x"),
    ("nn.Flatten()", "x"),
    ("nn.Identity()", "x"),
    ("nn.Sequential(nn.Linear(3, 1), nn.Tanh())", "x"),
    ("nn.MultiheadAttention(3, 1)", "x, x, x"),
    ("nn.MSELoss()", "x, x.flip(0)"),
    ("nn.CrossEntropyLoss()", "x, torch.tensor([0, 2])"),
    ("nn.Softmax(dim=1)", "x"),
    ("nn.CosineSimilarity()", "x, x.flip(1)"),
]


def out(text: str) -> str:
    head = "import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\nx = torch.randn(2, 3)\n"
    return "".join(parse(head + text, "t.py").run(dtype="float32").output)


@pytest.mark.parametrize("make, inputs", MODULES, ids=[m for m, _ in MODULES])
def test_inputs_by_pytorchs_names_give_the_positional_result(make: str, inputs: str) -> None:
    name = make[3:].split("(")[0]
    got = forward_params(name)
    assert got is not None, name
    names = [n for n, kind, _ in got[2] if kind in ("P", "PK")]
    args = [a.strip() for a in _split(inputs)]
    keywords = ", ".join(f"{n}={a}" for n, a in zip(names, args))
    mixed = ", ".join(args[:1] + [f"{n}={a}" for n, a in zip(names[1:], args[1:])])
    text = (
        f"m = {make}\np = m({inputs})\nk = m({keywords})\nh = m({mixed})\n"
        "def same(a, b):\n"
        "    if isinstance(a, torch.Tensor):\n        return torch.equal(a, b)\n"
        "    if a is None:\n        return b is None\n"
        "    return all(same(u, v) for u, v in zip(a, b))\n"
        "print(same(p, k), same(p, h))\n"
    )
    assert out(text) == "True True\n"


def _split(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for c in text:
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += c in "([" and 1 or (c in ")]" and -1 or 0)
        cur += c
    return parts + [cur]


@pytest.mark.parametrize(
    "call, message",
    [
        ("nn.Linear(3, 2)(x=x)", "Linear.forward() got an unexpected keyword argument 'x'"),
        ("nn.Linear(3, 2)()", "Linear.forward() missing 1 required positional argument: 'input'"),
        (
            "nn.Linear(3, 2)(x, input=x)",
            "Linear.forward() got multiple values for argument 'input'",
        ),
        ("nn.Conv1d(2, 1, 2)(inp=x)", "Conv1d.forward() got an unexpected keyword argument 'inp'"),
        ("nn.LSTM(3, 2)(x, h0=None)", "LSTM.forward() got an unexpected keyword argument 'h0'"),
        (
            "nn.BatchNorm1d(3)()",
            "_BatchNorm.forward() missing 1 required positional argument: 'input'",
        ),
        ("nn.MaxPool1d(2)(x=x)", "MaxPool1d.forward() got an unexpected keyword argument 'x'"),
        (
            "nn.RNN(3, 2)(x, x, x)",
            "RNN.forward() takes from 2 to 3 positional arguments but 4 were given",
        ),
        (
            "nn.MultiheadAttention(3, 1)(x, x, x, need_weight=False)",
            "MultiheadAttention.forward() got an unexpected keyword argument 'need_weight'",
        ),
        ("nn.MSELoss()(x, tgt=x)", "MSELoss.forward() got an unexpected keyword argument 'tgt'"),
    ],
)
def test_calls_that_do_not_fit_in_pytorchs_words(call: str, message: str) -> None:
    got = out(f"try:\n    {call}\nexcept TypeError as e:\n    print(e)\n")
    assert got == message + "\n"


def test_a_programs_module_named_like_torchs_keeps_its_own_forward() -> None:
    got = out(
        "class Linear(nn.Module):\n    def forward(self, x, scale=2):\n        return x * scale\n"
        "print(Linear()(x=torch.ones(1), scale=3))\n"
    )
    assert got == "tensor([3.])\n"
    with pytest.raises(GradcliError, match="got an unexpected keyword argument 'input'"):
        out(
            "class Linear(nn.Module):\n    def forward(self, x):\n        return x\n"
            "Linear()(input=x)\n"
        )


def test_hooks_see_the_keywords_under_pytorchs_names() -> None:
    # the hooks of a torch.nn module are given the call's keywords as the program wrote them
    # (PyTorch's forward's names), and a pre-hook's new `input=` reaches the forward: PyTorch
    # prints ['input'] and ['input', 'target'] here (checked with /work/torchenv)
    got = out(
        "seen = []\n"
        "def pre(m, a, k):\n    seen.append(sorted(k))\n    return a, {'input': k['input'] * 0}\n"
        "def post(m, a, k, o):\n    seen.append(sorted(k))\n"
        "lin = nn.Linear(3, 2)\nlin.register_forward_pre_hook(pre, with_kwargs=True)\n"
        "lin.register_forward_hook(post, with_kwargs=True)\n"
        "y = lin(input=x)\n"
        "mse = nn.MSELoss()\nmse.register_forward_hook(post, with_kwargs=True)\n"
        "mse(x, target=x)\nmse(input=x, target=x)\n"
        "print(seen, torch.equal(y, lin.bias.expand(2, 2)))\n"
    )
    assert got == "[['input'], ['input'], ['target'], ['input', 'target']] True\n"


def test_a_layers_forward_called_directly_under_fx_is_refused_in_plain_words() -> None:
    # PyTorch traces the code of Linear.forward (F.linear on the proxy); gradcli has no such
    # code to trace: a plain refusal naming the way that works, not an error about a Proxy
    text = (
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.l = nn.Linear(3, 2)\n"
        "    def forward(self, x):\n        return self.l.forward(x)\n"
        "torch.fx.symbolic_trace(Net())\n"
    )
    with pytest.raises(GradcliError, match=r"Linear.forward directly while torch.fx"):
        out(text)
    assert out(text.replace("self.l.forward(x)", "self.l(x)") + "print('traced')\n") == "traced\n"
