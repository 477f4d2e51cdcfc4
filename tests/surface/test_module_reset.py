"""The built-in modules answer as PyTorch's for what programs read and call on them:
`reset_parameters()` (the draws of the constructor again, written into the same Parameter
objects), BatchNorm's `reset_running_stats()`, MultiheadAttention's and Transformer's
`_reset_parameters()`, the module methods programs call by name (`_get_name`, `get_submodule`,
`get_parameter`, `get_buffer`, `register_module`, `type`, `share_memory`), and the settings of
the one-function modules (`nn.ReLU().inplace`, `loss_fn.reduction`). The corpus programs 715-
check the printed values against PyTorch's recorded output."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def out(text: str, dtype: str = "float32") -> str:
    return "".join(
        parse("import torch\nimport torch.nn as nn\n" + text, "t.py").run(dtype=dtype).output
    )


# Constructions whose reset_parameters() redraws exactly what the constructor drew: in
# PyTorch the constructor is `torch.empty` + reset_parameters(), so after the same seed a
# reset module equals a freshly made one, value for value.
RESETTABLE = [
    "nn.Linear(5, 3)",
    "nn.Linear(4, 2, bias=False)",
    "nn.Bilinear(2, 3, 4)",
    "nn.Conv1d(2, 4, 3)",
    "nn.Conv2d(2, 4, (2, 3), groups=2)",
    "nn.Conv3d(1, 2, 2, bias=False)",
    "nn.ConvTranspose1d(4, 2, 3, groups=2)",
    "nn.ConvTranspose2d(2, 3, 2)",
    "nn.Embedding(6, 3)",
    "nn.Embedding(6, 3, padding_idx=2)",
    "nn.EmbeddingBag(5, 2, padding_idx=0)",
    "nn.LayerNorm((2, 3))",
    "nn.GroupNorm(2, 4)",
    "nn.RMSNorm(3)",
    "nn.PReLU(3, init=0.1)",
    "nn.BatchNorm1d(3)",
    "nn.InstanceNorm2d(2, affine=True)",
    "nn.RNN(3, 4, num_layers=2, nonlinearity='relu')",
    "nn.LSTM(2, 4, bidirectional=True, proj_size=2)",
    "nn.GRU(3, 2, bias=False, batch_first=True)",
    "nn.RNNCell(2, 3)",
    "nn.LSTMCell(3, 2)",
    "nn.GRUCell(2, 2, bias=False)",
]


@pytest.mark.parametrize("make", RESETTABLE)
@pytest.mark.parametrize("dtype", ["", "dtype=torch.float64"])
def test_reset_parameters_redraws_the_constructors_values_into_the_same_parameters(
    make: str, dtype: str
) -> None:
    if dtype:
        make = make[:-1] + (", " if not make.endswith("(") else "") + dtype + ")"
    got = out(
        f"torch.manual_seed(3)\nfresh = {make}\n"
        f"m = {make}\n"
        "before = list(m.parameters())\n"
        "opt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
        "with torch.no_grad():\n"
        "    for p in m.parameters():\n"
        "        p.add_(1.5)\n"
        "versions = [p._version for p in m.parameters()]\n"
        "torch.manual_seed(3)\n"
        "m.reset_parameters()\n"
        "after = list(m.parameters())\n"
        "print(len(after) == len(before) and all(a is b for a, b in zip(after, before)))\n"
        "print(all(torch.equal(a, b) for a, b in zip(after, fresh.parameters())))\n"
        "print(all(a.dtype == b.dtype for a, b in zip(after, fresh.parameters())))\n"
        "print(all(p.is_leaf and p.requires_grad and p.grad_fn is None for p in after))\n"
        "print(opt.param_groups[0]['params'][0] is after[0])\n"
        "print([p._version - v for p, v in zip(after, versions)] == "
        "[p._version for p in fresh.parameters()])\n"
        "after_reset = torch.rand(3)\n"
        f"torch.manual_seed(3)\nagain = {make}\n"
        "print(torch.equal(after_reset, torch.rand(3)))\n"
    )
    assert got == "True\n" * 7


def test_reset_parameters_in_the_analysis_dtype_draws_pytorchs_float32_numbers() -> None:
    # float64 by default in the analysis commands: the draws are PyTorch's float32 ones, widened
    program = (
        "torch.manual_seed(0)\na = nn.Linear(3, 2)\nb = nn.Linear(3, 2)\n"
        "torch.manual_seed(0)\nb.reset_parameters()\n"
        "print(torch.equal(a.weight, b.weight), torch.equal(a.bias, b.bias), b.weight.dtype)\n"
    )
    assert out(program, dtype="float64") == "True True torch.float64\n"


def test_after_a_cast_the_reset_draws_in_the_modules_dtype() -> None:
    got = out(
        "torch.manual_seed(1)\nwide = nn.Linear(3, 2, dtype=torch.float64)\n"
        "m = nn.Linear(3, 2).double()\ntorch.manual_seed(1)\nm.reset_parameters()\n"
        "print(torch.equal(m.weight, wide.weight), m.weight.dtype)\n"
    )
    assert got == "True torch.float64\n"


def test_model_apply_resets_every_layer_that_has_reset_parameters() -> None:
    got = out(
        "torch.manual_seed(0)\n"
        "fresh = nn.Sequential(nn.Conv1d(1, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4, 1))\n"
        "model = nn.Sequential(nn.Conv1d(1, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4, 1))\n"
        "def reset(m):\n"
        "    if hasattr(m, 'reset_parameters'):\n"
        "        m.reset_parameters()\n"
        "torch.manual_seed(0)\n"
        "model.apply(reset)\n"
        "print([torch.equal(a, b) for a, b in zip(model.parameters(), fresh.parameters())])\n"
        "print([hasattr(m, 'reset_parameters') for m in model])\n"
    )
    assert got == "[True, True, True, True]\n[True, False, False, True]\n"


def test_lazy_linear_reset_does_nothing_before_its_first_call() -> None:
    got = out(
        "torch.manual_seed(0)\nlz = nn.LazyLinear(2)\nlz.reset_parameters()\n"
        "y = lz(torch.ones(1, 3))\nw = lz.weight.clone()\n"
        "torch.manual_seed(0)\nlz.reset_parameters()\n"
        "print(type(lz).__name__, torch.equal(w, lz.weight), lz.weight._version)\n"
    )
    assert got == "Linear True 2\n"


def test_batchnorm_reset_running_stats_and_reset_parameters() -> None:
    got = out(
        "torch.manual_seed(0)\nbn = nn.BatchNorm1d(2)\nrm = bn.running_mean\n"
        "bn(torch.randn(8, 2) * 3 + 1)\n"
        "print(bn.running_mean.abs().sum() > 0, bn.num_batches_tracked, rm._version)\n"
        "bn.reset_running_stats()\n"
        "print(bn.running_mean, bn.running_var, bn.num_batches_tracked, rm is bn.running_mean)\n"
        "with torch.no_grad():\n    bn.weight.fill_(3.0)\n    bn.bias.fill_(-1.0)\n"
        "bn(torch.randn(8, 2))\nbn.reset_parameters()\n"
        "print(bn.weight.data, bn.bias.data, bn.num_batches_tracked)\n"
        "off = nn.BatchNorm1d(2, track_running_stats=False)\noff.reset_running_stats()\n"
        "print(off.running_mean)\n"
    )
    assert got == (
        "tensor(True) tensor(1) 1\n"
        "tensor([0., 0.]) tensor([1., 1.]) tensor(0) True\n"
        "tensor([1., 1.]) tensor([0., 0.]) tensor(0)\n"
        "None\n"
    )


def test_multihead_attention_reset_keeps_the_out_projection_weight() -> None:
    # PyTorch's _reset_parameters redraws the in-projection and zeroes the biases; the
    # out-projection's weight is its own Linear's (reset by that Linear's reset_parameters)
    got = out(
        "torch.manual_seed(0)\nmha = nn.MultiheadAttention(4, 2, add_bias_kv=True)\n"
        "w_out = mha.out_proj.weight.clone()\nw_in = mha.in_proj_weight.clone()\n"
        "with torch.no_grad():\n    for p in mha.parameters():\n        p.add_(1.0)\n"
        "mha._reset_parameters()\n"
        "print(torch.equal(mha.out_proj.weight, w_out + 1))\n"
        "print(torch.equal(mha.in_proj_weight, w_in))\n"
        "print(mha.in_proj_bias.abs().sum().item(), mha.out_proj.bias.abs().sum().item())\n"
        "print(mha.in_proj_weight.abs().max().item() <= (6 / 16) ** 0.5)\n"
    )
    assert got == "True\nFalse\n0.0 0.0\nTrue\n"


def test_one_function_modules_keep_pytorchs_constructor_arguments() -> None:
    got = out(
        "print(nn.ReLU().inplace, nn.ReLU(inplace=True).inplace)\n"
        "print(nn.LeakyReLU(0.2).negative_slope)\n"
        "print(nn.Softmax(dim=1).dim, nn.LogSoftmax().dim, nn.GELU().approximate)\n"
        "print(nn.Flatten().start_dim, nn.Flatten(0, 2).end_dim, nn.Softplus(beta=2).beta)\n"
        "print(nn.MSELoss().reduction, nn.MSELoss(reduction='sum').reduction)\n"
        "print(nn.MSELoss(size_average=False).reduction, nn.L1Loss(reduce=False).reduction)\n"
        "ce = nn.CrossEntropyLoss(label_smoothing=0.1)\n"
        "print(ce.ignore_index, ce.label_smoothing, ce.weight, ce.reduction)\n"
        "print(nn.ReLU6().max_val, nn.PairwiseDistance().norm, nn.Dropout(0.2).p)\n"
        "print(hasattr(nn.Tanh(), 'inplace'), hasattr(nn.PairwiseDistance(), 'p'))\n"
        "print(hasattr(nn.MSELoss(), 'size_average'), hasattr(nn.Identity(3), 'args'))\n"
        "c = nn.Conv2d(1, 2, 3)\nprint(c.transposed, c.output_padding)\n"
        "print(nn.ConvTranspose1d(1, 2, 3, output_padding=0).transposed)\n"
        "print(nn.MaxPool2d(2).return_indices, nn.AvgPool1d(2).count_include_pad)\n"
        "print(nn.Embedding(3, 2).sparse, nn.Upsample(scale_factor=2).name)\n"
    )
    assert got == (
        "False True\n0.2\n1 None none\n1 2 2\nmean sum\nsum none\n-100 0.1 None mean\n"
        "6.0 2.0 0.2\nFalse False\nFalse False\nFalse (0, 0)\nTrue\nFalse True\n"
        "False Upsample\n"
    )


def test_get_submodule_parameter_buffer_by_dotted_path() -> None:
    got = out(
        "m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))\n"
        "print(m.get_submodule('0') is m[0], m.get_submodule('') is m)\n"
        "print(m.get_parameter('0.bias') is m[0].bias, m.get_buffer('1.running_var').shape)\n"
        "for call in (lambda: m.get_submodule('2'), lambda: m.get_submodule('0.weight'),\n"
        "             lambda: m.get_parameter('1.running_mean'),\n"
        "             lambda: m.get_buffer('0.weight'),\n"
        "             lambda: m.get_parameter('0.nope')):\n"
        "    try:\n        call()\n    except AttributeError as e:\n        print(e)\n"
        "print(m._get_name(), m[1]._get_name())\n"
        "m.register_module('act', nn.Tanh())\nprint(m)\n"
        "print(m.share_memory() is m, m.train() is m, m.eval() is m, m.requires_grad_() is m)\n"
        "print(m.type(torch.float64) is m, m[0].weight.dtype, m[1].num_batches_tracked.dtype)\n"
    )
    assert got == (
        "True True\nTrue torch.Size([3])\n"
        "Sequential has no attribute `2`\n`weight` is not an nn.Module\n"
        "`running_mean` is not an nn.Parameter\n`weight` is not a buffer\n"
        "Linear has no attribute `nope`\n"
        "Sequential BatchNorm1d\n"
        "Sequential(\n  (0): Linear(in_features=2, out_features=3, bias=True)\n"
        "  (1): BatchNorm1d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, "
        "track_running_stats=True)\n"
        "  (act): Tanh()\n)\n"
        "True True True True\nTrue torch.float64 torch.float64\n"
    )


def test_program_class_reads_get_name_and_resets_its_layers() -> None:
    got = out(
        "class Net(nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(2, 2)\n"
        "    def forward(self, x):\n        return self.fc(x)\n"
        "    def reset_parameters(self):\n        self.fc.reset_parameters()\n"
        "torch.manual_seed(0)\nnet = Net()\nw = net.fc.weight.clone()\n"
        "torch.manual_seed(0)\nnet.reset_parameters()\n"
        "print(net._get_name(), torch.equal(w, net.fc.weight))\n"
    )
    assert got == "Net True\n"


@pytest.mark.parametrize(
    "line",
    [
        "nn.Linear(2, 2)._apply(print)",
        "nn.ReLU()._settings",
        "nn.MSELoss()._given",
        "nn.ReLU().fn",
        "nn.ReLU().settings",
    ],
)
def test_other_private_names_stay_out_of_reach(line: str) -> None:
    with pytest.raises(GradcliError):
        out(f"print({line})\n")


def test_hasattr_of_the_private_names_programs_read() -> None:
    got = out(
        "m = nn.Linear(2, 2)\n"
        "print(hasattr(m, '_get_name'), hasattr(m, '_parameters'))\n"
        "print(hasattr(nn.MultiheadAttention(4, 2), '_reset_parameters'), "
        "hasattr(m, '_reset_parameters'))\n"
    )
    assert got == "True True\nTrue False\n"


def test_reset_with_a_replaced_parameter_draws_for_its_shape() -> None:
    # the recurrent modules redraw each parameter they have now, as PyTorch's loop over
    # parameters(): a parameter removed draws nothing
    got = out(
        "torch.manual_seed(0)\nr = nn.RNN(2, 3)\nr.bias_hh_l0 = None\n"
        "torch.manual_seed(0)\nr.reset_parameters()\nx = torch.rand(1)\n"
        "torch.manual_seed(0)\nw1 = torch.empty(3, 2).uniform_(-3 ** -0.5, 3 ** -0.5)\n"
        "w2 = torch.empty(3, 3).uniform_(-3 ** -0.5, 3 ** -0.5)\n"
        "b1 = torch.empty(3).uniform_(-3 ** -0.5, 3 ** -0.5)\n"
        "print(torch.equal(w1, r.weight_ih_l0), torch.equal(w2, r.weight_hh_l0), "
        "torch.equal(b1, r.bias_ih_l0), torch.equal(x, torch.rand(1)))\n"
    )
    assert got == "True True True True\n"


# A program and PyTorch 2.13's output of it (recorded with /work/torchenv).
SET_SUBMODULE = """\
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.ReLU(), nn.Linear(3, 1)))
m.set_submodule("1.0", nn.Tanh())
m.set_submodule("1.extra", nn.Sigmoid())
print(m)
for args in [("", nn.ReLU()), ("0", 3), ("1.nope", nn.ReLU(), True),
             ("0.weight", nn.ReLU()), ("2.x", nn.ReLU())]:
    try:
        m.set_submodule(*args)
    except (ValueError, AttributeError) as e:
        print(type(e).__name__, e)
