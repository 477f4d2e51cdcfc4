# ruff: noqa: E501 - the programs are written as users write them
"""Programs that draw random numbers the way tutorials and forum answers do, for
tests/surface/test_random_programs.py: each prints exactly what PyTorch 2.13 prints,
recorded in programs.json beside this file (regenerate it under torch:
`python tests/surface/data/random/programs.py`).

Most print `.tolist()`, which shows every bit of a float32 value; some print the tensors as
PyTorch formats them. Every program seeds its generators first, so that PyTorch's run is
reproducible (gradcli's default generator starts from --seed, PyTorch's from anywhere).

Importing this module needs nothing but the standard library; torch is imported by `main`.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
RECORDING = HERE / "programs.json"
H = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"

PROGRAMS: dict[str, str] = {}

for _seed in [0, 1, 42, 1234, 2**31 - 1, 2**32 + 5, 2**63 - 1, -1, -7]:
    PROGRAMS[f"seed_{_seed}"] = (
        H
        + f"""torch.manual_seed({_seed})
print(torch.randn(3))
print(torch.randn(3).tolist())
print(torch.rand(7).tolist())
print(torch.randint(0, 10, (5,)).tolist())
print(torch.randn(17, dtype=torch.float64).tolist())
print(torch.initial_seed())
"""
    )

for _n in [0, 1, 7, 15, 16, 17, 100, 1000]:
    PROGRAMS[f"size_{_n}"] = (
        H
        + f"""torch.manual_seed(3)
a = torch.rand({_n}); b = torch.randn({_n}); c = torch.randn({_n}, dtype=torch.float64)
d = torch.randint(-5, 5, ({_n},)); e = torch.randperm({_n})
print(a.tolist(), b.tolist(), c.tolist(), d.tolist(), e.tolist())
print(torch.rand({_n}, dtype=torch.float64).tolist())
print(torch.empty({_n}).uniform_(-2, 3).tolist(), torch.empty({_n}).normal_(1, 2).tolist())
print(torch.empty({_n}).exponential_(2.0).tolist())
print(torch.empty({_n}).bernoulli_(0.3).tolist())
print(torch.empty({_n}, dtype=torch.float64).random_(0, 100).tolist())
print(torch.empty({_n}).geometric_(0.2).tolist(), torch.empty({_n}).log_normal_().tolist())
print(torch.empty({_n}, dtype=torch.float64).cauchy_().tolist())
"""
    )

PROGRAMS["like"] = (
    H
    + """torch.manual_seed(0)
x = torch.zeros(2, 3)
print(torch.rand_like(x).tolist(), torch.randn_like(x).tolist())
print(torch.randint_like(x, 10).tolist(), torch.randint_like(x, 3, 10).tolist())
y = torch.zeros(5, dtype=torch.float64)
print(torch.rand_like(y).tolist(), torch.randn_like(y, dtype=torch.float32).tolist())
print(torch.randint_like(y, low=2, high=9).tolist())
print(torch.randint_like(torch.zeros(4, dtype=torch.int32), 100))
print(torch.randint_like(x, high=7).tolist())
"""
)
PROGRAMS["like_views"] = (
    H
    + """torch.manual_seed(0)
x = torch.zeros(5, 8).t()
print(torch.randn_like(x).tolist())
print(torch.randn_like(torch.zeros(4, 4)).tolist())
print(torch.rand_like(torch.zeros(2, 3, 4).permute(2, 0, 1)).tolist())
print(torch.randint_like(torch.zeros(6, 4)[::2].t(), 5, 50).tolist())
print(torch.randn_like(torch.zeros(40)[::2]).tolist())
print(torch.randn_like(torch.zeros(3, 1).expand(3, 6)).tolist())
"""
)
PROGRAMS["randint_forms"] = (
    H
    + """torch.manual_seed(0)
print(torch.randint(10, (3,)), torch.randint(3, 10, (2, 2)), torch.randint(low=0, high=10, size=(3,)))
print(torch.randint(10, size=(3,)), torch.randint(high=5, size=(4,)))
print(torch.randint(-3, 3, (5,), dtype=torch.int32))
print(torch.randint(0, 2, (6,), dtype=torch.bool), torch.randint(0, 256, (4,), dtype=torch.uint8))
print(torch.randint(0, 10, (3,), dtype=torch.float32), torch.randint(0, 10, (3,), dtype=torch.float64))
print(torch.randint(5, (2, 3), dtype=torch.int16), torch.randint(0, 2**40, (3,)))
print(torch.randint(-2**62, 2**62, (3,)))
print(torch.randint(3, (0,)), torch.randint(3, ()))
print(torch.randint(0, 2**24 + 5, (5,), dtype=torch.float32).tolist())
print(torch.randint(-2**53, 2**53, (5,), dtype=torch.float64).tolist())
"""
)
PROGRAMS["randperm"] = (
    H
    + """torch.manual_seed(0)
print(torch.randperm(10), torch.randperm(5, dtype=torch.int32), torch.randperm(7, dtype=torch.float32))
print(torch.randperm(1), torch.randperm(0), torch.randperm(4, dtype=torch.float64))
print(torch.randperm(3, dtype=torch.int8), torch.randperm(20, dtype=torch.uint8))
x = torch.arange(10.)
print(x[torch.randperm(10)])
"""
)
PROGRAMS["normal_overloads"] = (
    H
    + """torch.manual_seed(0)
