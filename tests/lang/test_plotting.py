"""matplotlib in a pasted notebook cell: the plotting calls run and draw nothing, so what the
program prints is PyTorch's (corpus 574 checks a whole cell against PyTorch's output)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

WARNING = "matplotlib: gradcli draws no figures"


def run(text: str) -> tuple[str, list[str]]:
    r = parse("import torch\nimport matplotlib.pyplot as plt\n" + text, "t.py").run()
    return "".join(r.output), r.warnings


def test_plotting_calls_draw_nothing_and_warn_once() -> None:
    out, warnings = run(
        "x = torch.linspace(0, 1, 5)\nplt.figure(figsize=(4, 3))\nplt.plot(x, x ** 2, 'r-')\n"
        "plt.xlabel('x')\nplt.legend()\nplt.savefig('out.png')\nplt.show()\nprint(x.sum())\n"
    )
    assert out == "tensor(2.5000)\n"
    assert len([w for w in warnings if WARNING in w]) == 1
    assert warnings[0].startswith("t.py:4:1: warning")  # the first plotting statement


def test_no_plotting_call_no_warning() -> None:
    out, warnings = run("print(1)\n")
    assert out == "1\n" and not warnings


@pytest.mark.parametrize(
    "rows, cols, shape",
    [(1, 1, None), (1, 3, (3,)), (3, 1, (3,)), (2, 3, (2, 3))],
)
def test_subplots_lays_out_axes_as_matplotlib(rows: int, cols: int, shape: tuple | None) -> None:
    out, _ = run(
        f"fig, axes = plt.subplots({rows}, {cols})\nprint(0)\n"
        + (
            "axes.plot([1, 2])\n"
            if shape is None
            else "print(axes.shape, len(axes), len([a for a in axes.flat]))\n"
            "for ax in axes.flatten():\n    ax.set_title('t')\n"
        )
    )
    want = "0\n" if shape is None else f"0\n{shape} {shape[0]} {rows * cols}\n"
    assert out == want


def test_unpacking_and_methods_of_what_calls_return() -> None:
    out, _ = run(
        "(line,) = plt.plot([1, 2])\nline.set_data([1], [2])\n"
        "fig, (a1, a2) = plt.subplots(1, 2)\na1.imshow([[1]])\nfig.colorbar(a2.scatter(1, 2))\n"
        "from matplotlib.pyplot import figure\nfigure()\nplt.rcParams['font.size'] = 9\n"
        "print('ok')\n"
    )
    assert out == "ok\n"


def test_a_tensor_requiring_grad_cannot_be_plotted_as_in_matplotlib() -> None:
    with pytest.raises(GradcliError, match=r"Can't call numpy\(\) on Tensor that requires grad"):
        run("w = torch.ones(3, requires_grad=True)\nplt.plot(w * 2)\n")
    out, _ = run("w = torch.ones(3, requires_grad=True)\nplt.plot((w * 2).detach())\nprint(1)\n")
    assert out == "1\n"


@pytest.mark.parametrize(
    "text, match",
    [
        ("f, a = plt.subplots(65, 1)", "from 1 to 64"),
        ("f, a = plt.subplots(0)", "from 1 to 64"),
        ("f, a = plt.subplots(2, 2)\nb = a[2, 0]", "index 2 is out of bounds"),
        ("f, a = plt.subplots(2, 2)\nb = a[0, 0, 0]", "too many indices"),
        ("f, a = plt.subplots(2, 2)\nb = a.T", "no attribute 'T'"),
    ],
)
def test_the_axes_grid_is_bounded_and_checked(text: str, match: str) -> None:
    with pytest.raises(GradcliError, match=match):
        run(text + "\n")


def test_the_ticker_module_of_the_autograd_tutorials_draws_nothing() -> None:
    out, warnings = run(
        "import matplotlib.ticker as ticker\nfrom matplotlib import ticker as tk\n"
        "fig, ax = plt.subplots()\nax.xaxis.set_major_formatter(ticker.FormatStrFormatter('%g'))\n"
        "ax.yaxis.set_major_locator(tk.MultipleLocator(0.5))\nprint('ok')\n"
    )
    assert out == "ok\n" and len([w for w in warnings if WARNING in w]) == 1