print(m(torch.ones(1, 2)))
l1 = nn.MSELoss(size_average=False)
l2 = nn.L1Loss(reduce=False)
print(l1.reduction, l2.reduction)
"""
SET_SUBMODULE_PYTORCH = """\
Sequential(
  (0): Linear(in_features=2, out_features=3, bias=True)
  (1): Sequential(
    (0): Tanh()
    (1): Linear(in_features=3, out_features=1, bias=True)
    (extra): Sigmoid()
  )
)
ValueError Cannot set the submodule without a target name!
ValueError `module` is not an nn.Module, found <class 'int'>
AttributeError Sequential has no attribute `nope`
AttributeError `weight` is not an nn.Module
AttributeError Sequential has no attribute `2`
tensor([[0.4022]], grad_fn=<SigmoidBackward0>)
sum none
"""


def test_set_submodule_and_the_legacy_loss_arguments_as_pytorch() -> None:
    assert out(SET_SUBMODULE) == SET_SUBMODULE_PYTORCH


def test_set_submodule_cannot_replace_a_method_or_a_setting() -> None:
    for target in ("forward", "0.training"):
        with pytest.raises(GradcliError):
            out(f"m = nn.Sequential(nn.Linear(2, 2))\nm.set_submodule({target!r}, nn.ReLU())\n")


# A program changing the settings of made modules, and PyTorch 2.13's output of it.
SETTINGS_CHANGED = """\
x = torch.tensor([-2.0, -0.5, 0.5, 2.0])
model = nn.Sequential(nn.Linear(4, 4), nn.ReLU(inplace=True), nn.LeakyReLU(), nn.ELU(), nn.GELU(),
                      nn.Hardtanh(), nn.Softshrink(), nn.Dropout(0.5), nn.Softplus())
