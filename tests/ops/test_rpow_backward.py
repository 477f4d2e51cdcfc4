"""c ** x (PowBackward2): PyTorch's pow_backward_exponent is grad * (result * log(c)), the
product with the scalar's logarithm first; gradcli formed (grad * result) * log(c), which
differs in float32's last bits (found probing `2.5 ** q`). Expected values recorded with
torch 2.13 (CPU)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gradcli.core.autograd import grad
from gradcli.core.op import apply
from gradcli.core.tensor import Tensor
from gradcli.ops.elementwise import rpow_scalar

Q = [
    -0.4867807626724243, -0.6038215756416321, -0.5580962300300598, 0.6675242781639099,
    -0.19741509854793549, 1.9427834749221802, -1.4017020463943481, -0.7625571489334106,
    0.6312134265899658, -0.899135172367096, -0.5577934384346008, 0.6907187700271606,
]  # fmt: skip
G = [
    0.2224585860967636, -0.666225254535675, 0.6846421957015991, 0.5740016102790833,
    -0.5828827023506165, 0.7679415345191956, 0.057092659175395966, -1.189374566078186,
    -0.5658848881721497, -0.8326537609100342, 0.901448667049408, 0.2115711271762848,
]  # fmt: skip
RECORDED = {
    2.5: [
        0.13048870861530304, -0.3510505259037018, 0.37619081139564514, 0.9695740938186646,
        -0.4457128345966339, 4.173233985900879, 0.014481723308563232, -0.5418760180473328,
        -0.9245842099189758, -0.33473095297813416, 0.4954569935798645, 0.36505165696144104,
    ],
    0.3: [
        -0.4812748432159424, 1.659446358680725, -1.6139756441116333, -0.3093823790550232,
        0.890065610408783, -0.08914657682180405, -0.37163543701171875, 3.5864124298095703,
        0.3186373710632324, 2.9595096111297607, -2.124300956726074, -0.11089473217725754,
    ],
    10.0: [
        0.1669875532388687, -0.38195765018463135, 0.43609705567359924, 6.146856784820557,
        -0.8518865704536438, 154.99844360351562, 0.0052130743861198425, -0.4731263816356659,
        -5.573874473571777, -0.2418493777513504, 0.5745968222618103, 2.3899612426757812,
    ],
}  # fmt: skip


@pytest.mark.parametrize("base", sorted(RECORDED))
def test_float32_gradient_is_pytorchs_bits(base: float) -> None:
    x = Tensor(np.asarray(Q, np.float32), requires_grad=True)
    (gx,) = grad(apply(rpow_scalar, x, base=base), [x], Tensor(np.asarray(G, np.float32)))
    assert gx.data.dtype == np.float32
    assert gx.data.tolist() == RECORDED[base]


@pytest.mark.parametrize("base", [0.3, 2.5, 10.0])
def test_float64_gradient_matches_central_differences(base: float) -> None:
    x0 = np.asarray(Q)
    x = Tensor(x0.copy(), requires_grad=True)
    (gx,) = grad(apply(rpow_scalar, x, base=base), [x], Tensor(np.ones_like(x0)))
    h = 1e-6
    fd = (base ** (x0 + h) - base ** (x0 - h)) / (2 * h)
    assert np.allclose(gx.data, fd, rtol=1e-8)
    assert np.allclose(gx.data, base**x0 * math.log(base), rtol=1e-14)
