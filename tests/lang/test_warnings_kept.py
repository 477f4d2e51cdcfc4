"""Warnings PyTorch writes on stderr: `x.T` on a tensor that is not a matrix (once a run, as
PyTorch's TORCH_WARN_ONCE: one text for 0-d tensors, one for the others), and the warnings a
program gave before it failed, which the CLI writes ahead of the error (PyTorch has written
them by the time the error comes). Texts are PyTorch 2.13's (checked with /work/torchenv)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from gradcli.base.errors import GradcliError
from gradcli.cli.main import app
from gradcli.lang.program import parse

T_NOT_2D = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated "
    "and it will throw an error in a future release. Consider `x.mT` to transpose batches of "
    "matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a "
    "tensor."
)
T_0D = "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases."


def warnings_of(text: str) -> list[str]:
    """Each warning's first line (its place and PyTorch's text; gradcli's hint follows)."""
    run = parse("import torch\n" + text, "t.py").run(dtype="float32")
    return [w.splitlines()[0] for w in run.warnings]


def test_T_of_a_vector_or_a_batch_warns_once_a_run() -> None:
    got = warnings_of(
        "a = torch.ones(3)\n"
        "for i in range(3):\n    b = a.T\n"
        "c = torch.ones(2, 3, 4).T\n"
        "print(c.shape, b.shape)\n"
    )
    assert got == [f"t.py:4:5: warning: {T_NOT_2D}"]
    again = warnings_of("c = torch.ones(2, 3, 4).T\n")  # a new run warns again
    assert again == [f"t.py:2:1: warning: {T_NOT_2D}"]


def test_T_of_a_0d_tensor_has_its_own_warning() -> None:
    got = warnings_of("s = torch.tensor(2.0)\nt = s.T\nu = torch.ones(5).T\nv = s.T\n")
    assert got == [f"t.py:3:1: warning: {T_0D}", f"t.py:4:1: warning: {T_NOT_2D}"]


def test_T_of_a_matrix_does_not_warn_and_values_are_unchanged() -> None:
    assert warnings_of("m = torch.arange(6.).reshape(2, 3).T\n") == []
    run = parse(
        "import torch\nx = torch.arange(24.).reshape(2, 3, 4)\ny = x.T\nv = torch.ones(3).T\n",
        "t.py",
    ).run(dtype="float32")
    assert run.env["y"].shape == (4, 3, 2)
    assert run.env["y"].data.tolist() == run.env["x"].data.transpose().tolist()
    assert run.env["v"].shape == (3,)


def test_warnings_recorded_by_the_program_match_pytorchs() -> None:
    out = "".join(
        parse(
            "import warnings\nimport torch\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    torch.ones(3).T\n    torch.ones(3).T\n    torch.tensor(1.0).T\n"
            "print(len(w), [r.category.__name__ for r in w])\n",
            "t.py",
        )
        .run(dtype="float32")
        .output
    )
    assert out == "2 ['UserWarning', 'UserWarning']\n"


FAILS_AFTER_WARNING = (
    "import torch\n"
    "x = torch.ones(3, requires_grad=True)\n"
    "y = x * 2\n"
    "print(y.grad)\n"
    "z = torch.ones(3).T\n"
    "raise ValueError('boom')\n"
)


def test_warnings_before_a_failure_travel_with_the_error() -> None:
    with pytest.raises(GradcliError) as e:
        parse(FAILS_AFTER_WARNING, "t.py").run(dtype="float32")
    preamble = e.value.preamble  # type: ignore[attr-defined]
    lines = [ln for ln in preamble.splitlines() if ": warning: " in ln]
    assert lines[0].startswith("t.py:4:1: warning: The .grad attribute of a Tensor that is not")
    assert lines[1] == f"t.py:5:1: warning: {T_NOT_2D}"


def test_cli_writes_the_warnings_then_the_error() -> None:
    r = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"}).invoke(
        app, ["run", "-e", FAILS_AFTER_WARNING]
    )
    assert r.exit_code == 1
    assert r.stdout == "None\n"
    err = r.stderr.splitlines()
    warned = [i for i, ln in enumerate(err) if ": warning: " in ln]
    failed = [i for i, ln in enumerate(err) if ": error: ValueError: boom" in ln]
    assert len(warned) == 2 and len(failed) == 1 and warned[-1] < failed[0], r.stderr
    assert "Traceback" not in r.stderr


ARRAYS_IN_LIST = (
    "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider "
    "converting the list to a single numpy.ndarray with numpy.array() before converting to a "
    "tensor."
)


@pytest.mark.parametrize(
    "make",
    [
        "torch.tensor([a, a])",
        "torch.FloatTensor([a, a])",
        "torch.Tensor((a, a))",
        "torch.as_tensor([a])",
        "torch.LongTensor([a.astype(np.int64)])",
        "torch.tensor([[1.0, 1.0, 1.0], a])",
        "torch.tensor([[a, a]])",
    ],
)
def test_a_tensor_made_of_a_list_of_arrays_warns_once_a_run(make: str) -> None:
    got = warnings_of(f"import numpy as np\na = np.ones(3)\nx = {make}\ny = {make}\n")
    assert got == [f"t.py:4:1: warning: {ARRAYS_IN_LIST}"]