for m in model.modules():
    if hasattr(m, "inplace"):
        m.inplace = False
print(model)
act = nn.LeakyReLU()
act.negative_slope = 0.2
print(act, act(x))
e = nn.ELU()
e.alpha = 2.0
print(e, e(x))
g = nn.GELU()
g.approximate = "tanh"
print(g, g(x))
h = nn.Hardtanh()
h.max_val = 0.25
print(h, h(x))
s = nn.Softshrink()
s.lambd = 1.0
print(s, s(x))
sp = nn.Softplus()
sp.beta = 2.0
print(sp, sp(x))
loss = nn.MSELoss()
loss.reduction = "sum"
print(loss, loss(x, torch.zeros(4)))
r = nn.ReLU()
r.inplace = True
print(r)
y = x.clone()
r(y)
print(y)
sm = nn.Softmax(dim=0)
sm.dim = -1
print(sm, sm(x))
d = nn.Dropout(0.5)
d.p = 0.0
print(d, d(x))
fl = nn.Flatten()
fl.start_dim = 0
print(fl, fl(torch.ones(2, 3)).shape)
"""
SETTINGS_CHANGED_PYTORCH = """\
Sequential(
  (0): Linear(in_features=4, out_features=4, bias=True)
  (1): ReLU()
  (2): LeakyReLU(negative_slope=0.01)
  (3): ELU(alpha=1.0)
  (4): GELU(approximate='none')
  (5): Hardtanh(min_val=-1.0, max_val=1.0)
  (6): Softshrink(0.5)
  (7): Dropout(p=0.5, inplace=False)
  (8): Softplus(beta=1.0, threshold=20.0)
)
LeakyReLU(negative_slope=0.2) tensor([-0.4000, -0.1000,  0.5000,  2.0000])
ELU(alpha=2.0) tensor([-1.7293, -0.7869,  0.5000,  2.0000])
GELU(approximate='tanh') tensor([-0.0454, -0.1543,  0.3457,  1.9546])
Hardtanh(min_val=-1.0, max_val=0.25) tensor([-1.0000, -0.5000,  0.2500,  0.2500])
Softshrink(1.0) tensor([-1., -0.,  0.,  1.])
Softplus(beta=2.0, threshold=20.0) tensor([0.0091, 0.1566, 0.6566, 2.0091])
MSELoss() tensor(8.5000)
ReLU(inplace=True)
tensor([0.0000, 0.0000, 0.5000, 2.0000])
Softmax(dim=-1) tensor([0.0138, 0.0620, 0.1686, 0.7556])
Dropout(p=0.0, inplace=False) tensor([-2.0000, -0.5000,  0.5000,  2.0000])
Flatten(start_dim=0, end_dim=-1) torch.Size([6])
"""


def test_changed_settings_reach_the_calls_and_the_text() -> None:
    assert out(SETTINGS_CHANGED) == SETTINGS_CHANGED_PYTORCH


@pytest.mark.parametrize(
    "line",
    [
        "m = nn.PairwiseDistance()\nm.norm = 1.0",  # PyTorch's norm is the function's p
        "m = nn.ReLU6()\nm.max_val = 3.0",  # ReLU6's bounds are not relu6's arguments
        "m = nn.ELU()\nm.alpha = print",
        "m = nn.LeakyReLU()\nm.negative_slope = [0.1]",
    ],
)
def test_settings_that_cannot_reach_the_call_are_refused_not_ignored(line: str) -> None:
    with pytest.raises(GradcliError, match="not supported"):
        out(line + "\n")


# Pooling modules' settings changed after they are made, and PyTorch 2.13's output.
POOL_SETTINGS = """\
x = torch.arange(36.0).reshape(1, 1, 6, 6)
p = nn.MaxPool2d(2)
p.kernel_size = 3
p.stride = 3
print(p, p(x))
p.return_indices = True
out, idx = p(x)
print(p, idx)
a = nn.AvgPool2d(2)
a.padding = 1
a.count_include_pad = False
print(a, a(x))
m1 = nn.MaxPool1d(2)
m1.ceil_mode = True
print(m1, m1(torch.arange(5.0).reshape(1, 1, 5)))
"""
POOL_SETTINGS_PYTORCH = """\
MaxPool2d(kernel_size=3, stride=3, padding=0, dilation=1, ceil_mode=False) tensor([[[[14., 17.],
          [32., 35.]]]])
