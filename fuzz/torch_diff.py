"""Differential fuzzing against PyTorch: random small programs, in the style users write, run
by PyTorch and by gradcli; any difference in what they print is a finding.

    python fuzz/torch_diff.py gen --n 2000 --seed 1 --out /tmp/td   # write the programs
    /path/to/torch/python fuzz/torch_diff.py torch --dir /tmp/td     # PyTorch's output
    python fuzz/torch_diff.py gradcli --dir /tmp/td                  # gradcli's, and the report

A program makes a few leaves (seeded `randn`, literal tensors with zeros, ties and large
values, integer tensors), applies a random chain of operations (elementwise, broadcasting,
reductions, views, indexing, in-place changes, losses), prints the values, their dtypes and
grad_fn names, runs backward (a sum, a chosen gradient, or autograd.grad with
create_graph) and prints the gradients. Classes of the report:

    same       both printed the same text (both failing counts when both failed)
    DIFF       both ran, the text differs: a silent wrong answer unless explained
    REFUSED    PyTorch ran, gradcli stopped with an error (its message is listed)
    ACCEPTED   PyTorch raised, gradcli ran: gradcli lets a wrong program through
    CRASH      gradcli raised something other than its own error (a bug)

This is a developer tool (PyTorch is not a dependency); what it finds becomes corpus
programs and tests.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import sys
from pathlib import Path

# --- the generator ------------------------------------------------------------------------

UNARY = [
    "torch.exp({x})",
    "{x}.sin()",
    "torch.cos({x})",
    "torch.tanh({x})",
    "{x}.sigmoid()",
    "F.relu({x})",
    "F.gelu({x})",
    "F.softplus({x})",
    "{x}.abs()",
    "{x} ** 2",
    "{x}.pow(3)",
    "torch.sqrt({x}.abs() + 1)",
    "torch.log({x}.abs() + 1)",
    "{x}.clamp(-0.5, 0.5)",
    "{x}.clamp(min=0.1)",
    "F.leaky_relu({x}, 0.1)",
    "F.elu({x})",
    "F.silu({x})",
    "torch.atan({x})",
    "torch.erf({x})",
    "-{x}",
    "torch.where({x} > 0, {x}, {x} * 0.5)",
    "{x}.masked_fill({x} < 0, 0.0)",
    "torch.sign({x}) * {x}",
    "torch.rsqrt({x}.abs() + 0.1)",
    "torch.log1p({x}.abs())",
    "torch.expm1({x})",
    "{x}.floor()",
    "torch.round({x}, decimals=1)",
    "{x} * 3 - 1",
    "2 / ({x}.abs() + 1)",
    "1 - {x}",
    "{x}.square()",
    "F.hardtanh({x})",
    "F.softsign({x})",
    "torch.sinh({x})",
    "torch.asinh({x})",
    "F.mish({x})",
    "F.hardswish({x})",
    "F.logsigmoid({x})",
    "F.relu6({x} * 4)",
    "torch.nan_to_num({x})",
    "{x}.detach()",
    "{x}.clone()",
    "{x}.double()",
    "{x}.float()",
    "{x}.to(torch.float64)",
    "torch.trunc({x} * 3)",
    "torch.frac({x})",
    "{x}.exp2()",
    "torch.log2({x}.abs() + 0.5)",
    "torch.log10({x}.abs() + 0.5)",
    "torch.heaviside({x}, torch.tensor(0.5))",
    "{x}.reciprocal()",
]
BINARY = [
    "{x} + {y}",
    "{x} - {y}",
    "{x} * {y}",
    "{x} / ({y}.abs() + 0.5)",
    "torch.maximum({x}, {y})",
    "torch.minimum({x}, {y})",
    "torch.atan2({x}, {y})",
    "({x}.abs() + 0.1) ** {y}",
    "torch.lerp({x}, {y}, 0.3)",
    "torch.addcmul({x}, {y}, {y}, value=0.5)",
    "torch.addcdiv({x}, {y}, {y}.abs() + 1, value=2)",
    "torch.where({x} > {y}, {x}, {y})",
    "{x} * ({y} > 0)",
    "torch.hypot({x}, {y})",
    "F.mse_loss({x}, {y})",
    "F.l1_loss({x}, {y})",
    "F.smooth_l1_loss({x}, {y})",
    "F.huber_loss({x}, {y}, delta=0.5)",
    "F.binary_cross_entropy({x}.sigmoid(), {y}.sigmoid())",
    "F.binary_cross_entropy_with_logits({x}, {y}.sigmoid())",
    "F.kl_div({x}.log_softmax(-1), {y}.softmax(-1), reduction='batchmean')",
    "F.cosine_similarity({x}, {y}, dim=-1)",
    "torch.cat([{x}, {y}], -1)",
    "torch.stack([{x}, {y}])",
    "{x} @ {y}",
    "torch.matmul({x}, {y}.T)",
    "torch.fmod({x}, 0.7)",
    "{x} % 0.7",
    "{x} // 0.7",
    "torch.dist({x}, {y})",
    "torch.dot({x}.flatten(), {y}.flatten())",
    "torch.outer({x}.flatten(), {y}.flatten())",
    "F.pairwise_distance({x}, {y})",
    "torch.copysign({x}, {y})",
    "{x}.eq({y})",
    "({x} < {y}).float()",
    "torch.isclose({x}, {y}, atol=0.5)",
    "torch.xlogy({x}.abs(), {y}.abs())",
]
REDUCE = [
    "{x}.sum()",
    "{x}.sum(0)",
    "{x}.sum(-1, keepdim=True)",
    "{x}.mean()",
    "{x}.mean(dim=-1)",
    "{x}.max()",
    "{x}.max(dim=0).values",
    "{x}.min(-1)[0]",
    "{x}.argmax(-1)",
    "{x}.norm()",
    "{x}.norm(dim=-1)",
    "{x}.std()",
    "{x}.var(0)",
    "{x}.std(-1, unbiased=False)",
    "{x}.prod(-1)",
    "torch.logsumexp({x}, -1)",
    "{x}.amax(0)",
    "F.softmax({x}, -1)",
    "F.log_softmax({x}, 0)",
    "{x}.cumsum(-1)",
    "{x}.cumprod(0)",
    "torch.linalg.vector_norm({x}, ord=3)",
    "{x}.median()",
    "{x}.sort(-1).values",
    "{x}.topk(2, dim=-1).values",
    "{x}.softmax(dim=0)",
    "F.normalize({x}, dim=-1)",
    "{x}.var_mean(-1)[0]",
    "torch.aminmax({x}).max",
    "{x}.kthvalue(1, dim=-1).values",
    "{x}.nansum()",
    "{x}.sum(dtype=torch.float64)",
    "torch.trace({x})",
    "{x}.logcumsumexp(-1)",
    "{x}.cummax(-1).values",
    "torch.diff({x}, dim=-1)",
    "{x}.all()",
    "{x}.any(-1)",
    "{x}.count_nonzero()",
    "F.layer_norm({x}, {x}.shape[-1:])",
]
SHAPE = [
    "{x}.T",
    "{x}.t()",
    "{x}.reshape(-1)",
    "{x}.view(-1)",
    "{x}.unsqueeze(0)",
    "{x}.flatten()",
    "{x}[0]",
    "{x}[:, 1:]",
    "{x}[..., ::2]",
    "{x}[-1, None]",
    "{x}.flip(0)",
    "{x}.roll(1, -1)",
    "{x}.expand(2, *{x}.shape)",
    "{x}.repeat(2, 1)",
    "{x}.transpose(0, -1)",
    "{x}.squeeze()",
    "{x}.narrow(-1, 0, 1)",
    "torch.tril({x})",
    "torch.triu({x}, 1)",
    "{x}.diag()",
    "{x}.diagonal()",
    "{x}[[0, -1]]",
    "{x}[{x} > 0]",
    "{x}.chunk(2, -1)[0]",
    "{x}.split(1)[-1]",
    "{x}.unbind(0)[0]",
    "{x}.contiguous()",
    "{x}.movedim(0, -1)",
    "{x}.tile((2,))",
    "torch.index_select({x}, -1, torch.tensor([0, 0, 1]))",
    "torch.gather({x}, -1, torch.zeros_like({x}, dtype=torch.long))",
    "{x}.new_zeros(2).add({x}.sum())",
    "F.pad({x}, (1, 2))",
    "{x}.unfold(-1, 2, 1)",
    "{x}.mT",
    "{x}.view_as({x})",
    "{x}.reshape(2, -1)",
    "{x}.flatten().sort().values",
    "{x}.take(torch.tensor([0, 2]))",
    "torch.kron({x}, torch.ones(2))",
]
INPLACE = [
    "{z}.add_(1)",
    "{z}.mul_({y})",
    "{z}.clamp_(-1, 1)",
    "{z}.zero_()",
    "{z}[0] = 5",
    "{z}[..., 0] = {y}.sum()",
    "{z} += {y}",
    "{z} *= 2",
    "{z}.sub_({y}, alpha=2)",
    "{z}.fill_(0.25)",
    "{z}.relu_()",
    "{z}.sigmoid_()",
    "{z}.exp_()",
    "{z}.copy_({y})",
    "{z}.masked_fill_({z} > 0, 1.0)",
    "{z}.div_(3)",
    "{z}.pow_(2)",
    "{z}.abs_()",
    "{z}.neg_()",
    "{z}.t_()",
    "{z}.unsqueeze_(0)",
    "{z}.index_add_(-1, torch.tensor([0]), {y}[..., :1])",
    "{z}.scatter_(-1, torch.zeros_like({z}, dtype=torch.long), 2.0)",
]

# More of the operations the issue lists, on (3, 4)-shaped and square operands.
MORE = [
    "torch.asin({x}.clamp(-0.9, 0.9))",
    "torch.acos({x}.clamp(-0.9, 0.9))",
    "torch.cosh({x})",
    "torch.acosh({x}.abs() + 1.5)",
    "torch.atanh({x}.clamp(-0.9, 0.9))",
    "torch.ceil({x} * 2)",
    "F.selu({x})",
    "F.celu({x}, alpha=0.7)",
    "F.hardsigmoid({x})",
    "F.softmin({x}, dim=-1)",
    "F.softshrink({x}, 0.3)",
    "F.hardshrink({x}, 0.3)",
    "F.tanhshrink({x})",
    "F.threshold({x}, 0.1, -1.0)",
    "F.glu({x}, dim=-1)",
    "F.prelu({x}, torch.tensor([0.25]))",
    "F.rrelu({x}, training=False)",
    "F.dropout({x}, p=0.3, training=False)",
    "F.normalize({x}, p=1, dim=0)",
    "F.pad({x}, (1, 1), mode='constant', value=-1.0)",
    "F.pad({x}[None], (2, 1), mode='reflect')",
    "F.pad({x}[None], (1, 2), mode='replicate')",
    "F.pad({x}[None], (1, 1), mode='circular')",
    "F.conv1d({x}[None], torch.ones(2, {x}.shape[0], 2) * 0.5)",
    "F.max_pool1d({x}[None], 2)",
    "F.avg_pool1d({x}[None], 2, stride=1)",
    "F.lp_pool1d({x}[None].abs() + 0.1, 2, 2)",
    "F.adaptive_max_pool1d({x}[None], 2)",
    "F.interpolate({x}[None], scale_factor=2, mode='linear')",
    "F.interpolate({x}[None], size=5, mode='nearest')",
    "F.group_norm({x}[None], 1)",
    "F.instance_norm({x}[None])",
    "F.local_response_norm({x}[None], 2)",
    "F.embedding(torch.tensor([0, 2, 1]), {x})",
    "F.one_hot(torch.tensor([0, 2]), 3) * {x}[:2, :3]",
    "F.soft_margin_loss({x}, torch.ones_like({x}))",
    "F.margin_ranking_loss({x}[0], {x}[1], torch.tensor([1., -1., 1., -1.]))",
    "F.hinge_embedding_loss({x}, torch.ones_like({x}).sign())",
    "F.triplet_margin_loss({x}, {x} * 0.5, {x}.flip(0))",
    "F.cosine_embedding_loss({x}, {x}.flip(0), torch.ones({x}.shape[0]))",
    "F.poisson_nll_loss({x}, {x}.abs())",
    "F.gaussian_nll_loss({x}, {x}.flip(0), {x}.abs() + 0.1)",
    "F.multilabel_soft_margin_loss({x}, ({x} > 0).float())",
    "F.multi_margin_loss({x}, torch.zeros({x}.shape[0], dtype=torch.long))",
    "F.cross_entropy({x}, torch.zeros({x}.shape[0], dtype=torch.long), reduction='sum')",
    "F.cross_entropy({x}, {x}.softmax(-1))",
    "F.nll_loss({x}.log_softmax(-1), torch.ones({x}.shape[0], dtype=torch.long), reduction='none')",
    "torch.cummin({x}, 0).values",
    "torch.median({x}, dim=-1).values",
    "torch.mode({x}.round(), dim=-1).values",
    "torch.std_mean({x}, dim=0)[0]",
    "torch.trapezoid({x}, dim=-1)",
    "torch.cumulative_trapezoid({x}, dim=0)",
    "torch.einsum('ij,ij->i', {x}, {x})",
    "torch.einsum('ij,kj->ik', {x}, {x})",
    "torch.einsum('...j->...', {x})",
    "torch.tensordot({x}, {x}, dims=2)",
    "torch.bmm({x}[None], {x}.T[None])",
    "torch.baddbmm({x}[None] @ {x}.T[None], {x}[None], {x}.T[None], beta=0.5, alpha=2)",
    "torch.addmm({x}[:, :1], {x}, {x}.T, alpha=0.5)",
    "torch.addmv({x}[:, 0], {x}, {x}[0], beta=2)",
    "torch.addr({x}, {x}[:, 0], {x}[0])",
    "torch.cdist({x}, {x}.flip(0))",
    "torch.cdist({x}, {x}, p=1)",
    "torch.linalg.norm({x})",
    "torch.linalg.matrix_norm({x}, ord='nuc')",
    "torch.linalg.vector_norm({x}, ord=float('inf'), dim=-1)",
    "torch.det({x}[:3, :3] + torch.eye(3) * 3)",
    "torch.logdet({x}[:3, :3] @ {x}[:3, :3].T + torch.eye(3))",
    "torch.linalg.slogdet({x}[:3, :3] + torch.eye(3) * 2)[1]",
    "torch.inverse({x}[:3, :3] + torch.eye(3) * 3)",
    "torch.linalg.solve({x}[:3, :3] + torch.eye(3) * 3, {x}[:3, :1])",
    "torch.linalg.pinv({x})",
    "torch.linalg.cholesky({x} @ {x}.T + torch.eye({x}.shape[0]))",
    "torch.linalg.eigh({x}[:3, :3] + {x}[:3, :3].T)[0]",
    "torch.linalg.svdvals({x})",
    "torch.linalg.qr({x}.T)[1]",
    "torch.linalg.matrix_exp({x}[:3, :3] * 0.3)",
    "torch.linalg.cross({x}[:, :3], {x}[:, 1:])",
    "torch.trace({x} @ {x}.T)",
    "{x}.masked_select({x} > 0)",
    "{x}.scatter(1, torch.tensor([[0], [1], [2]])[:{x}.shape[0]], 9.0)",
    "{x}.scatter_add(1, torch.tensor([[0, 0], [1, 1], [2, 2]])[:{x}.shape[0]], {x}[:, :2])",
    "{x}.index_fill(1, torch.tensor([0]), -2.0)",
    "{x}.index_add(0, torch.tensor([0]), {x}[1:2])",
    "{x}.put(torch.tensor([1, 3]), torch.tensor([5.0, 6.0]))",
    "{x}.rot90(1, (0, 1))",
    "{x}.fliplr()",
    "{x}.repeat_interleave(2, dim=0)",
    "{x}.unflatten(-1, (2, 2))",
    "{x}.diag_embed()",
    "torch.block_diag({x}, {x}[:1])",
    "torch.cartesian_prod({x}[0], {x}[1])",
    "torch.vander({x}[0], N=3)",
    "{x}.renorm(2, 0, 1.0)",
    "{x}.logit(eps=1e-3)",
    "{x}.sigmoid().logit()",
    "torch.special.erfinv({x}.clamp(-0.9, 0.9))",
    "torch.special.expit({x})",
    "torch.special.xlog1py({x}.abs(), {x}.abs())",
    "torch.special.entr({x}.abs())",
    "torch.special.log_ndtr({x})",
    "torch.special.ndtri({x}.sigmoid())",
    "torch.special.i0({x})",
    "torch.lgamma({x}.abs() + 0.5)",
    "torch.digamma({x}.abs() + 0.5)",
    "torch.polygamma(1, {x}.abs() + 0.5)",
    "torch.sinc({x})",
    "torch.deg2rad({x})",
    "torch.logaddexp({x}, {x}.flip(0))",
    "torch.fmax({x}, {x}.flip(0))",
    "torch.nextafter({x}, torch.zeros_like({x}))",
    "torch.ldexp({x}, torch.tensor([2]))",
    "torch.float_power({x}.abs(), 2)",
    "torch.true_divide({x}, 3)",
    "torch.floor_divide({x}, 0.7)",
    "torch.remainder({x}, -0.7)",
    "torch.clip({x}, max=0.2)",
    "torch.signbit({x}).float() * {x}",
    "torch.frexp({x})[0]",
    "torch.nan_to_num({x}.log(), nan=0.0, neginf=-9.0)",
    "torch.histc({x}, bins=4)",
    "torch.bucketize({x}, torch.tensor([-1.0, 0.0, 1.0]))",
    "torch.searchsorted(torch.tensor([-1.0, 0.0, 1.0]), {x}.flatten())",
    "torch.unique({x}.round())",
    "torch.count_nonzero({x} > 0, dim=0)",
    "torch.quantile({x}, 0.4, dim=-1)",
    "torch.nanmedian({x})",
    "torch.corrcoef({x})",
    "torch.cov({x})",
    "torch.var({x}, dim=-1, correction=2)",
    "torch.atleast_3d({x}).shape",
    "torch.meshgrid({x}[0], {x}[1], indexing='xy')[0]",
    "torch.stft({x}.flatten(), 4, return_complex=True).abs()",
    "torch.fft.rfft({x}).abs()",
    "torch.fft.fft({x}).real",
    "torch.view_as_real(torch.complex({x}, {x}.flip(0)))",
    "torch.polar({x}.abs(), {x}).angle()",
]

LEAVES = [
    "torch.randn(3, 4, requires_grad=True)",
    "torch.randn(4, requires_grad=True)",
    "torch.randn(3, 1, requires_grad=True)",
    "torch.randn((), requires_grad=True)",
    "torch.randn(2, 3, 4, requires_grad=True)",
    "torch.randn(4, 4, dtype=torch.float64, requires_grad=True)",
    "torch.tensor([[0.0, -1.5, 2.0, 1e-3], [1.0, 1.0, -0.0, 3.5], [-2.0, 0.5, 0.5, 100.0]],"
    " requires_grad=True)",
    "torch.tensor([1.0, -1.0, 0.0, 2.0], requires_grad=True)",
    "torch.arange(12.0).reshape(3, 4).requires_grad_()",
    "torch.arange(4)",
    "torch.tensor([[1, -2, 3, 0], [4, 4, -1, 2], [0, 0, 5, -3]])",
    "torch.rand(3, 4) > 0.5",
    "torch.linspace(-3, 3, 4, requires_grad=True)",
    "torch.full((3, 4), 0.5, requires_grad=True)",
    "torch.randn(3, 4).double().requires_grad_()",
    "torch.ones(3, 4, dtype=torch.float16, requires_grad=True)",
]

PRINTS = [
    "print({v})",
    "print({v}.shape, {v}.dtype)",
    "print({v}.grad_fn.name() if {v}.grad_fn is not None else None)",
    "print({v}.sum().item())",
    "print({v}.tolist())",
    "print({v}.requires_grad, {v}.is_leaf)",
    "print(f'{{{v}.sum().item():.6f}}')",
]


def program(rng: random.Random) -> str:
    """One random program."""
    lines = [
        "import torch",
        "import torch.nn.functional as F",
        f"torch.manual_seed({rng.randrange(1000)})",
    ]
    if rng.random() < 0.15:
        lines.append(f"torch.set_printoptions(precision={rng.choice([2, 6, 8])})")
    names = []
    for i in range(rng.randint(1, 3)):
        name = "abc"[i]
        lines.append(f"{name} = {rng.choice(LEAVES)}")
        names.append(name)
    leaves = list(names)
    for k in range(rng.randint(1, 5)):
        x = rng.choice(names)
        y = rng.choice(names)
        kind = rng.random()
        new = f"t{k}"
        if kind < 0.3:
            expr = rng.choice(UNARY).format(x=x)
        elif kind < 0.55:
            expr = rng.choice(BINARY).format(x=x, y=y)
        elif kind < 0.62:
            expr = rng.choice(REDUCE).format(x=x)
        elif kind < 0.72:
            expr = rng.choice(MORE).format(x=x)
        elif kind < 0.9:
            expr = rng.choice(SHAPE).format(x=x)
        else:
            lines.append(f"{new} = {x}.clone()")
            lines.append(rng.choice(INPLACE).format(z=new, y=y))
            names.append(new)
            continue
        lines.append(f"{new} = {expr}")
        names.append(new)
    out = names[-1]
    for _ in range(rng.randint(1, 2)):
        lines.append(rng.choice(PRINTS).format(v=out))
    back = rng.random()
    if back < 0.5:
        lines.append(f"{out}.sum().backward()")
    elif back < 0.7:
        lines.append(f"{out}.backward(torch.ones_like({out}) * 0.5)")
    elif back < 0.85:
        lines.append(f"{out}.mean().backward(retain_graph=True)")
        lines.append(f"{out}.sum().backward()")
    else:
        wrt = ", ".join(leaves)
        lines.append(
            f"gs = torch.autograd.grad({out}.sum(), [{wrt}], create_graph=True, allow_unused=True)"
        )
        lines.append("print(gs)")
        lines.append("if gs[0] is not None and gs[0].requires_grad:")
        lines.append(f"    print(torch.autograd.grad(gs[0].sum(), {leaves[0]}, allow_unused=True))")
    for leaf in leaves:
        lines.append(f"print({leaf}.grad)")
    return "\n".join(lines) + "\n"


LAYERS = [
    "nn.Linear({i}, {o})",
    "nn.Linear({i}, {o}, bias=False)",
    "nn.Sequential(nn.Linear({i}, 5), nn.{act}(), nn.Linear(5, {o}))",
    "nn.Sequential(nn.Linear({i}, 6), nn.LayerNorm(6), nn.{act}(), nn.Linear(6, {o}))",
    "nn.Sequential(nn.Linear({i}, 6), nn.BatchNorm1d(6), nn.{act}(), nn.Linear(6, {o}))",
    "nn.Sequential(nn.Linear({i}, 6), nn.Dropout(0.0), nn.{act}(), nn.Linear(6, {o}))",
    "nn.Bilinear({i}, {i}, {o})",
]
ACTS = [
    "ReLU",
    "Tanh",
    "Sigmoid",
    "GELU",
    "SiLU",
    "LeakyReLU",
    "ELU",
    "Softplus",
    "Mish",
    "Hardtanh",
    "ReLU6",
    "SELU",
    "CELU",
    "Softsign",
    "Hardswish",
    "LogSigmoid",
]
LOSSES = [
    ("nn.MSELoss()", "reg"),
    ("nn.L1Loss()", "reg"),
    ("nn.SmoothL1Loss(beta=0.5)", "reg"),
    ("nn.HuberLoss(delta=0.7)", "reg"),
    ("nn.MSELoss(reduction='sum')", "reg"),
    ("nn.CrossEntropyLoss()", "cls"),
    ("nn.CrossEntropyLoss(label_smoothing=0.1)", "cls"),
    ("nn.NLLLoss()", "logp"),
    ("nn.BCEWithLogitsLoss()", "bin"),
    ("nn.BCELoss()", "prob"),
    ("nn.KLDivLoss(reduction='batchmean')", "logp_t"),
]
OPTIMS = [
    "torch.optim.SGD(model.parameters(), lr={lr})",
    "torch.optim.SGD(model.parameters(), lr={lr}, momentum=0.9)",
    "torch.optim.SGD(model.parameters(), lr={lr}, momentum=0.9, nesterov=True)",
    "torch.optim.SGD(model.parameters(), lr={lr}, weight_decay=0.01)",
    "torch.optim.Adam(model.parameters(), lr={lr})",
    "torch.optim.Adam(model.parameters(), lr={lr}, amsgrad=True)",
    "torch.optim.AdamW(model.parameters(), lr={lr})",
    "torch.optim.RMSprop(model.parameters(), lr={lr})",
    "torch.optim.Adagrad(model.parameters(), lr={lr})",
    "torch.optim.Adadelta(model.parameters())",
    "torch.optim.Adamax(model.parameters(), lr={lr})",
    "torch.optim.NAdam(model.parameters(), lr={lr})",
    "torch.optim.RAdam(model.parameters(), lr={lr})",
    "torch.optim.Rprop(model.parameters(), lr={lr})",
    "torch.optim.ASGD(model.parameters(), lr={lr})",
]
SCHEDS = [
    "",
    "torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)",
    "torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)",
    "torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)",
    "torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 1 / (e + 1))",
    "torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=10)",
]


def program_nn(rng: random.Random) -> str:
    """A small training loop in the way tutorials write one."""
    i, o = rng.choice([(3, 2), (4, 3), (2, 1)])
    loss, kind = rng.choice(LOSSES)
    if kind in ("bin", "prob", "reg") and rng.random() < 0.5:
        o = 1
    layer = rng.choice(LAYERS).format(i=i, o=o, act=rng.choice(ACTS))
    if layer.startswith("nn.Bilinear"):
        call = "model(x, x)"
    else:
        call = "model(x)"
    n = rng.choice([4, 6, 8])
    targets = {
        "reg": f"torch.randn({n}, {o})",
        "cls": f"torch.randint(0, {o}, ({n},))" if o > 1 else f"torch.zeros({n}, dtype=torch.long)",
        "logp": f"torch.randint(0, {o}, ({n},))"
        if o > 1
        else f"torch.zeros({n}, dtype=torch.long)",
        "bin": f"torch.randint(0, 2, ({n}, {o})).float()",
        "prob": f"torch.rand({n}, {o})",
        "logp_t": f"torch.softmax(torch.randn({n}, {o}), dim=1)",
    }[kind]
    out = {
        "reg": call,
        "cls": call,
        "logp": f"torch.log_softmax({call}, dim=1)",
        "bin": call,
        "prob": f"torch.sigmoid({call})",
        "logp_t": f"torch.log_softmax({call}, dim=1)",
    }[kind]
    lr = rng.choice([0.1, 0.05, 0.01, 0.3])
    sched = rng.choice(SCHEDS)
    lines = [
        "import torch",
        "import torch.nn as nn",
        f"torch.manual_seed({rng.randrange(1000)})",
        f"model = {layer}",
        f"x = torch.randn({n}, {i})",
        f"y = {targets}",
        f"loss_fn = {loss}",
        f"opt = {rng.choice(OPTIMS).format(lr=lr)}",
    ]
    if sched:
        lines.append(f"sched = {sched}")
    lines += [
        f"for step in range({rng.choice([3, 5, 8])}):",
        "    opt.zero_grad()",
        f"    loss = loss_fn({out}, y)",
        "    loss.backward()",
        "    opt.step()",
    ]
    if sched:
        lines.append("    sched.step()")
    lines.append(
        rng.choice(
            [
                "    print(step, loss.item())",
                "    print(f'{step}: {loss.item():.4f}')",
                "    print(loss)",
            ]
        )
    )
    if sched:
        lines.append("print(sched.get_last_lr())")
    lines.append(
        rng.choice(
            [
                "for name, p in model.named_parameters():\n    print(name, p.data)",
                "print(list(model.parameters())[0].grad)",
                "print(model(x) if not isinstance(model, nn.Bilinear) else model(x, x))",
                "print(opt.state_dict()['param_groups'][0]['lr'])",
            ]
        )
    )
    return "\n".join(lines) + "\n"


# (layer, input) pairs of the other kinds of layers, with a forward and a backward
BLOCKS = [
    ("nn.Conv1d(2, 3, 3, padding={pad})", "torch.randn(2, 2, 7)"),
    ("nn.Conv1d(2, 4, 2, stride=2, bias=False)", "torch.randn(3, 2, 8)"),
    ("nn.Conv2d(1, 2, 3, padding={pad})", "torch.randn(2, 1, 5, 5)"),
    ("nn.Sequential(nn.Conv2d(2, 3, 3), nn.ReLU(), nn.MaxPool2d(2))", "torch.randn(1, 2, 6, 6)"),
    (
        "nn.Sequential(nn.Conv2d(1, 2, 2), nn.BatchNorm2d(2), nn.AvgPool2d(2))",
        "torch.randn(3, 1, 5, 5)",
    ),
    (
        "nn.Sequential(nn.Conv1d(1, 2, 3), nn.AdaptiveAvgPool1d(2), nn.Flatten())",
        "torch.randn(2, 1, 9)",
    ),
    ("nn.ConvTranspose1d(2, 1, 3, stride=2)", "torch.randn(1, 2, 4)"),
    ("nn.RNN(3, 4, batch_first=True)", "torch.randn(2, 5, 3)"),
    ("nn.LSTM(3, 4, batch_first=True)", "torch.randn(2, 5, 3)"),
    ("nn.GRU(3, 2, num_layers=2)", "torch.randn(4, 2, 3)"),
    ("nn.LSTMCell(3, 4)", "torch.randn(2, 3)"),
    ("nn.GRUCell(3, 4)", "torch.randn(2, 3)"),
    (
        "nn.Sequential(nn.Embedding(10, 4), nn.Flatten(), nn.Linear(12, 2))",
        "torch.tensor([[1, 2, 3], [4, 5, 9]])",
    ),
    ("nn.EmbeddingBag(10, 3, mode='{bag}')", "torch.tensor([[1, 2, 4], [4, 3, 9]])"),
    ("nn.MultiheadAttention(4, 2, batch_first=True)", "torch.randn(2, 3, 4)"),
    (
        "nn.TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=0.0, batch_first=True)",
        "torch.randn(2, 3, 4)",
    ),
    ("nn.LayerNorm([3, 4])", "torch.randn(2, 3, 4)"),
    ("nn.GroupNorm(2, 4)", "torch.randn(2, 4, 3)"),
    ("nn.InstanceNorm1d(2, affine=True)", "torch.randn(2, 2, 5)"),
    ("nn.PReLU()", "torch.randn(3, 4)"),
    ("nn.Softmax(dim=1)", "torch.randn(3, 4, requires_grad=True)"),
    ("nn.Upsample(scale_factor=2, mode='{mode}')", "torch.randn(1, 1, 3, 3, requires_grad=True)"),
    ("nn.PixelShuffle(2)", "torch.randn(1, 4, 2, 2, requires_grad=True)"),
]


def program_block(rng: random.Random) -> str:
    layer, inp = rng.choice(BLOCKS)
    layer = layer.format(
        pad=rng.choice([0, 1]),
        bag=rng.choice(["mean", "sum", "max"]),
        mode=rng.choice(["nearest", "bilinear"]),
    )
    call = "m(x, x, x)" if "Multihead" in layer else "m(x)"
    lines = [
        "import torch",
        "import torch.nn as nn",
        f"torch.manual_seed({rng.randrange(1000)})",
        f"m = {layer}",
        f"x = {inp}",
        f"out = {call}",
        "out = out[0] if isinstance(out, tuple) else out",
        rng.choice(
            ["print(out)", "print(out.sum().item())", "print(out.shape, out.grad_fn.name())"]
        ),
        rng.choice(
            ["(out ** 2).sum().backward()", "out.sum().backward()", "out.mean().backward()"]
        ),
        "for name, p in m.named_parameters():",
        rng.choice(
            [
                "    print(name, p.grad)",
                "    print(name, p.grad.sum().item())",
                "    print(name, p.grad.norm().item())",
            ]
        ),
        "print(x.grad)",
    ]
    return "\n".join(lines) + "\n"


# --- the runners ----------------------------------------------------------------------------


def run_torch(text: str) -> dict:
    import torch  # noqa: F401  (imported once; the programs import it again)

    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf), _warnings_off():
            exec(compile(text, "t.py", "exec"), {"__name__": "__main__"})  # noqa: S102
    except Exception as e:  # noqa: BLE001  (what the program raised is the data)
        torch.set_printoptions(profile="default")
        return {"ok": False, "out": buf.getvalue(), "err": f"{type(e).__name__}: {e}"}
    torch.set_printoptions(profile="default")
    return {"ok": True, "out": buf.getvalue(), "err": ""}


@contextlib.contextmanager
def _warnings_off():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def run_gradcli(text: str) -> dict:
    from gradcli.base.errors import GradcliError
    from gradcli.lang.program import parse

    printed: list[str] = []
    try:
        parse(text, "t.py").run(dtype="float32", echo=printed.append)
    except GradcliError as e:
        return {"ok": False, "out": "".join(printed), "err": str(e), "crash": False}
    except Exception as e:  # noqa: BLE001  (a finding)
        return {"ok": False, "out": "".join(printed), "err": repr(e), "crash": True}
    return {"ok": True, "out": "".join(printed), "err": "", "crash": False}


ENUM_LEAVES = [
    "torch.tensor([[1, -2, 3, 0], [4, 4, -1, 2], [0, 0, 5, -3]])",
    "torch.tensor([[True, False, True, True], [False, False, True, False], [True] * 4])",
    "torch.tensor([[0.5, -1.5, 2.0, 0.0], [1.0, 1.0, -0.0, 3.5], [-2.0, 0.5, 0.25, 8.0]],"
    " dtype=torch.float16, requires_grad=True)",
    "torch.tensor([[0.5, -1.5, 2.0, 0.0], [1.0, 1.0, -0.0, 3.5], [-2.0, 0.5, 0.25, 8.0]],"
    " dtype=torch.float64, requires_grad=True)",
    "torch.tensor([[0.5, -1.5, 2.0, 0.0], [1.0, 1.0, -0.0, 3.5], [-2.0, 0.5, 0.25, 8.0]],"
    " dtype=torch.bfloat16, requires_grad=True)",
    "torch.tensor(1.5, requires_grad=True)",
    "torch.tensor([3, 1, 2], dtype=torch.int32)",
    "torch.tensor([[0.5, -1.5j, 2.0, 0.0], [1.0, 1.0, -0.0, 3.5], [-2.0, 0.5, 0.25, 8.0]],"
    " requires_grad=True)",
]


def enumerate_programs() -> list[str]:
    """Every template on every kind of leaf (dtypes, 0-d), one operation a program: what
    each operation does with each dtype, its values, dtype and gradient."""
    progs = []
    head = "import torch\nimport torch.nn.functional as F\n"
    for leaf in ENUM_LEAVES:
        for table in (UNARY, BINARY, REDUCE, SHAPE, MORE):
            for t in table:
                expr = t.format(x="a", y="b")
                progs.append(
                    head
                    + f"a = {leaf}\nb = a.flip(0) if a.ndim else a * 2\n"
                    + f"r = {expr}\nprint(r)\nprint(r.dtype, r.shape)\n"
                    + "if r.requires_grad:\n    r.sum().real.backward()\n    print(a.grad)\n"
                )
        for t in INPLACE:
            progs.append(
                head
                + f"a = {leaf}\nb = a.flip(0) if a.ndim else a * 2\nz = a.clone()\n"
                + t.format(z="z", y="b")
                + "\nprint(z)\nprint(z.dtype, z.shape)\n"
                + "if z.requires_grad:\n    z.sum().real.backward()\n    print(a.grad)\n"
            )
    return progs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("step", choices=["gen", "enum", "torch", "gradcli"])
    ap.add_argument("--dir", "--out", dest="dir", type=Path, required=True)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show", type=int, default=30, help="findings shown per class")
    a = ap.parse_args(argv)
    a.dir.mkdir(parents=True, exist_ok=True)
    progs = a.dir / "programs.json"
    if a.step == "gen":
        rng = random.Random(a.seed)
        make = [program, program, program_nn, program_block]
        progs.write_text(json.dumps([rng.choice(make)(rng) for _ in range(a.n)]))
        return 0
    if a.step == "enum":
        progs.write_text(json.dumps(enumerate_programs()))
        return 0
    texts = json.loads(progs.read_text())
    if a.step == "torch":
        (a.dir / "torch.json").write_text(json.dumps([run_torch(t) for t in texts]))
        return 0
    ref = json.loads((a.dir / "torch.json").read_text())
    classes: dict[str, list[int]] = {}
    got = []
    for i, (text, r) in enumerate(zip(texts, ref, strict=True)):
        g = run_gradcli(text)
        got.append(g)
        if g["crash"]:
            c = "CRASH"
        elif r["ok"] and g["ok"]:
            c = "same" if r["out"] == g["out"] else "DIFF"
        elif r["ok"]:
            c = "REFUSED"
        elif g["ok"]:
            c = "ACCEPTED"
        else:
            c = "same" if r["out"] == g["out"] else "DIFF"
        classes.setdefault(c, []).append(i)
    (a.dir / "gradcli.json").write_text(json.dumps(got))
    print({c: len(v) for c, v in sorted(classes.items())})
    for c in ("CRASH", "DIFF", "ACCEPTED", "REFUSED"):
        for i in classes.get(c, [])[: a.show]:
            print(f"=== {c} #{i}")
            print(texts[i], end="")
            print("--- torch:", ref[i]["err"] or "")
            print(ref[i]["out"], end="")
            print("--- gradcli:", got[i]["err"] or "")
            print(got[i]["out"], end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
