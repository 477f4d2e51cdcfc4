"""A call that does not fit, in PyTorch's words (its argument parser's for a C++ builtin) or
Python's (a function PyTorch writes in Python, a program's own): `surface.callerrors`."""

from __future__ import annotations

import importlib.util
import inspect
import json
from pathlib import Path

import pytest

from gradcli.lang.program import parse
from gradcli.surface import callerrors as CE
from gradcli.surface.torch_signatures import SIGNATURES

SIGNATURE_DATA = Path(__file__).resolve().parent / "data" / "signatures"
KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "P",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "PK",
    inspect.Parameter.VAR_POSITIONAL: "VP",
    inspect.Parameter.KEYWORD_ONLY: "K",
    inspect.Parameter.VAR_KEYWORD: "VK",
}


class M:
    def forward(self, x):
        return x

    def step(self, a, b=1, *, c, d=2):
        return a


def f(a, b=1):
    return a


def g(a, b, c, /, d=0):
    return a


def h(*args, k, **kw):
    return args


def many(a, b, c, d=0):
    return a


CALLS = [
    (f, (), {}),
    (f, (1, 2, 3), {}),
    (f, (1,), {"c": 2}),
    (f, (1,), {"a": 2}),
    (f, (1, 2, 3), {"zz": 1}),
    (f, (1, 2, 3), {"b": 1}),
    (M.forward, (M(), 1, 2), {}),
    (M.forward, (M(),), {}),
    (M.step, (M(),), {}),
    (M.step, (M(), 1), {}),
    (M.step, (M(), 1, 2, 3), {"c": 1}),
    (M.step, (M(), 1, 2, 3), {"c": 1, "d": 2}),
    (M.step, (M(), 1, 2, 3), {}),
    (g, (1,), {}),
    (g, (1, 2, 3), {"a": 1}),
    (h, (), {}),
    (many, (), {}),
    (many, (1,), {}),
    (many, (1, 2, 3, 4, 5), {}),
    (many, (1, 2, 3, 4), {"e": 5}),
]


@pytest.mark.parametrize("fn,args,kwargs", CALLS)
def test_python_words_are_pythons(fn, args, kwargs):
    with pytest.raises(TypeError) as e:
        fn(*args, **kwargs)
    params = [
        (p.name, KINDS[p.kind], p.default is not p.empty)
        for p in inspect.signature(fn).parameters.values()
    ]
    got = CE.python_call_error(fn.__qualname__, params, len(args), list(kwargs))
    assert got == str(e.value)


# What PyTorch 2.13 raised for these calls (recorded with /work/torchenv): its parser's words.
PARSER = [
    ("torch.exp", 2, [], "exp() takes 1 positional argument but 2 were given"),
    ("torch.exp", 0, [], 'exp() missing 1 required positional arguments: "input"'),
    ("torch.exp", 1, ["y"], "exp() got an unexpected keyword argument 'y'"),
    ("torch.exp", 1, ["input"], "exp() got multiple values for argument 'input'"),
    ("torch.dot", 0, [], 'dot() missing 2 required positional argument: "input", "tensor"'),
    ("torch.dot", 1, [], 'dot() missing 1 required positional arguments: "tensor"'),
    ("torch.zeros_like", 2, [], "zeros_like() takes 1 positional argument but 2 were given"),
    ("torch.zeros_like", 0, [], 'zeros_like() missing 1 required positional arguments: "input"'),
    ("F.softplus", 4, [], "softplus() takes from 1 to 3 positional arguments but 4 were given"),
    ("torch.matmul", 3, [], "matmul() takes 2 positional arguments but 3 were given"),
    ("torch.linalg.det", 0, [], 'linalg_det() missing 1 required positional arguments: "A"'),
    ("torch.special.erf", 0, [], 'special_erf() missing 1 required positional arguments: "input"'),
    ("Tensor.clone", 2, [], "clone() takes 0 positional arguments but 2 were given"),
    ("Tensor.unsqueeze", 2, [], "unsqueeze() takes 1 positional argument but 2 were given"),
    ("Tensor.topk", 0, [], 'topk() missing 1 required positional arguments: "k"'),
]


@pytest.mark.parametrize("qualified,nargs,keywords,words", PARSER)
def test_parser_words_are_pytorchs(qualified, nargs, keywords, words):
    kind, shown, params = CE._parse(SIGNATURES[qualified])
    assert kind == "c"
    assert CE.parser_call_error(shown, params, nargs, keywords) == words


def test_a_method_of_no_arguments_is_cpythons():
    from gradcli.core.tensor import Tensor

    x = Tensor.__new__(Tensor)
    assert CE.call_error("exp", True, [x, 1], {}) == "TensorBase.exp() takes no arguments (1 given)"
    assert (
        CE.call_error("exp", True, [x], {"a": 1}) == "TensorBase.exp() takes no keyword arguments"
    )


def test_names_of_several_overloads_have_no_words_here():
    # their words list every overload (`sum() received an invalid combination of arguments`)
    assert CE.call_error("torch.sum", False, [1, 2, 3, 4, 5], {}) is None