MaxPool2d(kernel_size=3, stride=3, padding=0, dilation=1, ceil_mode=False) tensor([[[[14, 17],
          [32, 35]]]])
AvgPool2d(kernel_size=2, stride=2, padding=1) tensor([[[[ 0.0000,  1.5000,  3.5000,  5.0000],
          [ 9.0000, 10.5000, 12.5000, 14.0000],
          [21.0000, 22.5000, 24.5000, 26.0000],
          [30.0000, 31.5000, 33.5000, 35.0000]]]])
MaxPool1d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=True) tensor([[[1., 3., 4.]]])
"""


def test_changed_pool_settings_reach_the_calls_and_the_text() -> None:
    assert out(POOL_SETTINGS) == POOL_SETTINGS_PYTORCH


def test_parameter_containers_print_as_pytorchs() -> None:
    got = out(
        "print(nn.ParameterList([nn.Parameter(torch.ones(2))]))\n"
        "one = nn.Parameter(torch.ones(1))\n"
        "print(nn.ParameterDict({'a': one, 'b': nn.Parameter(torch.ones(1))}))\n"
    )
    assert got == (
        "ParameterList(  (0): Parameter containing: [torch.float32 of size 2])\n"
        "ParameterDict(\n    (a): Parameter containing: [torch.FloatTensor of size 1]\n"
        "    (b): Parameter containing: [torch.FloatTensor of size 1]\n)\n"
    )


# The class modules' settings changed after they are made (read by forward each call, as
# PyTorch's; a conv's padding for a padding_mode other than zeros is fixed when it is made),
# and PyTorch 2.13's output.
LIVE_SETTINGS = """\
torch.manual_seed(0)
x = torch.randn(2, 2, 6)
c = nn.Conv1d(2, 2, 3)
c.stride = (2,)
c.padding = (1,)
print(c)
print(c(x).shape)
c.padding_mode = "circular"
print(c)
print(c(x).shape)
bn = nn.BatchNorm1d(2)
bn.momentum = 0.5
bn.eps = 0.1
bn(x)
print(bn)
print(bn.running_mean)
ln = nn.LayerNorm(6)
ln.eps = 0.5
print(ln)
print(ln(x)[0, 0])
emb = nn.Embedding(4, 3)
emb.padding_idx = 0
emb.max_norm = 0.5
print(emb)
print(emb(torch.tensor([0, 1])).norm(dim=1))
up = nn.Upsample(scale_factor=2)
up.scale_factor = 3.0
print(up)
print(up(x).shape)
d = nn.Dropout(0.5)
d.p = 1.0
print(d)
print(d(x).sum())
r = nn.GRU(6, 3)
r.batch_first = True
o, h = r(x)
print(r)
print(o.shape)
gn = nn.GroupNorm(1, 2)
gn.eps = 0.5
print(gn)
print(gn(x)[0, 0, :2])
ps = nn.PixelShuffle(2)
ps.upscale_factor = 1
print(ps)
print(ps(torch.ones(1, 4, 2, 2)).shape)
fl = nn.Unflatten(1, (2, 1))
fl.unflattened_size = (1, 2)
print(fl)
print(fl(torch.ones(3, 2)).shape)
cs = nn.CosineSimilarity()
cs.dim = 0
print(cs)
print(cs(torch.ones(2, 3), torch.ones(2, 3)).shape)
sm = nn.Softmax(dim=0)
sm.dim = 1
print(sm(torch.ones(2, 3)))
ce = nn.CrossEntropyLoss()
ce.label_smoothing = 0.2
ce.ignore_index = 1
print(ce(torch.randn(3, 4), torch.tensor([0, 1, 2])))
mha = nn.MultiheadAttention(4, 2)
mha.batch_first = True
q = torch.randn(2, 3, 4)
print(mha(q, q, q)[0].shape)
rr = nn.RReLU()
rr.lower = 0.5
rr.upper = 0.5
print(rr)
print(rr(torch.tensor([-1.0, 1.0])))
pr = nn.PReLU()
print(pr.init, pr.num_parameters)
t = nn.Threshold(0.1, 20.0)
t.value = 5.0
print(t)
print(t(torch.tensor([0.0, 1.0])))
"""
LIVE_SETTINGS_PYTORCH = """\
Conv1d(2, 2, kernel_size=(3,), stride=(2,), padding=(1,))
torch.Size([2, 2, 3])
Conv1d(2, 2, kernel_size=(3,), stride=(2,), padding=(1,), padding_mode=circular)
torch.Size([2, 2, 2])
BatchNorm1d(2, eps=0.1, momentum=0.5, affine=True, bias=True, track_running_stats=True)
tensor([ 0.0648, -0.0543])
LayerNorm((6,), eps=0.5, elementwise_affine=True, bias=True)
tensor([-0.8406, -0.8657, -0.0129, -0.1862,  1.0268,  0.8786],
       grad_fn=<SelectBackward0>)
