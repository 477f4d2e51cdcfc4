"""The warning for a print of torch.empty's memory before anything was written to it."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from gradcli.cli.main import app

WARNING = "before anything was written to it"


def _run(tmp_path, text: str):
    program = tmp_path / "p.py"
    program.write_text("import torch\n" + text)
    result = CliRunner().invoke(app, ["run", str(program)])
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.parametrize(
    "write",
    [
        "a.data.fill_(2.0)",
        "a.data.normal_()",
        "a.data[0] = 3.0",
        "a.data.copy_(torch.ones(2))",
        "a.detach().uniform_(1, 2)",
        "a.fill_(2.0)",
    ],
)
def test_a_write_through_an_alias_is_a_write(tmp_path, write: str) -> None:
    result = _run(tmp_path, f"torch.manual_seed(0)\na = torch.empty(2)\n{write}\nprint(a)\n")
    assert WARNING not in result.stderr


def test_a_print_before_any_write_is_said(tmp_path) -> None:
    result = _run(tmp_path, "a = torch.empty(2)\nprint(a)\n")
    assert WARNING in result.stderr
    assert result.stdout == "tensor([0., 0.])\n"


@pytest.mark.parametrize(
    "made",
    [
        # (an old tutorial's Variable over a zeroed torch.Tensor(sizes): the zeros were written)
        "from torch.autograd import Variable\nb = Variable(torch.Tensor(2, 3).zero_(), "
        "requires_grad=True)",
        "b = torch.Tensor(2, 3).zero_().requires_grad_().data",
        "a = torch.empty(2)\na.zero_()\nb = a.data",
    ],
)
def test_zeros_written_are_a_write_through_any_alias(tmp_path, made: str) -> None:
    result = _run(tmp_path, f"{made}\nprint(b)\n")
    assert WARNING not in result.stderr


def test_an_alias_of_unwritten_memory_is_still_said(tmp_path) -> None:
    result = _run(tmp_path, "a = torch.empty(2)\nb = a.data\nprint(b)\n")
    assert WARNING in result.stderr
