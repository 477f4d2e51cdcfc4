"""A call site of positional arguments that called a namespace function before calls it again
without binding (`lang.calls.call_positional`): what it gives, converts and refuses is what the
first call at a site gives, converts and refuses."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from gradcli.cli.main import app


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, program: str) -> tuple[int, str, str]:
    r = runner.invoke(app, ["run", "-e", program])
    return r.exit_code, r.stdout, r.stderr


def test_a_later_call_at_a_site_converts_as_the_first(runner: CliRunner) -> None:
    # dtypes given positionally (converted by `checked_call` on every call), then a range
    looped = (
        "for a in (torch.float32, torch.int64, torch.bool):\n"
        "    print(torch.promote_types(a, torch.int32), torch.can_cast(a, torch.int32))\n"
    )
    unrolled = "".join(
        f"print(torch.promote_types({a}, torch.int32), torch.can_cast({a}, torch.int32))\n"
        for a in ("torch.float32", "torch.int64", "torch.bool")
    )
    assert run(runner, looped) == run(runner, unrolled)
    assert run(runner, looped)[:2] == (
        0,
        "torch.float32 False\ntorch.int64 True\ntorch.int32 True\n",
    )
    # a range is data, as in PyTorch; a dict is refused at the same site in PyTorch's words
    code, out, err = run(runner, "for a in ([1, 2], range(3), {1: 2}):\n    print(torch.tensor(a))")
    assert (code, out) == (1, "tensor([1, 2])\ntensor([0, 1, 2])\n")
    assert "Could not infer dtype of dict" in err


def test_a_later_argument_error_at_a_site_is_the_programs(runner: CliRunner) -> None:
    looped = "for v in (torch.ones(2), 5):\n    print(torch.numel(v))"
    code, out, err = run(runner, looped)
    first_code, first_out, first_err = run(runner, "print(torch.numel(5))")
    assert code == first_code == 1
    assert out == "2\n"
    message = "numel(): argument 'input' (position 1) must be Tensor, not int"
    assert message in err and message in first_err
    assert "internal error" not in err


def test_another_function_at_the_site_is_bound_again(runner: CliRunner) -> None:
    # the same attribute of two namespaces: the second function is bound (and refused) anew
    program = (
        "import torch\n"
        "import torch.nn.functional as F\n"
        "for m in (torch, F):\n"
        "    print(m.relu(torch.tensor([-1.0, 2.0])))\n"
        "for m in (torch, F):\n"
        "    print(m.softmax(torch.tensor([0.0, 0.0]), 0))\n"
    )
    code, out, err = run(runner, program)
    assert code == 0, err
    assert out.count("tensor([0., 2.])") == 2
    assert out.count("tensor([0.5000, 0.5000])") == 2
    code, _, err = run(runner, "for n in (1, 2):\n    print(torch.exp(torch.ones(n), n))")
    assert code == 1 and "exp() takes 1 positional argument but 2 were given" in err