Embedding(4, 3, padding_idx=0, max_norm=0.5)
tensor([0.5000, 0.5000], grad_fn=<LinalgVectorNormBackward0>)
Upsample(scale_factor=3.0, mode='nearest')
torch.Size([2, 2, 18])
Dropout(p=1.0, inplace=False)
tensor(0.)
GRU(6, 3, batch_first=True)
torch.Size([2, 2, 3])
GroupNorm(1, 2, eps=0.5, affine=True, bias=True)
tensor([-0.8239, -0.8464], grad_fn=<SliceBackward0>)
PixelShuffle(upscale_factor=1)
torch.Size([1, 4, 2, 2])
Unflatten(dim=1, unflattened_size=(1, 2))
torch.Size([3, 1, 2])
CosineSimilarity()
torch.Size([3])
tensor([[0.3333, 0.3333, 0.3333],
        [0.3333, 0.3333, 0.3333]])
tensor(2.7037)
torch.Size([2, 3, 4])
RReLU(lower=0.5, upper=0.5)
tensor([-0.5000,  1.0000])
0.25 1
Threshold(threshold=0.1, value=5.0)
tensor([5., 1.])
"""


def test_changed_settings_of_layers_as_pytorch() -> None:
    assert out(LIVE_SETTINGS) == LIVE_SETTINGS_PYTORCH


# The traversals with PyTorch's keywords over a model holding one module twice, and PyTorch
# 2.13's output (named_children gives a child once; state_dict and remove_duplicate=False
# walk every path).
TRAVERSALS = """\
torch.manual_seed(0)
shared = nn.Linear(2, 2)
m = nn.Sequential(shared, nn.BatchNorm1d(2), shared)
print([n for n, _ in m.named_modules()])
print([n for n, _ in m.named_modules(remove_duplicate=False)])
print([n for n, _ in m.named_modules(prefix="model")])
print([n for n, _ in m.named_parameters(prefix="p", recurse=True)])
print([n for n, _ in m.named_parameters(remove_duplicate=False)])
print([n for n, _ in m.named_buffers(prefix="b")])
print([n for n, _ in m.named_children()])
print(len(list(m.parameters(recurse=False))), len(list(m[1].buffers(recurse=False))))
sd = m.state_dict(prefix="net.")
for key in sd:
    print(key)
