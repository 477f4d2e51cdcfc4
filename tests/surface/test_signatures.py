"""gradcli's functions take PyTorch's parameter names (issue 10): a program's
`F.relu(input=x)`, `torch.zeros_like(input=x)`, `x.add(other=y)` are bound as PyTorch binds them.

`data/signatures/torch.json` is PyTorch 2.13's table (recorded by `data/signatures/record.py`
with torch: the argument parser's overloads of the C++ builtins, `inspect.signature` of the
Python functions); no torch is needed here.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent / "data" / "signatures"

# Where gradcli's positional parameter still differs from PyTorch's (`qualified position`),
# each for a reason: one gradcli function stands for two of PyTorch's that name a place
# differently (torch.split's split_size_or_sections / Tensor.split's split_size, swapaxes'
# axis0 / swapdims' dim0), a
# place PyTorch names differently in several overloads (tensor_split, hsplit, vsplit, dsplit,
# isin, result_type,
# repeat_interleave), a parameter of PyTorch's gradcli does not have (norm's out, rrelu's
# generator, backward's grad_variables), a method's own object
# (is_inference, detach_). A name fixed must leave this list (the test is strict both ways).
ALLOWED = {
    "Tensor.dsplit 0",
    "Tensor.hsplit 0",
    "Tensor.vsplit 0",
    "Tensor.swapdims 0",
    "Tensor.swapdims 1",
    "Tensor.swapdims_ 0",
    "Tensor.swapdims_ 1",
    "torch.dsplit 1",
    "torch.hsplit 1",
    "torch.vsplit 1",
    "torch.swapdims 1",
    "torch.swapdims 2",
    "Tensor.new_tensor 2",
    "Tensor.new_tensor 3",
    "Tensor.tensor_split 0",
    "Tensor.uniform_ 0",
    "Tensor.uniform_ 1",
    "torch.autograd.backward 4",
    "torch.detach_ 0",
    "torch.is_inference 0",
    "torch.isin 0",
    "torch.isin 1",
    "torch.norm 4",
    "torch.repeat_interleave 0",
    "torch.result_type 0",
    "torch.result_type 1",
    "torch.rrelu 4",
    "torch.tensor_split 1",
}


def _record_module():
    spec = importlib.util.spec_from_file_location("gradcli_signatures", HERE / "record.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def found():
    # (about 1.5 s: every family imported, ~0.9 s a process pays once, and 1,100 signatures
    # inspected: the whole surface is what the table is about)
    R = _record_module()
    table = json.loads((HERE / "torch.json").read_text())
    return table, R.compare(table, R.gradcli_callables())


def _key(line: str) -> str:
    qualified, _, rest = line.partition(": position ")
    return f"{qualified} {rest.split()[0]}"


def test_positional_parameters_have_pytorchs_names(found):
    _, result = found
    got = {_key(line): line for line in result["renamed"]}
    new = sorted(line for key, line in got.items() if key not in ALLOWED)
    assert not new, "gradcli names these parameters otherwise than PyTorch:\n" + "\n".join(new)
    fixed = sorted(ALLOWED - set(got))
    assert not fixed, f"now as PyTorch: remove from ALLOWED: {fixed}"


def test_the_table_covers_the_surface(found):
    # the recorded table is not stale: most of gradcli's names are in it, in every namespace
    table, _ = found
    places = {q.rpartition(".")[0] for q in table}
    assert {"torch", "Tensor", "F", "nn", "torch.linalg", "torch.special"} <= places
    assert {"torch.autograd", "torch.optim", "torch.nn.init"} <= places
    assert len(table) > 1000


_CALLS = [
    "F.relu(input=x)",
    "torch.zeros_like(input=x)",
    "torch.sum(input=x, dim=0)",
    "torch.cat(tensors=[x, x], dim=0)",
    "x.add(other=x, alpha=2)",
    "torch.add(input=x, other=x, alpha=2)",
    "F.linear(x, weight=w, bias=b)",
    "F.cross_entropy(input=w, target=t)",
    "torch.matmul(input=w, other=x)",
    "torch.clamp(input=x, min=0.5)",
    "torch.where(x > 1, input=x, other=x)",
    "torch.softmax(input=x, dim=0)",
    "x.pow(exponent=2)",
    "torch.eq(input=x, other=x)",
    "torch.transpose(input=w, dim0=0, dim1=1)",
    "F.one_hot(input=t, num_classes=3)",
    "torch.max(input=x)",
    "torch.argmax(input=w, dim=1)",
    "torch.cumsum(input=x, dim=0)",
    "torch.searchsorted(sorted_sequence=x, input=x)",
]


def test_pytorch_keywords_are_accepted():
    # PyTorch's keywords bind (the values are the corpus's: 820)
    from gradcli.lang.program import parse

    text = (
        "import torch\nimport torch.nn.functional as F\n"
        "x = torch.tensor([1.0, 2.0])\nw = torch.ones(2, 2)\nb = torch.zeros(2)\n"
        "t = torch.tensor([0, 1])\n" + "".join(f"print({c})\n" for c in _CALLS)
    )
    out = "".join(parse(text, "t.py").run(dtype="float32").output)
    assert out.count("tensor(") >= len(_CALLS), out