print(torch.normal(torch.zeros(3), 1.0))
print(torch.normal(2, 3, size=(2,)))
print(torch.normal(2.0, 3.0, (2, 3)))
print(torch.normal(mean=torch.arange(1., 11.), std=torch.arange(1, 0, -0.1)))
print(torch.normal(mean=0.5, std=torch.arange(1., 6.)))
print(torch.normal(mean=torch.arange(1., 6.)))
print(torch.normal(torch.zeros(3, 1), torch.ones(1, 4)))
print(torch.normal(torch.zeros(2, 3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)))
print(torch.normal(0.0, 1.0, size=(20,)).tolist())
print(torch.normal(torch.zeros(20), torch.ones(20)).tolist())
print(torch.normal(torch.zeros(20), 2.0).tolist())
print(torch.normal(1.0, torch.ones(20)).tolist())
m = torch.arange(20.).reshape(4, 5)
print(torch.normal(m.t(), 1.0).tolist())
print(torch.normal(m.t(), torch.ones(5, 4)).tolist())
try:
    torch.normal(torch.zeros(4), torch.ones(2, 2))
except RuntimeError as e:
    print(e)
"""
)
PROGRAMS["inplace_forms"] = (
    H
    + """torch.manual_seed(0)
x = torch.empty(5)
print(x.uniform_().tolist(), x.uniform_(-1, 1).tolist(), x.uniform_(to=2.0).tolist())
print(x.normal_().tolist(), x.normal_(2).tolist(), x.normal_(std=0.1).tolist())
print(x.random_(), x.random_(10), x.random_(3, 8), x.random_(to=4), x.random_(-3, to=2))
i = torch.empty(5, dtype=torch.int64)
print(i.random_(), i.random_(100), i.random_(-5, 5))
print(torch.empty(4, dtype=torch.int32).random_(), torch.empty(4, dtype=torch.uint8).random_())
print(torch.empty(4, dtype=torch.bool).random_(), torch.empty(4, dtype=torch.int8).random_())
print(torch.empty(4, dtype=torch.int16).random_())
print(x.exponential_().tolist(), x.exponential_(3.0).tolist(), x.bernoulli_().tolist())
print(x.bernoulli_(0.9).tolist(), x.bernoulli_(torch.full((5,), 0.2)).tolist())
print(torch.FloatTensor(2, 3).uniform_(-1, 1))
print(torch.zeros(3).uniform_(), torch.ones(3, dtype=torch.float64).normal_(5, 0.1))
"""
)
PROGRAMS["more_distributions"] = (
    H
    + """torch.manual_seed(0)
x = torch.empty(20)
print(x.geometric_(0.3).tolist())
print(x.log_normal_().tolist())
print(x.log_normal_(1.0, 0.5).tolist())
print(x.cauchy_().tolist())
print(x.cauchy_(1.0, 2.0).tolist())
y = torch.empty(20, dtype=torch.float64)
print(y.geometric_(0.3).tolist(), y.log_normal_().tolist(), y.cauchy_().tolist())
for dt in [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8]:
    print(torch.empty(10, dtype=dt).geometric_(0.05).tolist())
print(torch.poisson(torch.tensor([0.5, 1.0, 5.0, 20.0, 100.0, 0.0])).tolist())
print(torch.poisson(torch.arange(30.)).tolist())
print(torch.poisson(torch.arange(10., dtype=torch.float64) * 3.3).tolist())
rates = torch.rand(4, 5) * 20
print(torch.poisson(rates))
"""
)
PROGRAMS["bernoulli"] = (
    H
    + """torch.manual_seed(0)
p = torch.tensor([0.1, 0.5, 0.9, 0.0, 1.0])
print(torch.bernoulli(p), torch.bernoulli(p, 0.3), torch.bernoulli(torch.full((20,), 0.5)).tolist())
print(torch.bernoulli(p.double()), p.bernoulli(), p.bernoulli(0.7))
print(torch.empty(5).bernoulli_(p.double()), torch.empty(5, dtype=torch.float64).bernoulli_(p))
print(torch.empty(3, 5).bernoulli_(p))
print(torch.empty(5, dtype=torch.int64).bernoulli_(0.5), torch.empty(5, dtype=torch.bool).bernoulli_(0.5))
q = torch.rand(4, 5)
print(torch.bernoulli(q.t()).tolist())
z = torch.zeros(5, 4); z.t().bernoulli_(q)
print(z.tolist())
"""
)
PROGRAMS["multinomial"] = (
    H
    + """torch.manual_seed(0)
w = torch.tensor([0.1, 0.2, 0.3, 0.4])
print(torch.multinomial(w, 2), torch.multinomial(w, 4), torch.multinomial(w, 10, replacement=True))
print(torch.multinomial(w, 1), torch.multinomial(w, 1, True), w.multinomial(3))
W = torch.tensor([[1., 2., 3.], [0., 5., 1.]])
print(torch.multinomial(W, 2), torch.multinomial(W, 5, replacement=True))
print(torch.multinomial(torch.ones(100), 100).tolist())
print(torch.multinomial(torch.arange(1., 1001.), 5, replacement=True))
print(torch.multinomial(torch.tensor([1., 2., 3.], dtype=torch.float64), 2))
V = torch.rand(5, 3).t()
print(torch.multinomial(V, 2).tolist(), torch.multinomial(V, 4, True).tolist())
"""
)
PROGRAMS["dropout"] = (
    H
    + """torch.manual_seed(0)
