"""nn.RNN / nn.GRU on a one-feature sequence (explore41: a sin -> cos regression pasted from a
tutorial drifted from PyTorch after a few steps): the input projection of all steps is ATen's
addmm, whose bias MKL adds inside a product of inner size 1 (one rounding), as F.linear's
(`addmm_bias`); it was a separate sum (two roundings). A batch_first batch of several
sequences is a transposed (non-contiguous) input: at::linear's matmul, then the bias (and
F.linear of such an input was an addmm: now PyTorch's AddBackward0, its bias not fused).
The module's output is its own steps unrolled with F.linear, to the bit (PyTorch's RNN.cpp;
its float32 values are corpus 903's)."""

from __future__ import annotations

import pytest

from gradcli.lang.program import parse

UNROLL = """
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.rand({batch}, 10, 1)
rnn = torch.nn.{cls}(1, 32, batch_first=True)
out, _ = rnn(x)
xw = F.linear(x.transpose(0, 1), rnn.weight_ih_l0, rnn.bias_ih_l0)
h = torch.zeros({batch}, 32)
steps = []
for t in range(10):
    hg = F.linear(h, rnn.weight_hh_l0, rnn.bias_hh_l0)
    if "{cls}" == "RNN":
        h = torch.tanh(hg + xw[t])
    else:
        r, z, _ = (hg + xw[t]).chunk(3, 1)
        r, z = torch.sigmoid(r), torch.sigmoid(z)
        n = torch.tanh(xw[t].chunk(3, 1)[2] + hg.chunk(3, 1)[2] * r)
        h = (h - n) * z + n
    steps.append(h)
print(torch.equal(torch.stack(steps, 1), out), (torch.stack(steps, 1) - out).abs().max().item())
"""


@pytest.mark.parametrize("batch", [1, 3])
@pytest.mark.parametrize("cls", ["RNN", "GRU"])
def test_a_one_feature_sequence_projects_as_f_linear_does(cls: str, batch: int) -> None:
    # (batch_first: one sequence is a contiguous (T, 1, 1) input, ATen's fused addmm; three
    # are a transposed view, matmul then the bias: F.linear of the same view does either)
    text = UNROLL.format(cls=cls, batch=batch)
    got = "".join(parse(text, "rnn.py").run(dtype="float32").output)
    assert got == "True 0.0\n"