sd2 = m.state_dict(keep_vars=True)
print(sd2["0.weight"].requires_grad, type(sd2["0.weight"]).__name__)
sd3 = m.state_dict()
print(sd3["0.weight"].requires_grad)
out = m(torch.randn(3, 2)).sum()
out.backward()
m.zero_grad(set_to_none=False)
print(m[0].weight.grad)
m.zero_grad()
print(m[0].weight.grad)
print(m.to(torch.float64)[0].weight.dtype, m.to("cpu", torch.float32)[0].weight.dtype)
print(m.to(dtype=torch.float64, non_blocking=True)[0].bias.dtype)
print(m.train(False).training, m.requires_grad_(False)[0].weight.requires_grad)
m.register_buffer("steps", torch.zeros(1), persistent=False)
print(list(m.state_dict().keys())[-4:])
print([n for n, _ in m.named_buffers()])
print(m.apply(lambda mod: None) is m)
print(sum(1 for _ in m.modules()), sum(1 for _ in m.children()))
print(m.extra_repr() == "", m[0].extra_repr())
print(isinstance(m, nn.Module), isinstance(m[0], nn.Linear))
print(type(m[0]).__name__, m[0].__class__.__name__)
"""
TRAVERSALS_PYTORCH = """\
['', '0', '1']
['', '0', '1', '2']
['model', 'model.0', 'model.1']
['p.0.weight', 'p.0.bias', 'p.1.weight', 'p.1.bias']
['0.weight', '0.bias', '1.weight', '1.bias', '2.weight', '2.bias']
['b.1.running_mean', 'b.1.running_var', 'b.1.num_batches_tracked']
['0', '1']
0 3
net.0.weight
net.0.bias
net.1.weight
net.1.bias
net.1.running_mean
net.1.running_var
net.1.num_batches_tracked
net.2.weight
net.2.bias
True Parameter
False
tensor([[0., 0.],
        [0., 0.]])