x = torch.ones(10)
print(F.dropout(x), F.dropout(x, 0.2), F.dropout(x, p=0.9, training=True), F.dropout(x, training=False))
d = nn.Dropout(0.3)
print(d, d(torch.ones(2, 8)))
d.eval(); print(d(torch.ones(3)))
d.train(); print(d(torch.arange(6.)))
print(torch.dropout(x, 0.5, True), F.dropout(torch.ones(4, dtype=torch.float64), 0.5))
print(F.dropout(torch.ones(100), 0.5).tolist())
y = torch.arange(20.).reshape(4, 5).t()
print(F.dropout(y, 0.5).tolist())
print(F.dropout(y[::2], 0.5).tolist())
z = torch.ones(6)
F.dropout(z, 0.5, True, True); print(z)
nn.Dropout(0.5, inplace=True)(z); print(z)
g = torch.ones(6, requires_grad=True)
out = F.dropout(g, 0.5)
out.sum().backward()
print(out, g.grad)
"""
)
for _dt in ["float32", "float64"]:
    PROGRAMS[f"dropout_family_{_dt}"] = (
        H
        + f"""torch.manual_seed(0)
x = torch.arange(24., dtype=torch.{_dt}).reshape(2, 3, 4) - 10
print(F.dropout1d(x, 0.5).tolist())
print(F.dropout1d(x[0], 0.3).tolist())
print(F.dropout2d(x.reshape(1, 2, 3, 4), 0.5).tolist())
print(F.dropout3d(x.reshape(1, 2, 1, 3, 4), 0.5).tolist())
print(F.dropout3d(x.reshape(2, 1, 3, 4), 0.5).tolist())
print(F.alpha_dropout(x, 0.3, True).tolist())
print(F.alpha_dropout(x, 0.3).tolist())
print(F.feature_alpha_dropout(x, 0.4, True).tolist())
print(nn.AlphaDropout(0.2)(x).tolist(), nn.FeatureAlphaDropout(0.5)(x).tolist())
print(nn.Dropout1d(0.5)(x).tolist(), nn.Dropout2d(0.5)(x.reshape(1, 2, 3, 4)).tolist())
print(nn.Dropout3d(0.5)(x.reshape(1, 2, 1, 3, 4)).tolist())
print(nn.Dropout1d(0.5), nn.Dropout2d(), nn.Dropout3d(0.1, True), nn.AlphaDropout(0.2))
print(nn.FeatureAlphaDropout(), nn.Dropout(0))
print(F.alpha_dropout(x, 1.0, True).tolist(), F.alpha_dropout(x, 0.0, True).tolist())
print(torch.alpha_dropout(x, 0.5, True).tolist(), torch.feature_alpha_dropout(x, 0.5, True).tolist())
y = x.clone(); F.dropout1d(y, 0.5, True, True); print(y.tolist())
y = x.clone(); F.alpha_dropout(y, 0.5, True, True); print(y.tolist())
print(F.dropout(torch.arange(40., dtype=torch.{_dt}).reshape(8, 5)[::2].t(), 0.5).tolist())
g = torch.arange(12., dtype=torch.{_dt}, requires_grad=True)
a = F.alpha_dropout(g, 0.5, True)
a.sum().backward()
print(a, g.grad)
h = torch.arange(12., dtype=torch.{_dt}).reshape(2, 3, 2).requires_grad_()
b = F.dropout1d(h, 0.5)
(b * b).sum().backward()
print(b, h.grad)
"""
    )
PROGRAMS["dropout_errors"] = (
    H
    + """x = torch.ones(3)
for f in [lambda: F.dropout1d(x, 0.5), lambda: F.dropout(x, 1.5), lambda: nn.Dropout(-0.1),
          lambda: F.alpha_dropout(x, 2.0, True), lambda: F.dropout1d(torch.ones(2, 3, 4, 5))]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
"""
)
PROGRAMS["generators"] = (
    H
    + """torch.manual_seed(0)
g = torch.Generator().manual_seed(42)
print(g.initial_seed(), torch.rand(3, generator=g), torch.randn(3, generator=g))
h = torch.Generator()
print(h.initial_seed())
s = g.get_state()
a = torch.randint(0, 100, (5,), generator=g)
g.set_state(s)
print(a, torch.randint(0, 100, (5,), generator=g))
print(torch.randperm(5, generator=g), torch.normal(0., 1., (3,), generator=g))
print(torch.empty(3).uniform_(generator=g), torch.multinomial(torch.ones(4), 2, generator=g))
print(torch.bernoulli(torch.full((4,), .5), generator=g), torch.empty(3).normal_(generator=g))
x = torch.empty(6)
print(x.geometric_(0.5, generator=g).tolist(), x.log_normal_(generator=g).tolist())
print(x.cauchy_(generator=g).tolist(), torch.poisson(torch.ones(5) * 3, generator=g).tolist())
print(x.random_(generator=g).tolist(), x.random_(5, generator=g).tolist())
print(x.exponential_(generator=g).tolist(), torch.rand_like(x, generator=g).tolist())
print(torch.randn_like(x, generator=g).tolist(), torch.randint_like(x, 9, generator=g).tolist())
g2 = torch.Generator(device='cpu'); g2.manual_seed(7); print(torch.rand(2, generator=g2))
print(torch.Generator().manual_seed(2**63 - 1).initial_seed())
print(torch.Generator().manual_seed(-1).initial_seed())
print(torch.rand(3).tolist())
"""
)
PROGRAMS["rng_state"] = (
    H
    + """torch.manual_seed(0)
