"""A recorded change keeps only what some rule reads (core.inplace.drop_unread).

`buf[i] = row` in a loop is recorded as PyTorch's CopySlices; gradcli computes it as a few
nodes (the kept part, the placed part, their sum) whose rules read only shapes. Were their
values kept, a loop writing the rows of a large buffer would hold several copies of it per
row (a 1000x1000 buffer went over the memory limit); PyTorch holds none. These tests measure
the memory a recorded program still holds (tracemalloc sees NumPy's allocations) and check
that the gradients through the dropped tensors stay exact.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from gradcli.lang.program import parse

ROWS, COLS = 64, 256  # a 128 KB float64 buffer, above the 4,096 elements where drops start

FILLS = {
    "setitem": "buf[i] = w * (i + 1)",
    "setitem_slice": "buf[i, :] = torch.sin(w) + i",
    "index_put_": "buf.index_put_((torch.tensor([i]),), (w * i).unsqueeze(0))",
}
# Out of place, each step's result is an input of the next step's node, whose rule reads only
# its shape; gradcli still holds those results (one buffer per row, PyTorch none): only the
# gradients are checked for it.
FUNCTIONAL = "buf = torch.index_put(buf, (torch.tensor([i]),), (w * i).unsqueeze(0))"


def program(fill: str, rows: int = ROWS) -> str:
    return f"""import torch
w = torch.linspace(0.1, 1.0, {COLS}, dtype=torch.float64).requires_grad_()
buf = torch.zeros({rows}, {COLS}, dtype=torch.float64)
for i in range({rows}):
    {fill}
loss = (buf * buf).sum()
"""


def held_after(text: str) -> int:
    """Bytes still allocated once the program ran (its graph alive, not yet backward)."""
    parse(text, "t.py").run(dtype="float64")  # (modules imported on first use: not counted)
    tracemalloc.start()
    try:
        prog = parse(text, "t.py")
        base = tracemalloc.get_traced_memory()[0]
        run = prog.run(dtype="float64")
        held = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    assert run is not None
    return held


@pytest.mark.parametrize("name", sorted(FILLS))
def test_a_loop_of_row_writes_holds_no_copy_per_row(name: str) -> None:
    buffer_bytes = ROWS * COLS * 8
    held = held_after(program(FILLS[name]))
    # One copy of the buffer per row would be ROWS * buffer_bytes (8 MB); what is left is the
    # buffer, the rows (ROWS of COLS: one buffer's worth per intermediate kept) and the nodes.
    assert held < 12 * buffer_bytes, (name, held, buffer_bytes)


def test_the_measure_sees_a_copy_per_row() -> None:
    """The tester's test: a program that does keep a tensor per row (each row's buffer is an
    input whose values a product's rule reads) is measured far above the bound."""
    keep = "buf = buf * 1.0001\n    buf[i] = w * (i + 1)"
    held = held_after(program(keep))
    assert held > 40 * ROWS * COLS * 8


@pytest.mark.parametrize("name", [*sorted(FILLS), "index_put"])
def test_gradients_through_dropped_parts_are_exact(name: str) -> None:
    text = (
        program(FILLS.get(name, FUNCTIONAL), rows=ROWS)
        + "loss.backward()\nprint(w.grad.sum().item())\n"
    )
    out = "".join(parse(text, "t.py").run(dtype="float64").output)
    w = np.linspace(0.1, 1.0, COLS)
    # d/dw of sum over rows of r_i(w)^2 = sum_i 2 r_i(w) r_i'(w)
    if name == "setitem":
        g = sum(2 * (i + 1) ** 2 * w for i in range(ROWS))
    elif name == "setitem_slice":
        g = sum(2 * (np.sin(w) + i) * np.cos(w) for i in range(ROWS))
    else:
        g = sum(2 * i**2 * w for i in range(ROWS))
    assert float(out) == pytest.approx(float(g.sum()), rel=1e-12, abs=1e-9)