@pytest.mark.parametrize(
    "make",
    [
        "torch.tensor(a)",
        "torch.as_tensor(a)",
        "torch.tensor([np.ones(0)])",
        "np.array([a, a])",
        "torch.tensor([1.0, 2.0])",
        "torch.from_numpy(np.array([a, a]))",
    ],
)
def test_arrays_alone_empty_or_made_by_numpy_do_not_warn(make: str) -> None:
    assert warnings_of(f"import numpy as np\na = np.ones(3)\nx = {make}\n") == []


def test_the_values_of_a_list_of_arrays() -> None:
    run = parse(
        "import numpy as np\nimport torch\n"
        "rows = [np.array([1, 2], dtype=np.int32), np.array([3, 4], dtype=np.int32)]\n"
        "x = torch.tensor(rows)\ny = torch.FloatTensor([np.eye(2)[0], np.eye(2)[1]])\n",
        "t.py",
    ).run(dtype="float32")
    x, y = run.env["x"], run.env["y"]
    assert str(x.dtype) == "int32" and x.data.tolist() == [[1, 2], [3, 4]]
    assert str(y.dtype) == "float32" and y.data.tolist() == [[1.0, 0.0], [0.0, 1.0]]


def target_size(t: str, x: str) -> str:
    return (
        f"Using a target size (torch.Size({t})) that is different to the input size "
        f"(torch.Size({x})). This will likely lead to incorrect results due to broadcasting. "
        "Please ensure they have the same size."
    )


def test_regression_losses_warn_about_a_broadcast_target() -> None:
    got = warnings_of(
        "import torch.nn as nn\nimport torch.nn.functional as F\n"
        "p = torch.ones(4, 1, requires_grad=True)\ny = torch.zeros(4)\n"
        "crit = nn.MSELoss()\n"
        "for i in range(3):\n    loss = crit(p, y)\n"
        "a = F.l1_loss(p, y)\n"
        "b = F.smooth_l1_loss(p, y.view(1, 4))\n"
        "c = F.huber_loss(p, y)\n"
        "d = F.mse_loss(p, y.view(4, 1))\n"
    )
    assert got == [
        f"t.py:8:5: warning: {target_size('[4]', '[4, 1]')}",
        f"t.py:9:1: warning: {target_size('[4]', '[4, 1]')}",
        f"t.py:10:1: warning: {target_size('[1, 4]', '[4, 1]')}",
        f"t.py:11:1: warning: {target_size('[4]', '[4, 1]')}",
    ]


def copy_construct(call: str) -> str:
    return (
        "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
        "or sourceTensor.detach().clone().requires_grad_(True), rather than "
        f"{call}."
    )


def test_copying_a_tensor_through_a_constructor_warns() -> None:
    got = warnings_of(
        "a = torch.ones(2, requires_grad=True)\n"
        "for i in range(2):\n    b = torch.tensor(a)\n"
        "c = torch.tensor(a.detach(), dtype=torch.float64)\n"
        "d = a.new_tensor(a)\n"
        "e = torch.as_tensor(a)\nf = torch.as_tensor(a, dtype=torch.float64)\n"
        "g = torch.tensor([1.0, 2.0])\nh = torch.Tensor(a)\n"
    )
    assert got == [
        f"t.py:4:5: warning: {copy_construct('torch.tensor(sourceTensor)')}",
        f"t.py:5:1: warning: {copy_construct('torch.tensor(sourceTensor)')}",
        f"t.py:6:1: warning: {copy_construct('tensor.new_tensor(sourceTensor)')}",
    ]


def test_deprecated_names_warn_and_work() -> None:
    got = warnings_of(
        "from torch.autograd import Variable\nimport torch.nn as nn\n"
        "p = nn.Parameter(torch.ones(2))\np.grad = torch.tensor([3.0, 4.0])\n"
        "n = torch.nn.utils.clip_grad_norm([p], 1.0)\n"
        "v = Variable(torch.ones(2), volatile=True)\n"
        "w = Variable(torch.ones(2), requires_grad=True)\n"
    )
    assert got == [
        "t.py:6:1: warning: `torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
        "`torch.nn.utils.clip_grad_norm_`.",
        "t.py:7:1: warning: volatile was removed and now has no effect. Use `with "
        "torch.no_grad():` instead.",
    ]
    run = parse(
        "import torch\nimport torch.nn as nn\np = nn.Parameter(torch.ones(2))\n"
        "p.grad = torch.tensor([3.0, 4.0])\nn = torch.nn.utils.clip_grad_norm([p], 1.0)\n",
        "t.py",
    ).run(dtype="float32")
    assert float(run.env["n"].data) == 5.0
    assert [round(v, 6) for v in run.env["p"].grad.data.tolist()] == [0.6, 0.8]


def test_torch_qr_warns_once_a_run_that_it_is_deprecated() -> None:
    # PyTorch 2.13: ATen's TORCH_WARN_ONCE, for torch.qr and Tensor.qr alike (first line)
    got = warnings_of(
        "a = torch.tensor([[2.0, 1.0], [1.0, 3.0]])\n"
        "q, r = torch.qr(a)\nq2, r2 = a.qr(some=False)\n"
        "q3, r3 = torch.linalg.qr(a)\n"
    )
    assert got == [
        "t.py:3:1: warning: torch.qr is deprecated in favor of torch.linalg.qr and will be "
        "removed in a future PyTorch release."
    ]
    assert warnings_of("q, r = torch.linalg.qr(torch.eye(2))\n") == []