s = torch.get_rng_state()
print(s.shape, s.dtype, s[:24].tolist())
a = torch.randn(5)
torch.set_rng_state(s)
print(torch.equal(a, torch.randn(5)))
torch.randn(3)
s2 = torch.get_rng_state()
print(s2[5020:5056].tolist())
b = torch.randn(3)
torch.set_rng_state(s2)
print(torch.equal(b, torch.randn(3)))
print(torch.default_generator.initial_seed())
torch.default_generator.manual_seed(9); print(torch.rand(2))
torch.random.manual_seed(3)
print(torch.rand(2), torch.random.initial_seed())
s = torch.random.get_rng_state(); a = torch.rand(2); torch.random.set_rng_state(s)
print(torch.equal(a, torch.rand(2)))
r = torch.manual_seed(6)
print(type(r).__name__, r.initial_seed())
"""
)
PROGRAMS["seeds_edge"] = (
    H
    + """for s in [2**63 - 1, 2**64 - 1, -2**63, 2**31 - 1, 1234, True, 2.7, '12']:
    torch.manual_seed(s)
    print(torch.initial_seed(), torch.rand(2).tolist(), torch.randn(17).tolist()[-3:])
for s in [2**64, -2**63 - 1, float('inf'), float('nan')]:
    try:
        torch.manual_seed(s)
    except Exception as e:
        print(type(e).__name__, e)
for s in [1.5, True]:
    try:
        torch.Generator().manual_seed(s)
    except Exception as e:
        print(type(e).__name__, e)
"""
)
PROGRAMS["interleaved"] = (
    H
    + """torch.manual_seed(0)
a = torch.randn(3)
b = torch.rand(2)
c = torch.randn(1, dtype=torch.float64)
d = torch.randn(5)
e = torch.randint(0, 5, (3,))
f = torch.randn(20)
g = torch.randn(2, 2).normal_()
h = torch.randperm(4)
i = torch.rand(1)
j = torch.empty(3).log_normal_()
k = torch.randn(1, dtype=torch.float64)
print(a.tolist(), b.tolist(), c.tolist(), d.tolist(), e.tolist(), f.tolist(), g.tolist())
print(h.tolist(), i.tolist(), j.tolist(), k.tolist())
"""
)
PROGRAMS["views"] = (
    H
    + """torch.manual_seed(0)
x = torch.empty(3, 4)
x.t().uniform_()
print(x.tolist())
y = torch.zeros(4, 6)
y[:, ::2].normal_()
print(y.tolist())
z = torch.zeros(5, 5)
z[1:3].uniform_(); z[:, 1].normal_(); z[2:, 3:].exponential_()
print(z.tolist())
w = torch.zeros(4, 20)
w.t().normal_()
print(w.tolist())
v = torch.zeros(20, 2)
v[:, 0].normal_()
print(v.tolist())
u = torch.zeros(3, 4, 5)
u.permute(2, 0, 1).random_(0, 10)
print(u.tolist())
t = torch.zeros(6, 6)
t[::2, ::3].bernoulli_(0.5)
print(t.tolist())
s = torch.zeros(4, 5)
s.t().geometric_(0.3); print(s.tolist())
s[:, 1:4].cauchy_(); print(s.tolist())
s.t()[::2].log_normal_(); print(s.tolist())
"""
)
for _seed in [0, 42]:
    PROGRAMS[f"modules_{_seed}"] = (
        H
        + f"""torch.manual_seed({_seed})
lin = nn.Linear(3, 2)
bil = nn.Bilinear(2, 3, 4)
c1 = nn.Conv1d(2, 4, 3)
c2 = nn.Conv2d(3, 2, (3, 2), bias=False)
c3 = nn.Conv2d(4, 4, 3, groups=2)
emb = nn.Embedding(5, 3, padding_idx=0)
ln = nn.LayerNorm(4)
gn = nn.GroupNorm(2, 4)
lin2 = nn.Linear(10, 20, bias=False)
for m in [lin, bil, c1, c2, c3, emb, ln, gn, lin2]:
    for n, p in m.named_parameters():
        print(n, p.dtype, p.tolist())
print(torch.rand(1).tolist())
seq = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 2))
print([p.tolist() for p in seq.parameters()])
print(seq(torch.ones(1, 4)))
print(lin)
print(lin.weight, lin.bias)
"""
    )
PROGRAMS["module_dtype"] = (
    H
    + """torch.manual_seed(0)
print(nn.Linear(3, 2, dtype=torch.float64).weight.tolist())
print(nn.Conv1d(1, 2, 3, dtype=torch.float64).bias.tolist())
print(nn.Embedding(3, 2, dtype=torch.float64).weight.tolist())
print(nn.Bilinear(2, 2, 1, dtype=torch.float64).weight.dtype)
torch.set_default_dtype(torch.float64)
print(nn.Linear(3, 2).weight.tolist(), torch.randn(3).tolist(), torch.rand(2).dtype)
"""
)
PROGRAMS["module_class"] = (
    H
    + """class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 5)
        self.drop = nn.Dropout(0.25)
        self.fc2 = nn.Linear(5, 1)
    def forward(self, x):
        return self.fc2(self.drop(torch.relu(self.fc1(x))))
torch.manual_seed(1)
net = Net()
x = torch.randn(3, 4)
print(net(x))
net.eval()
print(net(x))
"""
)
PROGRAMS["module_order"] = (
    H
    + """torch.manual_seed(42)
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.conv = nn.Conv1d(4, 6, 3, padding=1)
        self.norm = nn.LayerNorm(6)
        self.gn = nn.GroupNorm(3, 6)
        self.bil = nn.Bilinear(6, 6, 2)
        self.head = nn.Linear(2, 5)
        self.drop = nn.Dropout(0.1)
m = M()
for n, p in m.named_parameters():
    print(n, p.tolist())