None
torch.float64 torch.float32
torch.float64
False False
['1.running_var', '1.num_batches_tracked', '2.weight', '2.bias']
['steps', '1.running_mean', '1.running_var', '1.num_batches_tracked']
True
3 2
True in_features=2, out_features=2, bias=True
True True
Linear Linear
"""


def test_traversals_with_pytorchs_keywords() -> None:
    assert out(TRAVERSALS) == TRAVERSALS_PYTORCH


def test_a_module_inside_itself_stops_the_walks_of_every_path() -> None:
    for call in ("m.state_dict()", "list(m.named_modules(remove_duplicate=False))"):
        with pytest.raises(GradcliError, match="contains itself"):
            out(f"m = nn.Sequential(nn.Linear(1, 1))\nm.add_module('me', m)\nx = {call}\n")


# Constructor arguments by position as PyTorch's constructors take them (`nn.ReLU(True)`, the
# DCGAN tutorial's), Python's errors for too many or repeated ones, and isinstance against
# the built-in classes another one subclasses; PyTorch 2.13's output.
POSITIONAL = """\
x = torch.tensor([-1.0, 2.0])
print(nn.ReLU(True), nn.LeakyReLU(0.2, True))
print(nn.Softplus(2, 10), nn.GELU("tanh"))
print(nn.MSELoss(None, None, "sum")(x, torch.zeros(2)))
ce = nn.CrossEntropyLoss(None, None, -100, None, "sum", 0.1)
print(ce(torch.ones(1, 2), torch.tensor([0])))
print(nn.Flatten(0, 1), nn.Softmax(0)(x))
makers = [
    lambda: nn.Sigmoid(1),
    lambda: nn.ReLU(True, 1),
    lambda: nn.LeakyReLU(0.1, True, negative_slope=0.2),
    lambda: nn.LeakyReLU(0.1, True, inplace=False),
]
for make in makers:
    try:
        make()
    except TypeError as e:
        print(e)
