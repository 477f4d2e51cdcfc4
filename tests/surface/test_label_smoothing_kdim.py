"""cross_entropy with label_smoothing, class weights and a K-dim input (N, C, d): ATen views
the weight along the class dimension ([1, C, 1]); gradcli multiplied the log-probabilities by
the weight as it was, which failed to broadcast, or, where d == C, broadcast along the last
dimension: a silent wrong loss. Its smoothing term's nodes are ATen's (masked_fill_ of the
ignored targets always; the two products with numbers MulBackward1). Expected numbers:
PyTorch 2.13's, float64. explore78."""

from __future__ import annotations

import json

import numpy as np

from gradcli.lang.program import parse

SETUP = """import torch
import torch.nn.functional as F
x = (torch.arange(18, dtype=torch.float64).reshape(2, 3, 3) * 0.37).sin().requires_grad_()
t = torch.tensor([[0, 2, 1], [1, 1, 0]])
w = torch.tensor([0.2, 1.0, 3.0], dtype=torch.float64)
"""

MEAN = 1.3247864514744707
MEAN_GRAD = [-0.009559613703918094, 0.0938099798200543, 0.056342654148473226,
             0.02218922101267073, 0.1671591329473762, -0.04576486467220371,
             -0.012629607308752639, -0.2609691127674305, -0.010577789476269507,
             0.08109466190515154, 0.05896188585294029, -0.003937872550241722,
             -0.08623211718787137, -0.08601678753336735, 0.003586241891298917,
             0.005137455282719804, 0.02705490168042708, 0.0003516306589428126]  # fmt: skip
SUM = 8.478633289436612
NONE = [0.6428657385071985, 3.078966959181938, 1.127393509424015, 1.58437304524153,
        1.4805495010103402, 0.564484536071591]  # fmt: skip


def run(text: str) -> list[str]:
    return "".join(parse(SETUP + text, "t.py").run(dtype="float32").output).splitlines()


def test_kdim_weighted_smoothed_loss_is_pytorchs() -> None:
    got = run(
        "for red in ['mean', 'sum']:\n"
        "    l = F.cross_entropy(x, t, weight=w, label_smoothing=0.3, reduction=red)\n"
        "    g, = torch.autograd.grad(l, x)\n"
        "    print(repr(l.item()), g.reshape(-1).tolist())\n"
        "print(F.cross_entropy(x, t, weight=w, label_smoothing=0.3, reduction='none')"
        ".reshape(-1).tolist())\n"
    )
    mean, grad = got[0].split(" ", 1)
    assert abs(float(mean) - MEAN) < 1e-13
    np.testing.assert_allclose(json.loads(grad), MEAN_GRAD, rtol=1e-12, atol=1e-15)
    assert abs(float(got[1].split(" ", 1)[0]) - SUM) < 1e-12
    np.testing.assert_allclose(json.loads(got[2]), NONE, rtol=1e-13)


def test_smoothing_term_nodes_are_atens() -> None:
    got = run(
        "l = F.cross_entropy(x, t, label_smoothing=0.3, reduction='none')\n"
        "print([f.name() for f, _ in l.grad_fn.next_functions])\n"
        "s = l.grad_fn.next_functions[1][0]\n"
        "print(len(s.next_functions), s.next_functions[0][0].name())\n"
    )
    assert got == ["['MulBackward1', 'MulBackward1']", "1 MaskedFillBackward0"]


def test_kdim_nll_graph_is_atens_nll_loss_nd() -> None:
    # ATen's nll_loss_nd: nll_loss2d of the 4-d input itself, of a (n, c, 1, -1) view of a
    # 3-d or 5-d one, its per-position losses viewed back (reduction='none')
    got = run(
        "def chain(fn):\n"
        "    names = []\n"
        "    while fn is not None and fn.next_functions:\n"
        "        names.append(fn.name())\n"
        "        fn = fn.next_functions[0][0]\n"
        "    return names\n"
        "for shape in [(2, 3, 4), (2, 3, 2, 2), (2, 3, 1, 2, 2)]:\n"
        "    z = torch.zeros(*shape, requires_grad=True)\n"
        "    tz = torch.zeros((shape[0],) + shape[2:], dtype=torch.long)\n"
        "    print(chain(F.nll_loss(z, tz).grad_fn), "
        "chain(F.nll_loss(z, tz, reduction='none').grad_fn))\n"
    )
    nd = "'NllLoss2DBackward0', 'ViewBackward0'"
    assert got == [
        f"[{nd}] ['ViewBackward0', {nd}]",
        "['NllLoss2DBackward0'] ['NllLoss2DBackward0']",
        f"[{nd}] ['ViewBackward0', {nd}]",
    ]