print(torch.randn(2).tolist())
torch.manual_seed(7)
for c in [nn.Conv1d(3, 6, 5, groups=3), nn.Conv2d(2, 4, 1), nn.Conv2d(1, 1, (2, 5), padding='same'),
          nn.Conv1d(4, 2, 3, bias=False, dilation=2, stride=2)]:
    print([p.tolist() for p in c.parameters()])
"""
)
PROGRAMS["apply"] = (
    H
    + """torch.manual_seed(0)
def init_weights(m):
    print(type(m).__name__)
    if isinstance(m, nn.Linear):
        torch.nn.init.kaiming_uniform_(m.weight, nonlinearity='relu')
        m.bias.data.fill_(0.01)
net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
net.apply(init_weights)
print(list(net.parameters()))
net = nn.Sequential(nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 3)), nn.Linear(3, 1))
order = []
def f(m):
    order.append(type(m).__name__)
    if isinstance(m, nn.Linear):
        nn.init.normal_(m.weight)
net.apply(f)
print(order, [p.tolist() for p in net.parameters()])
"""
)
PROGRAMS["init"] = (
    H
    + """torch.manual_seed(0)
w = torch.empty(3, 5)
print(nn.init.uniform_(w).tolist(), nn.init.uniform_(w, -0.1, 0.1).tolist())
print(nn.init.normal_(w).tolist(), nn.init.normal_(w, 0.5, 0.01).tolist())
print(nn.init.xavier_uniform_(w).tolist(), nn.init.xavier_normal_(w).tolist())
print(nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain('tanh')).tolist())
print(nn.init.kaiming_uniform_(w).tolist(), nn.init.kaiming_uniform_(w, a=0.1, mode='fan_out').tolist())
print(nn.init.kaiming_uniform_(w, nonlinearity='relu').tolist())
print(nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu').tolist())
print(nn.init.kaiming_normal_(w, a=0.2, nonlinearity='leaky_relu').tolist())
print(nn.init.kaiming_uniform_(w, nonlinearity='selu').tolist())
print(nn.init.kaiming_normal_(w, nonlinearity='tanh').tolist())
print(nn.init.trunc_normal_(w).tolist(), nn.init.trunc_normal_(w, std=0.02).tolist())
print(nn.init.trunc_normal_(w, 0., 1., -0.5, 0.5).tolist())
q = nn.init.orthogonal_(w)
print(q.shape, torch.allclose(q @ q.t(), torch.eye(3), atol=1e-6))
print(nn.init.constant_(w, 0.3).tolist(), nn.init.eye_(w).tolist())
print(nn.init.zeros_(w).tolist(), nn.init.ones_(w).tolist())
print(nn.init.sparse_(torch.empty(6, 4), 0.5).tolist())
print(nn.init.sparse_(torch.empty(5, 3), 0.2, std=1.0, generator=torch.Generator().manual_seed(1)).tolist())
print(nn.init.dirac_(torch.empty(2, 2, 3)).tolist(), nn.init.dirac_(torch.empty(4, 2, 3, 3), 2).sum().item())
print(torch.rand(2).tolist())
"""
)
PROGRAMS["init_big"] = (
    H
    + """torch.manual_seed(0)
w = torch.empty(64, 100)
print(nn.init.kaiming_normal_(w)[5].tolist())
w4 = torch.empty(8, 4, 3, 3)
print(nn.init.kaiming_uniform_(w4, mode='fan_out')[0, 0].tolist(), nn.init.xavier_uniform_(w4)[1, 1].tolist())
print(nn.init.trunc_normal_(torch.empty(1000), std=0.02)[:20].tolist())
print(nn.init.xavier_normal_(torch.empty(300, 200))[::37, ::41].tolist())
"""
)
PROGRAMS["init_generator"] = (
    H
    + """g = torch.Generator().manual_seed(3)
torch.manual_seed(0)
w = torch.empty(4, 3)
print(nn.init.uniform_(w, generator=g).tolist(), nn.init.normal_(w, generator=g).tolist())
print(nn.init.xavier_uniform_(w, generator=g).tolist(), nn.init.kaiming_normal_(w, generator=g).tolist())
print(nn.init.trunc_normal_(w, generator=g).tolist())
print(torch.rand(2).tolist())
"""
)
PROGRAMS["init_param"] = (
    H
    + """torch.manual_seed(0)
lin = nn.Linear(4, 3)
nn.init.xavier_uniform_(lin.weight)
nn.init.zeros_(lin.bias)
print(lin.weight, lin.bias)
nn.init.normal_(lin.weight, std=0.01); nn.init.constant_(lin.bias, 0.1)
print(lin.weight, lin.bias)
"""
)
PROGRAMS["half"] = (
    H
    + """torch.manual_seed(0)
h = torch.float16
print(torch.rand(20, dtype=h).tolist(), torch.randn(20, dtype=h).tolist(), torch.randn(7, dtype=h).tolist())
print(torch.empty(9, dtype=h).exponential_().tolist(), torch.empty(9, dtype=h).geometric_(0.4).tolist())
print(torch.empty(9, dtype=h).log_normal_().tolist(), torch.empty(9, dtype=h).cauchy_().tolist())
print(torch.empty(9, dtype=h).bernoulli_(0.5).tolist(), torch.empty(9, dtype=h).random_(0, 100).tolist())
print(torch.poisson(torch.arange(12., dtype=h)).tolist(), torch.normal(torch.zeros(5, dtype=h), 1.0).tolist())
print(F.dropout(torch.ones(18, dtype=h), 0.4).tolist(), F.alpha_dropout(torch.ones(18, dtype=h), 0.4, True).tolist())
print(torch.empty(10, dtype=h).uniform_(-3, 3).tolist(), torch.empty(10, dtype=h).random_().tolist())
print(torch.randn(3, dtype=torch.half), torch.randint(0, 10, (4,), dtype=h).tolist())
"""
)
PROGRAMS["bounds"] = (
    H
    + """torch.manual_seed(0)
print(torch.empty(5, dtype=torch.float64).uniform_(-1e10, 1e10).tolist())
print(torch.empty(5).uniform_(3, 3).tolist(), torch.empty(5).uniform_(-0.5, 0.5).tolist())
print(torch.empty(20).uniform_(1e-3, 1e-3 + 1e-9).tolist())
print(torch.empty(20, dtype=torch.float64).normal_(-3, 0).tolist(), torch.empty(20).normal_(0, 1e-30).tolist())
print(torch.empty(4, dtype=torch.int64).random_(-2**63, 2**63 - 1).tolist())
print(torch.empty(4).random_(0, 2**30).tolist())
"""
)
PROGRAMS["errors"] = (
    H
    + """torch.manual_seed(0)
for f in [lambda: torch.randint(5, 3, (2,)), lambda: torch.randint(0, 300, (2,), dtype=torch.uint8),
          lambda: torch.rand(3, dtype=torch.int64), lambda: torch.randn(3, dtype=torch.int64),
          lambda: torch.empty(3).uniform_(2, 1), lambda: torch.empty(3).normal_(0, -1),
          lambda: torch.multinomial(torch.tensor([1., 2.]), 3), lambda: torch.bernoulli(torch.tensor([1.5])),
          lambda: torch.empty(3).exponential_(-1), lambda: torch.randperm(-1),
          lambda: torch.empty(3).geometric_(0), lambda: torch.empty(3).geometric_(1.5),
          lambda: torch.empty(3).log_normal_(0, 0), lambda: torch.empty(3).cauchy_(0, -1),
          lambda: torch.poisson(torch.tensor([-1.])), lambda: torch.poisson(torch.tensor([1, 2])),
          lambda: torch.empty(3, dtype=torch.int64).log_normal_(),
          lambda: torch.empty(3, dtype=torch.int64).cauchy_(),
          lambda: torch.empty(3, dtype=torch.bool).geometric_(0.5),
          lambda: torch.empty(3, dtype=torch.int16).random_(0, 2**20),
          lambda: torch.empty(3, dtype=torch.int8).random_(-300, 0),
          lambda: torch.empty(3, dtype=torch.int64).exponential_(),
          lambda: torch.empty(3, dtype=torch.float16).uniform_(-6e4, 6e4),
          lambda: torch.randperm(300, dtype=torch.int8), lambda: torch.randperm(3000, dtype=torch.float16),
          lambda: torch.multinomial(torch.tensor([1, 2]), 1)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
print(torch.rand(2).tolist())
"""
)
PROGRAMS["errors_more"] = (
    H
    + """torch.manual_seed(0)
for f in [lambda: torch.empty(3).bernoulli_(1.5), lambda: torch.empty(3).bernoulli_(-0.1), lambda: torch.bernoulli(torch.tensor([0.5]), 2.0),
          lambda: torch.multinomial(torch.tensor([-1., 2.]), 1), lambda: torch.multinomial(torch.tensor([0., 0.]), 1),
          lambda: torch.multinomial(torch.tensor([0., 0.]), 2, True), lambda: torch.multinomial(torch.tensor([1., -2.]), 2, True),
          lambda: torch.multinomial(torch.tensor([1., float('inf')]), 2, True), lambda: torch.multinomial(torch.ones(2, 2, 2), 1),
          lambda: torch.multinomial(torch.ones(3), 0), lambda: torch.multinomial(torch.ones(3), -1),
          lambda: torch.multinomial(torch.ones(3, dtype=torch.float16), 1),
          lambda: torch.normal(torch.zeros(2), -1.0), lambda: torch.normal(0.0, torch.tensor([-1.0, 1.0])),
          lambda: torch.normal(torch.zeros(2), torch.tensor([-1.0, 1.0])), lambda: torch.normal(0.0, 1.0),
          lambda: torch.normal(torch.zeros(2, dtype=torch.int64), 1.0),
          lambda: torch.randint(3, (2,), dtype=torch.float16), lambda: torch.randint(5), lambda: torch.randint(1, 2, 3, (2,)),
          lambda: torch.rand(-1), lambda: torch.randn(2, -3), lambda: torch.randperm(3, dtype=torch.bool),
          lambda: torch.empty(3, 3).expand(2, 3, 3).uniform_() if False else torch.empty(3, 1).expand(3, 3).uniform_(),
          lambda: torch.empty(2).random_(2, 1), lambda: torch.empty(2).random_(0), lambda: torch.empty(2, dtype=torch.bool).random_(0, 3),
          lambda: torch.set_rng_state(torch.zeros(10, dtype=torch.uint8)), lambda: torch.set_rng_state(torch.zeros(5056)),
          lambda: F.dropout(torch.ones(2, dtype=torch.int64), 0.5), lambda: nn.init.sparse_(torch.empty(3), 0.1),
          lambda: nn.init.dirac_(torch.empty(3, 3)), lambda: nn.init.dirac_(torch.empty(3, 2, 2), 2),
          lambda: nn.init.xavier_uniform_(torch.empty(3)), lambda: nn.init.kaiming_normal_(torch.empty(4)),
          lambda: torch.poisson(torch.tensor([float('nan')])), lambda: torch.poisson(torch.tensor([float('inf')])),
          ]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
print(torch.multinomial(torch.tensor([1., 2., 4.], dtype=torch.float16), 5, True))
print(torch.rand(2).tolist())
"""
)
PROGRAMS["like_constructors_keep_layout"] = (
    H
    + """torch.manual_seed(3)
w = torch.randn(8, 3)
mask = torch.zeros_like(w.t())
print(mask.stride(), mask.is_contiguous())
print(torch.rand_like(mask).tolist())
print(torch.randint_like(torch.ones_like(w.t(), dtype=torch.int32), 100).tolist())
print(mask.bernoulli_(torch.full_like(w.t(), 0.4)).tolist())
h = torch.empty_like(torch.empty(2, 3, 4).permute(2, 0, 1)).normal_()
print(h.stride(), h.tolist())
print(torch.full_like(torch.empty(3, 6)[:, ::2].t(), 0.5).bernoulli().tolist())
print(torch.zeros_like(torch.empty(1, 5).t()).uniform_().tolist())
"""
)
PROGRAMS["fork_rng"] = (
    H
    + """torch.manual_seed(0)
a = torch.randn(1)
with torch.random.fork_rng():
    b = torch.rand(5)
    c = torch.randn(3, dtype=torch.float64)
print(a.tolist(), b.tolist(), c.tolist())
print(torch.randn(3).tolist(), torch.randn(1, dtype=torch.float64).tolist())
with torch.random.fork_rng(enabled=False):
    torch.rand(2)
print(torch.rand(2).tolist())
with torch.random.fork_rng(devices=[]):
    with torch.random.fork_rng():
        torch.manual_seed(5)
        print(torch.rand(2).tolist())
    print(torch.rand(2).tolist())
print(torch.rand(2).tolist())
"""
)
PROGRAMS["out_and_empty_int_draws"] = (
    H
    + """import warnings
warnings.simplefilter("ignore")
torch.manual_seed(11)
o = torch.empty(3)
r = torch.rand(3, out=o)
print(o.tolist(), r is o)
o = torch.empty(3, 2).t()
torch.randn(2, 3, out=o)
print(o.tolist(), o.stride())
o = torch.empty(17, dtype=torch.float64)
torch.randn(17, out=o)
print(o.tolist())
o = torch.empty(2)
torch.rand(4, out=o)
print(o.tolist())
o = torch.empty(5)
torch.normal(2.0, 0.5, (5,), out=o)
print(o.tolist())
torch.normal(torch.zeros(5), 3.0, out=o)
print(o.tolist())
o = torch.ones(3)
torch.zeros(3, out=o)
print(o.tolist())
for f in [lambda: torch.rand(3, dtype=torch.float64, out=torch.empty(3)),
          lambda: torch.rand(3, out=torch.empty(3, dtype=torch.int64)),
          lambda: torch.randn(0, dtype=torch.int64), lambda: torch.randn_like(torch.zeros(0, dtype=torch.bool)),
          lambda: torch.rand(0, dtype=torch.int64), lambda: torch.empty(0, dtype=torch.int64).exponential_(),
          lambda: torch.empty(0, dtype=torch.int64).exponential_(-1), lambda: torch.empty(0, dtype=torch.int32).log_normal_(),
          lambda: torch.empty(0, dtype=torch.int8).normal_(), lambda: torch.empty(0, dtype=torch.int64).normal_(0, -1),
          lambda: torch.normal(torch.zeros(0, dtype=torch.int64), 1.0), lambda: torch.empty(0, dtype=torch.int64).cauchy_(),
          lambda: torch.empty(0, dtype=torch.int64).uniform_()]:
    try:
        r = f()
        print(r.tolist(), r.dtype)
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
print(torch.rand(2).tolist())
"""
)
PROGRAMS["cat_and_stack_of_views_then_draw"] = (
    H
    + """torch.manual_seed(8)
w = torch.randn(3, 4)
c = torch.cat([w.t(), w.t()])
print(c.stride(), torch.stack([w.t(), w.t()]).stride(), torch.cat([w.t(), w.t()], 1).stride())
print(c.normal_().tolist())
print(torch.rand_like(torch.cat([w.t(), w.t()], dim=1)).tolist())
print(torch.stack([w.t(), w.t()], dim=2).uniform_().tolist())
"""
)
PROGRAMS["dropout_keeps_the_input_layout"] = (
    H
    + """torch.manual_seed(1)
w = torch.randn(3, 4)
for f in [lambda v: F.dropout(v, 0.5), lambda v: F.alpha_dropout(v, 0.3, True),
          lambda v: F.dropout(v, 1.0), lambda v: nn.Dropout(0.2)(v)]:
    r = f(w.t())
    print(r.stride(), r.tolist())
    print(torch.rand_like(r).tolist())
v = w.t().clone()
F.dropout(v, 0.5, inplace=True)
print(v.stride(), v.tolist())
x = torch.randn(2, 3, 4).permute(2, 0, 1)
print(F.dropout(x, 0.4).stride())
"""
)
PROGRAMS["tutorial_training"] = (
    H
    + """torch.manual_seed(0)
X = torch.randn(64, 3)
true_w = torch.tensor([[2.0], [-1.0], [0.5]])
y = X @ true_w + 0.1 * torch.randn(64, 1)
model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Dropout(0.1), nn.Linear(8, 1))
print(model[0].weight, model[3].bias)
perm = torch.randperm(64)
batch = perm[:8]
print(batch)
out = model(X[batch])
print(out.shape, torch.rand(1).item())
"""
)


PROGRAMS["trunc_normal_and_sparse_on_views"] = (
    H
    + """torch.manual_seed(3)
b = torch.empty(4, 3, 5)
w = b.transpose(0, 2)
nn.init.trunc_normal_(w, mean=1, std=2, a=-1, b=4)
print(w.tolist(), torch.rand(2).tolist())
w = torch.empty(3, 7).t()
nn.init.trunc_normal_(w)
print(w.tolist(), torch.rand(2).tolist())
b = torch.empty(40, 3, dtype=torch.float64)
w = b[:, 1]
nn.init.trunc_normal_(w, std=0.5, a=-0.6, b=0.4)
print(w.tolist(), torch.rand(2).tolist())
b = torch.empty(20, 9)
w = b[:, ::2]
nn.init.trunc_normal_(w, std=0.02)
print(w.tolist(), torch.rand(2).tolist())
w = torch.empty(6, 2, 3).permute(2, 0, 1)
nn.init.trunc_normal_(w, mean=0.5, std=1.0, a=0.9, b=1.2)
print(w.tolist(), torch.rand(2).tolist())
g = torch.Generator().manual_seed(11)
w = torch.empty(5, 5).t()
nn.init.sparse_(w, 0.9, std=0.5)
print(w.tolist(), torch.rand(2).tolist())
w = torch.empty(9, 6).t()
nn.init.sparse_(w, 0.3, generator=g)
print(w.tolist(), torch.rand(2).tolist(), torch.rand(2, generator=g).tolist())
"""
)


PROGRAMS["normal_of_a_graph_mean_and_rrelu_bounds"] = (
    H
    + """torch.manual_seed(0)
m = torch.zeros(2, 3, requires_grad=True)
s = torch.ones(3, requires_grad=True)
for y in [torch.normal(m, 1.0), torch.normal(0.0, s), torch.normal(m, s)]:
    print(y.requires_grad, y.tolist())
    y.sum().backward()
print(m.grad, s.grad)
print(torch.normal(m, 2.0))
with torch.no_grad():
    print(torch.normal(m, s).requires_grad)
x = torch.randn(300)
print(F.rrelu(x, training=True).tolist())
print(nn.RReLU(0.1, 0.3)(x).tolist())
print(F.rrelu(x.double(), 0.1, 0.3, training=True).tolist())
"""
)


PROGRAMS["multinomial_equal_keys"] = (
    H
    + """torch.manual_seed(0)
w = torch.rand(4, 40, dtype=torch.float16) ** 8
print(torch.multinomial(w, 35, replacement=False).tolist())
w = torch.rand(4, 80, dtype=torch.float16)[:, ::2]
print(torch.multinomial(w, 12).tolist(), torch.multinomial(w, 35).tolist())
w = torch.zeros(3, 300)
w[:, 7] = 1.0
w[:, 100] = 2.0
print(torch.multinomial(w, 4).tolist(), torch.multinomial(w, 9).tolist())
w = torch.zeros(50, dtype=torch.float64)
w[::7] = 0.5
print(torch.multinomial(w, 30).tolist(), torch.multinomial(w, 2).tolist())
w = torch.ones(2000, dtype=torch.float16)
print(torch.multinomial(w, 20).tolist(), torch.multinomial(w, 40).tolist())
"""
)


PROGRAMS["diagonal_is_a_view"] = (
    H
    + """b = torch.zeros(3, 4)
x = b.diagonal()
x.fill_(1)
print(b)
print(x.stride(), x.is_contiguous(), x._version, b._version)
y = b.diagonal(offset=1)
print(y, y.stride())
z = b.diagonal(-1)
z.add_(5)
print(b, z.stride())
torch.manual_seed(1)
e = torch.empty(40, 41)
e.diagonal().normal_()
print(e.diagonal()[:3].tolist(), torch.rand(2).tolist())
w = torch.randn(3, 3, requires_grad=True)
d = w.diagonal()
print(d)
d.sum().backward()
print(w.grad)
h = w * 2
h = h + torch.eye(3)
print(h)
h.sum().backward()
print(w.grad)
c = torch.eye(3) * 2
c.diagonal().add_(1e-3)
print(c)
try:
    w.diagonal().fill_(0)
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.diagonal(torch.arange(9.).reshape(3, 3), 0).tolist())
print(torch.zeros(0, 3).diagonal().shape, torch.zeros(2, 5).diagonal(7).shape)
m = torch.zeros(3, 3)
torch.diag(m).fill_(1)
m.t().diagonal().fill_(2)
print(m.sum().item(), torch.rand(3, 5).diagonal().stride())
"""
)


def run_torch(source: str) -> str:
    """The program's standard output under PyTorch, run in this process (each from a fresh
    namespace and PyTorch's default dtype)."""
    import warnings

    import torch

    torch.set_default_dtype(torch.float32)
    out = io.StringIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with contextlib.redirect_stdout(out):
            exec(compile(source, "<program>", "exec"), {"__name__": "__main__"})
    torch.set_default_dtype(torch.float32)
    return out.getvalue()


def main() -> None:
    import torch

    recorded = {name: run_torch(src) for name, src in PROGRAMS.items()}
    meta = {"torch": torch.__version__, "cpu_capability": torch.backends.cpu.get_cpu_capability()}
    RECORDING.write_text(json.dumps({"meta": meta, "stdout": recorded}, indent=1) + "\n")
    print(f"{len(recorded)} programs recorded; torch {torch.__version__}")


if __name__ == "__main__":
    main()