print(isinstance(nn.ReLU6(), nn.Hardtanh), isinstance(nn.Hardtanh(), nn.ReLU6))
up = nn.UpsamplingNearest2d(scale_factor=2)
print(isinstance(up, nn.Upsample), isinstance(nn.Upsample(), nn.UpsamplingNearest2d))
print(isinstance(nn.ZeroPad2d(1), nn.ConstantPad2d), isinstance(nn.ZeroPad1d(1), nn.ConstantPad1d))
print(isinstance(nn.ConstantPad2d(1, 0.0), nn.ZeroPad2d), isinstance(nn.LazyLinear(2), nn.Linear))
print(type(nn.ZeroPad2d(1)).__name__, type(nn.ReLU6()) is nn.ReLU6)
"""
POSITIONAL_PYTORCH = """\
ReLU(inplace=True) LeakyReLU(negative_slope=0.2, inplace=True)
Softplus(beta=2, threshold=10) GELU(approximate='tanh')
tensor(5.)
tensor(0.6931)
Flatten(start_dim=0, end_dim=1) tensor([0.0474, 0.9526])
Sigmoid.__init__() takes 1 positional argument but 2 were given
ReLU.__init__() takes from 1 to 2 positional arguments but 3 were given
LeakyReLU.__init__() got multiple values for argument 'negative_slope'
LeakyReLU.__init__() got multiple values for argument 'inplace'
True False
True False
True True
False True
ZeroPad2d True
"""


def test_positional_constructor_arguments_and_subclasses() -> None:
    assert out(POSITIONAL) == POSITIONAL_PYTORCH