@pytest.mark.parametrize(
    "call,words",
    [
        ("torch.exp(x, 2)", "exp() takes 1 positional argument but 2 were given"),
        ("F.mse_loss(x)", "mse_loss() missing 1 required positional argument: 'target'"),
        (
            "nn.Linear(2)",
            "Linear.__init__() missing 1 required positional argument: 'out_features'",
        ),
        ("torch.optim.SGD()", "SGD.__init__() missing 1 required positional argument: 'params'"),
        ("x.add(1, foo=2)", None),  # add has a deprecated overload: several
        ("M()(x, x)", "M.forward() takes 2 positional arguments but 3 were given"),
        ("x.unsqueeze('a')", "unsqueeze(): argument 'dim' (position 1) must be int, not str"),
        (
            "torch.unsqueeze(x, 'a')",
            "unsqueeze(): argument 'dim' (position 2) must be int, not str",
        ),
        ("torch.unsqueeze(x, dim='a')", "unsqueeze(): argument 'dim' must be int, not str"),
        ("torch.exp(input=2.0)", "exp(): argument 'input' must be Tensor, not float"),
        (
            "torch.mean([1.0, 2.0])",
            "mean(): argument 'input' (position 1) must be Tensor, not list",
        ),
        (
            "torch.matmul(input=x, other=[1.0])",
            "matmul(): argument 'other' must be Tensor, not list",
        ),
        ("nn.MSELoss()(x)", "MSELoss.forward() missing 1 required positional argument: 'target'"),
        ("torch.full_like(x)", 'full_like() missing 1 required positional arguments: "fill_value"'),
        ("F.linear(2.0)", "linear(): argument 'input' (position 1) must be Tensor, not float"),
        ("torch.relu(x, True)", "relu() takes 1 positional argument but 2 were given"),
        ("F.relu(x, True); print(x)", "tensor([1., 1.])"),
        ("torch.cumsum(x, 0, None)", "cumsum() takes 2 positional arguments but 3 were given"),
        (
            "f = F.smooth_l1_loss; f(x)",
            "smooth_l1_loss() missing 1 required positional argument: 'target'",
        ),
        ("torch.sum(x, axis=0, squeeze=1)", "sum() got an unexpected keyword argument 'axis'"),
    ],
)
def test_a_program_catches_pytorchs_words(call, words):
    text = (
        "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
        "class M(nn.Module):\n    def forward(self, x):\n        return x\n"
        "x = torch.ones(2)\n"
        f"try:\n    {call}\nexcept TypeError as e:\n    print(e)\n"
    )
    out = "".join(parse(text, "t.py").run(dtype="float32").output).strip()
    if words is None:
        assert out  # gradcli's own words, still a TypeError
    else:
        assert out == words


def test_the_runtime_table_is_the_recorded_one():
    # gradcli/surface/torch_signatures.py is what record.py makes of torch.json
    spec = importlib.util.spec_from_file_location("sigrecord", SIGNATURE_DATA / "record.py")
    R = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(R)
    table = json.loads((SIGNATURE_DATA / "torch.json").read_text())
    assert R.runtime_table(table) == Path(CE.__file__).with_name("torch_signatures.py").read_text()


def test_the_keywords_taken_without_the_tables_are_pytorchs():
    """`calls.PYTORCH_TAKES` lets a call with these keywords skip the check against PyTorch's
    signatures: every function PyTorch has by such a name (any owner the tables know) must take
    them, or have a signature the check never refuses (`**kwargs`)."""
    from gradcli.lang.calls import PYTORCH_TAKES

    owners = ("torch", "F", "Tensor", "nn", "torch.linalg", "torch.special", "torch.optim")
    for last, keywords in PYTORCH_TAKES.items():
        seen = 0
        for owner in owners:
            qualified = f"{owner}.{last}"
            if qualified not in SIGNATURES:
                continue
            seen += 1
            found = CE.keyword_names(qualified, owner == "Tensor", [], lambda q: True)
            if owner == "Tensor":
                import gradcli

                found = CE.keyword_names(last, True, [gradcli.Tensor([1.0])], lambda q: True)
            assert found is None or keywords <= found[1], (qualified, keywords - found[1])
        assert seen, last


def test_the_shortcut_can_fail():
    """A keyword PyTorch's function lacks is not let through by the shortcut's test."""
    found = CE.keyword_names("torch.relu", False, [], lambda q: True)
    assert found is not None and "inplace" not in found[1]


def test_torch_functions_of_fewer_positional_arguments_are_the_tables():
    """`calls.TORCH_POSITIONAL` is every torch function (of one C++ signature) whose gradcli
    function, F's too, binds more positional arguments than PyTorch's `torch.X` takes, with
    PyTorch's number: `torch.relu(x, 1)` must be its TypeError, not F.relu's inplace (of
    those whose gradcli function has the name: torch.relu_'s has not, and is not checked)."""
    from gradcli.lang.calls import TORCH_POSITIONAL
    from gradcli.lang.namespaces import build_namespaces

    members = build_namespaces()["torch"].members
    found = {}
    for key in list(members.keys()):
        text = SIGNATURES.get(f"torch.{key}")
        if text is None:
            continue
        fn = members.get(key)
        if not inspect.isfunction(fn) or fn.__name__ != key:  # (the check knows it by name)
            continue
        kind, _, params = CE._parse(text)
        if kind != "c" or params is None or any(p[1] in ("VP", "VK") for p in params):
            continue
        try:
            sig = inspect.signature(fn)
        except (TypeError, ValueError):
            continue
        kinds = [p.kind for p in sig.parameters.values()]
        if inspect.Parameter.VAR_POSITIONAL in kinds:
            continue
        theirs = sum(1 for p in params if p[1] in ("P", "PK"))
        ours = sum(1 for k in kinds if k in (k.POSITIONAL_ONLY, k.POSITIONAL_OR_KEYWORD))
        if ours > theirs:
            found[key] = theirs
    assert found == TORCH_POSITIONAL
