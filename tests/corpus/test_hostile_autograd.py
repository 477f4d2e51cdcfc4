"""Hostile and broken uses of the autograd constructs: changes in place, version counters,
views, hooks, `next_functions`, `detach_`. Each ends within seconds in one clear message
(PyTorch's words where PyTorch refuses the same), with its place and a caret, as the rest of
the hostile corpus (`test_hostile.py`, whose harness runs these cases too)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.corpus.test_hostile import Case
from tests.corpus.test_hostile import test_hostile as run_case

X = "import torch\nx = torch.ones(3, requires_grad=True)\n"
C = "import torch\nc = torch.ones(3)\n"

CASES: list[Case] = [
    Case("inplace_leaf", X + "x.add_(1)", "a leaf Variable that requires grad", (3, 1)),
    Case("inplace_leaf_iadd", X + "x *= 2", "a leaf Variable that requires grad", (3, 1)),
    Case(
        "inplace_view_of_leaf",
        X + "x[:2].mul_(2)",
        "a view of a leaf Variable that requires grad",
        (3, 1),
    ),
    Case(
        "inplace_item_of_leaf",
        X + "x[0] = 5.0",
        "a view of a leaf Variable that requires grad",
        (3, 1),
    ),
    Case(
        "inplace_expanded",
        C + "e = c.expand(4, 3)\ne.add_(1)",
        "more than one element of the written-to tensor refers to a single memory location",
        (4, 1),
    ),
    Case(
        "inplace_wrong_shape",
        C + "c.add_(torch.ones(2, 3))",
        "output with shape [3] doesn't match the broadcast shape [2, 3]",
        (3, 1),
    ),
    Case(
        "inplace_float_into_int",
        "import torch\nk = torch.ones(3, dtype=torch.int64)\nk.add_(1.5)",
        "result type Float can't be cast to the desired output type Long",
        (3, 1),
    ),
    Case(
        "inplace_huge_broadcast",
        C + "c.add_(torch.ones(4000, 4000))",
        "over the limit",
        (3, 8),
    ),
    Case(
        "inplace_saved_output_changed",
        X + "y = x.sigmoid()\ny.mul_(2)\ny.sum().backward()",
        "modified by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Sigmoid",
        (5, 1),
    ),
    Case(
        "inplace_saved_input_changed",
        X + "b = x * 1\nc = b ** 2\nb.add_(1)\nc.sum().backward()",
        "which is output 0 of Add, is at version 1; expected version 0",
        (6, 1),
    ),
    Case(
        "inplace_leaf_changed_through_detach",
        X + "y = x * x\nd = x.detach()\nd.add_(1)\ny.sum().backward()",
        "[torch.FloatTensor [3]] is at version 1; expected version 0 instead",
        (6, 1),
    ),
    Case("hook_not_callable", X + "x.register_hook(3)", "register_hook expects a function", (3, 1)),
    Case(
        "hook_no_grad",
        C + "c.register_hook(print)",
        "cannot register a hook on a tensor that doesn't require gradient",
        (3, 1),
    ),
    Case("version_assigned", X + "x._version = 5", "_version", (3, 1)),
    Case(
        "detach_view_of_leaf",
        X + "v = x[:2]\nv.detach_()",
        "Can't detach views in-place. Use detach() instead.",
        (4, 1),
    ),
    Case(
        "next_functions_private",
        X + "f = (x * 2).grad_fn\ni = f._out",
        "_out",
        (4, 5),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_autograd(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_network: None
) -> None:
    run_case(case, tmp_path, monkeypatch, no_network)


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    def refuse(*a: object, **k: object) -> None:
        raise AssertionError("gradcli tried to use the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
