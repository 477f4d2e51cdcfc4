# ruff: noqa: E501, E741 - generated programs are written as users write them
"""A second sweep of random programs for issue 11's bar ("a hidden set of seeds, sizes and
functions matches PyTorch bit for bit"), written apart from sweep.py (its own families, its own
seeds): seeds from all of [0, 2**64) and negative ones (and the two PyTorch refuses), sizes 0 to
4097 in shapes of 1 to 4 dimensions, targets transposed, permuted, stepped, narrowed, selected
and diagonal, float32/float64/float16 (bfloat16 with RNG12_BF16=1) and the integer dtypes,
randint / random_ over negative and 64-bit ranges, multinomial with zero and equal weights,
bernoulli with tensor and float p, every overload of normal, the in-place samplers, dropout and
its modules, rrelu, gumbel_softmax, poisson, random_split and a shuffling DataLoader, nn.init
on 1-D to 5-D tensors and views, module construction, torch.distributions samples, state round
trips and fork_rng, interleaved on one stream. Each program prints `.tolist()` (every bit) and
ends with draws from both generators.

`python tests/surface/data/random/sweep2.py N SEED` (with torch and gradcli's dependencies in
one environment) runs N programs under both and prints how many printed the same text (an
error counts as the same when both raise). Generating needs only the standard library.
"""

from __future__ import annotations

import os
import random

BIG = [2**32 - 1, 2**32, 2**32 + 1, 2**63 - 1, 2**64 - 1, 2**31, 2**53 + 1]
SIZES = [0, 1, 2, 7, 15, 16, 17, 31, 32, 33, 63, 64, 100, 1000, 1023, 1024, 4097]
SMALL = [0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 33]
FDT = ["float32", "float32", "float64", "float64", "float16"] + (
    ["bfloat16"] if os.environ.get("RNG12_BF16") else []
)
IDT = ["int8", "int16", "int32", "int64", "uint8", "bool"]


def seed_of(r):
    k = r.random()
    if k < 0.3:
        return r.randrange(0, 2**63)
    if k < 0.5:
        return r.choice(BIG)
    if k < 0.6:
        return -r.randrange(1, 2**63)
    if k < 0.63:
        return r.choice([2**64, -(2**63) - 1])  # ValueError in PyTorch
    return r.randrange(0, 100000)


def shape(r, maxdims=4):
    nd = r.choice([1, 1, 2, 2, 3, 4][: maxdims + 2] if maxdims >= 4 else [1, 2, 3][:maxdims])
    if nd == 1:
        return (r.choice(SIZES),)
    total = r.choice(SIZES)
    dims = []
    rest = max(total, 1)
    for _ in range(nd - 1):
        d = r.choice([1, 2, 3, 4, 5, 7, 8, 16, 17])
        dims.append(d)
        rest = max(1, rest // d)
    dims.append(rest if total else 0)
    r.shuffle(dims)
    return tuple(dims)


def view(r, dt):
    """(setup source, name): a target tensor, often a non-contiguous view."""
    sh = shape(r)
    base = f"torch.empty({sh}, dtype=torch.{dt})"
    nd = len(sh)
    kinds = ["plain", "step", "narrow"]
    if nd >= 2:
        kinds += ["t", "perm", "col", "select"]
    if nd >= 2 and sh[0] > 0:
        kinds += ["diag"]
    k = r.choice(kinds)
    if k == "plain":
        return f"x = {base}\n", "x"
    if k == "step":
        big = (sh[0] * 2 + 1,) + sh[1:]
        return f"b = torch.empty({big}, dtype=torch.{dt})\nx = b[1::2]\n", "x"
    if k == "narrow":
        big = sh[:-1] + (sh[-1] + 3,)
        return (
            f"b = torch.empty({big}, dtype=torch.{dt})\nx = b.narrow({nd - 1}, 2, {sh[-1]})\n",
            "x",
        )
    if k == "t":
        rev = sh[::-1]
        if nd == 2:
            return f"b = torch.empty({rev}, dtype=torch.{dt})\nx = b.t()\n", "x"
        return f"b = torch.empty({rev}, dtype=torch.{dt})\nx = b.transpose(0, {nd - 1})\n", "x"
    if k == "perm":
        perm = list(range(nd))
        r.shuffle(perm)
        inv = [perm.index(i) for i in range(nd)]
        src = tuple(sh[p] for p in inv)
        # b.permute(perm) has shape sh only if src[perm[i]] == sh[i]
        src = [0] * nd
        for i, p in enumerate(perm):
            src[p] = sh[i]
        return (
            f"b = torch.empty({tuple(src)}, dtype=torch.{dt})\nx = b.permute({', '.join(map(str, perm))})\n",
            "x",
        )
    if k == "col":
        big = sh[:-1] + (sh[-1] * 2,)
        return f"b = torch.empty({big}, dtype=torch.{dt})\nx = b[..., ::2]\n", "x"
    if k == "select":
        return f"b = torch.empty({(2,) + sh}, dtype=torch.{dt})\nx = b.transpose(0, 1)[:, 1]\n", "x"
    return f"b = torch.empty({sh[:2]}, dtype=torch.{dt})\nx = b.diagonal()\n", "x"


def G(r, p=0.3):
    return ", generator=g" if r.random() < p else ""


def P(e):
    return f"print({e}.tolist())\n"


def f_rand(r):
    fn = r.choice(["rand", "randn"])
    dt = r.choice(FDT + [None])
    sh = shape(r)
    d = f", dtype=torch.{dt}" if dt else ""
    if r.random() < 0.3 and not d:
        args = ", ".join(map(str, sh))
        return P(f"torch.{fn}({args}{G(r)})")
    return P(f"torch.{fn}({sh}{d}{G(r)})")


def f_like(r):
    dt = r.choice(FDT)
    setup, x = view(r, dt)
    fn = r.choice(["rand_like", "randn_like", "randint_like"])
    if fn == "randint_like":
        hi = r.choice([1, 2, 10, 100, 2**11])
        if r.random() < 0.5:
            return setup + P(f"torch.randint_like({x}, {hi})")
        return setup + P(f"torch.randint_like({x}, {-hi}, {hi})")
    extra = ""
    if r.random() < 0.3:
        extra = f", dtype=torch.{r.choice(['float32', 'float64', 'float16'])}"
    return setup + P(f"torch.{fn}({x}{extra})")


def f_randint(r):
    dt = r.choice(IDT + ["int64", "int64", None])
    sh = shape(r, 3)
    lims = {
        "int8": (-128, 128),
        "int16": (-(2**15), 2**15),
        "int32": (-(2**31), 2**31),
        "int64": (-(2**63), 2**63 - 1),
        "uint8": (0, 256),
        "bool": (0, 2),
        None: (-(2**63), 2**63 - 1),
    }[dt]
    lo0, hi0 = lims
    k = r.random()
    if k < 0.3:
        hi = r.randint(1, min(hi0, 10**6))
        lo = None
    elif k < 0.6:
        lo = r.randint(lo0, max(lo0, hi0 - 2) if hi0 - lo0 < 10**4 else min(hi0 - 2, 10**4))
        lo = max(lo, lo0)
        hi = lo + r.randint(1, min(hi0 - lo, 2**40))
    elif k < 0.8:
        lo, hi = lo0, hi0
    else:
        lo = r.randint(lo0, hi0 - 1)
        hi = r.randint(lo + 1, hi0)
    d = f", dtype=torch.{dt}" if dt else ""
    a = f"{hi}" if lo is None else f"{lo}, {hi}"
    return P(f"torch.randint({a}, {sh}{d}{G(r)})")


def f_random_(r):
    dt = r.choice(IDT + ["int64"] + FDT)
    setup, x = view(r, dt)
    k = r.randrange(4)
    if k == 0:
        call = f"{x}.random_({G(r)[2:]})"
    elif k == 1:
        hi = r.choice([1, 2, 3, 100, 127, 255, 2**15, 2**24, 2**31 - 1, 2**32, 2**53, 2**62])
        call = f"{x}.random_({hi}{G(r)})"
    else:
        lo = r.choice([-100, -1, 0, 5, -(2**31)])
        hi = lo + r.choice([1, 2, 7, 200, 2**16, 2**33])
        call = f"{x}.random_({lo}, {hi}{G(r)})"
    return setup + call + "\n" + P(x)


def f_inplace(r):
    dt = r.choice(FDT)
    setup, x = view(r, dt)
    k = r.choice(
        [
            "uniform_",
            "normal_",
            "exponential_",
            "geometric_",
            "cauchy_",
            "log_normal_",
            "bernoulli_",
            "bernoulli_t",
        ]
    )
    g = G(r)
    if k == "uniform_":
        a = r.choice(["", "-2, 3", "0.5, 0.5", "-1e3, 1e3", "from_=1, to=2"])
        call = f"{x}.uniform_({a}{g if a else g[2:]})"
    elif k == "normal_":
        a = r.choice(["", "3.0, 0.5", "mean=-1, std=4", "0, 0"])
        call = f"{x}.normal_({a}{g if a else g[2:]})"
    elif k == "exponential_":
        a = r.choice(["", "0.5", "lambd=3.0", "1e-3"])
        call = f"{x}.exponential_({a}{g if a else g[2:]})"
    elif k == "geometric_":
        call = f"{x}.geometric_({r.choice(['0.5', '0.01', '1.0', 'p=0.9'])}{g})"
    elif k == "cauchy_":
        a = r.choice(["", "1.0, 2.0", "median=-3, sigma=0.1"])
        call = f"{x}.cauchy_({a}{g if a else g[2:]})"
    elif k == "log_normal_":
        a = r.choice(["", "0.5, 0.25", "mean=0, std=2"])
        call = f"{x}.log_normal_({a}{g if a else g[2:]})"
    elif k == "bernoulli_":
        a = r.choice(["", "0.0", "1.0", "0.3", "p=0.75"])
        call = f"{x}.bernoulli_({a}{g if a else g[2:]})"
    else:
        return (
            setup
            + f"p = torch.rand({x}.shape, dtype=torch.float64)\n"
            + f"{x}.bernoulli_(p{g})\n"
            + P(x)
        )
    return setup + call + "\n" + P(x)


def f_randperm(r):
    n = r.choice(SIZES + [2**16, 2**16 + 1, 5000, 20000])
    dt = r.choice(
        [
            "",
            "",
            ", dtype=torch.int32",
            ", dtype=torch.float32",
            ", dtype=torch.int16",
            ", dtype=torch.float64",
        ]
    )
    if dt == ", dtype=torch.int16" and n > 2**15:
        n = 300
    if n > 5000:
        return f"q = torch.randperm({n}{dt}{G(r)})\nprint((q.double() * torch.arange({n}, dtype=torch.float64)).sum().item(), q[:20].tolist())\n"
    return P(f"torch.randperm({n}{dt}{G(r)})")


def f_multinomial(r):
    rows = r.choice([None, 1, 2, 3, 5])
    n = r.choice([1, 2, 3, 5, 7, 16, 17, 33, 100, 1000])
    zeros = r.random() < 0.4
    dt = r.choice(["float32", "float64"])
    sh = (n,) if rows is None else (rows, n)
    src = f"w = torch.rand({sh}, dtype=torch.{dt})\n"
    if zeros:
        src += f"w[..., ::{r.choice([2, 3])}] = 0\n"
    if r.random() < 0.2:
        src += "w = w * 1000\n"
    repl = r.random() < 0.5
    nz = n - (len(range(0, n, 2)) if zeros else 0)
    k = r.choice([1, 2, 3, 10, 50, 200]) if repl else r.randint(1, max(1, min(nz, 40)))
    return src + P(f"torch.multinomial(w, {k}, {'True' if repl else 'False'}{G(r)})")


def f_bernoulli(r):
    sh = shape(r, 3)
    dt = r.choice(["float32", "float64", "float16"])
    k = r.randrange(4)
    if k == 0:
        return P(f"torch.bernoulli(torch.rand({sh}, dtype=torch.{dt}){G(r)})")
    if k == 1:
        return P(
            f"torch.bernoulli(torch.empty({sh}, dtype=torch.{dt}), {r.choice([0.0, 1.0, 0.5, 0.1])}{G(r)})"
        )
    if k == 2:
        return P(
            f"torch.bernoulli(torch.full({sh}, {r.choice([0.0, 1.0, 0.25])}, dtype=torch.{dt}))"
        )
    return f"p = torch.rand({sh}, dtype=torch.{dt})\n" + P(f"p.bernoulli({G(r)[2:]})")


def f_normal(r):
    k = r.randrange(7)
    sh = shape(r, 3)
    dt = r.choice(["float32", "float64"])
    g = G(r)
    if k == 0:
        return P(
            f"torch.normal(torch.zeros({sh}, dtype=torch.{dt}), torch.ones({sh}, dtype=torch.{dt}){g})"
        )
    if k == 1:
        return P(f"torch.normal(torch.arange({sh[0]}, dtype=torch.{dt}), 2.0{g})")
    if k == 2:
        return P(f"torch.normal(1.5, torch.rand({sh}, dtype=torch.{dt}){g})")
    if k == 3:
        return P(f"torch.normal(-2.0, 0.5, {sh}{g})")
    if k == 4:
        return P(f"torch.normal(0.0, 1.0, size={sh}, dtype=torch.{dt}{g})")
    if k == 5:
        a = r.choice([1, 3, 4])
        b = r.choice([1, 2, 5])
        return P(
            f"torch.normal(torch.rand({a}, 1, dtype=torch.{dt}), torch.rand({b}, dtype=torch.{dt}) + 0.5{g})"
        )
    return (
        f"m = torch.rand({sh}, dtype=torch.{dt})\no = torch.empty({sh}, dtype=torch.{dt})\n"
        f"torch.normal(m, 0.5, out=o{g})\n" + P("o")
    )


def f_dropout(r):
    dt = r.choice(["float32", "float64"])
    p = r.choice([0.0, 0.1, 0.5, 0.9, 1.0, 0.3])
    k = r.randrange(9)
    sh = shape(r, 3)
    if k == 0:
        return f"x = torch.rand({sh}, dtype=torch.{dt})\n" + P(f"F.dropout(x, {p}, training=True)")
    if k == 1:
        return f"x = torch.rand({sh}, dtype=torch.{dt})\nF.dropout(x, {p}, True, True)\n" + P("x")
    if k == 2:
        return (
            f"x = torch.rand({sh}, dtype=torch.{dt}).t()\n" + P(f"F.dropout(x, p={p})")
            if len(sh) == 2
            else P(f"F.dropout(torch.ones({sh}), {p})")
        )
    if k == 3:
        n, c, l = r.choice([1, 2, 3]), r.choice([1, 3, 16, 17]), r.choice([1, 4, 9])
        shp = r.choice([(n, c, l), (c, l)])
        return f"d = nn.Dropout1d({p})\n" + P(f"d(torch.ones({shp}, dtype=torch.{dt}))")
    if k == 4:
        n, c, h = r.choice([1, 2]), r.choice([1, 3, 17]), r.choice([1, 4])
        shp = r.choice([(n, c, h, h), (c, h, h)])
        return f"d = nn.Dropout2d({p})\n" + P(f"d(torch.ones({shp}, dtype=torch.{dt}))")
    if k == 5:
        n, c, h = r.choice([1, 2]), r.choice([1, 3, 17]), r.choice([1, 2, 3])
        shp = r.choice([(n, c, h, h, h), (c, h, h, h)])
        return f"d = nn.Dropout3d({p})\n" + P(f"d(torch.ones({shp}, dtype=torch.{dt}))")
    if k == 6:
        m = r.choice(["nn.AlphaDropout", "nn.FeatureAlphaDropout"])
        shp = (2, 3, 4) if "Feature" in m else sh
        return f"d = {m}({p})\n" + P(f"d(torch.randn({shp}, dtype=torch.{dt}))")
    if k == 7:
        fn = r.choice(["F.alpha_dropout", "F.feature_alpha_dropout"])
        shp = (3, 5, 2) if "feature" in fn else sh
        return f"x = torch.randn({shp}, dtype=torch.{dt})\n" + P(f"{fn}(x, {p}, True)")
    return (
        f"d = nn.Dropout({p}, inplace=True)\nx = torch.rand({sh}, dtype=torch.{dt})\ny = d(x)\n"
        + P("x")
    )


MODULES = [
    "nn.Linear({a}, {b})",
    "nn.Linear({a}, {b}, bias=False)",
    "nn.Bilinear({a}, {b}, {c})",
    "nn.Conv1d({a}, {b}, {k})",
    "nn.Conv2d({a}, {b}, {k})",
    "nn.Conv3d({a}, {b}, {k})",
    "nn.Conv2d({a2}, {a2}, {k}, groups=2)",
    "nn.ConvTranspose1d({a}, {b}, {k})",
    "nn.ConvTranspose2d({a}, {b}, {k})",
    "nn.ConvTranspose3d({a}, {b}, 2)",
    "nn.RNN({a}, {b})",
    "nn.RNN({a}, {b}, num_layers=2, bidirectional=True)",
    "nn.LSTM({a}, {b})",
    "nn.LSTM({a}, {b}, num_layers=2, proj_size=1)",
    "nn.GRU({a}, {b}, batch_first=True)",
    "nn.RNNCell({a}, {b})",
    "nn.LSTMCell({a}, {b})",
    "nn.GRUCell({a}, {b})",
    "nn.Embedding({a}, {b})",
    "nn.Embedding({a}, {b}, padding_idx=0)",
    "nn.EmbeddingBag({a}, {b})",
    "nn.LayerNorm({a})",
    "nn.BatchNorm1d({a})",
    "nn.MultiheadAttention({e}, {h})",
    "nn.MultiheadAttention({e}, {h}, kdim={a}, vdim={b})",
    "nn.TransformerEncoderLayer({e}, {h}, dim_feedforward={c})",
    "nn.TransformerDecoderLayer({e}, {h}, dim_feedforward={c})",
    "nn.PReLU({a})",
    "nn.GroupNorm(2, {a2})",
    "nn.InstanceNorm1d({a}, affine=True)",
    "nn.Sequential(nn.Linear({a}, {b}), nn.ReLU(), nn.Linear({b}, {c}))",
]


def f_module(r):
    a, b, c = r.randint(1, 9), r.randint(1, 9), r.randint(1, 9)
    h = r.choice([1, 2])
    e = h * r.randint(1, 4)
    tpl = r.choice(MODULES)
    src = "m = " + tpl.format(a=a, b=b, c=c, k=r.choice([1, 2, 3]), a2=2 * a, e=e, h=h) + "\n"
    return src + "for n_, p_ in m.named_parameters():\n    print(n_, p_.tolist())\n"


def f_init(r):
    nd = r.choice([1, 2, 2, 3, 4, 5])
    sh = tuple(r.choice([1, 2, 3, 4, 5, 7, 16]) for _ in range(nd))
    dt = r.choice(["float32", "float32", "float64"])
    k = r.choice(
        [
            "uniform_",
            "normal_",
            "xavier_uniform_",
            "xavier_normal_",
            "kaiming_uniform_",
            "kaiming_normal_",
            "trunc_normal_",
            "sparse_",
        ]
    )
    args = ""
    if k == "uniform_":
        args = r.choice(["", ", -0.1, 0.1", ", a=2, b=5"])
    elif k == "normal_":
        args = r.choice(["", ", 1.0, 0.02", ", std=3"])
    elif k.startswith("xavier"):
        args = r.choice(["", ", gain=2.0", ", nn.init.calculate_gain('tanh')"])
    elif k.startswith("kaiming"):
        args = r.choice(
            [
                "",
                ", a=0.1",
                ", mode='fan_out'",
                ", nonlinearity='relu'",
                ", a=math.sqrt(5)",
                ", mode='fan_out', nonlinearity='leaky_relu'",
            ]
        )
    elif k == "trunc_normal_":
        args = r.choice(["", ", std=0.02", ", mean=1, std=2, a=-1, b=4", ", 0, 1, -0.5, 0.5"])
    elif k == "sparse_":
        sh = sh[:2] if nd >= 2 else (sh[0], 3)
        args = r.choice([", 0.5", ", sparsity=0.1", ", 0.9, std=0.5"])
    setup = ""
    if r.random() < 0.3 and len(sh) >= 2:
        setup = (
            f"b = torch.empty({sh[::-1]}, dtype=torch.{dt})\nw = b.transpose(0, {len(sh) - 1})\n"
        )
    else:
        setup = f"w = torch.empty({sh}, dtype=torch.{dt})\n"
    return setup + f"nn.init.{k}(w{args}{G(r, 0.15)})\n" + P("w")


def f_dist(r):
    n = r.choice([1, 3, 16, 17])
    dt = r.choice(["float32", "float64"])
    t = f"torch.rand({n}, dtype=torch.{dt})"
    tpos = f"(torch.rand({n}, dtype=torch.{dt}) + 0.5)"
    D = r.choice(
        [
            f"D.Normal({t}, {tpos})",
            f"D.Uniform(torch.zeros({n}, dtype=torch.{dt}), {tpos})",
            f"D.Bernoulli(probs={t})",
            f"D.Categorical(probs={tpos})",
            f"D.Exponential({tpos})",
            f"D.Laplace({t}, {tpos})",
            f"D.Cauchy({t}, {tpos})",
            f"D.LogNormal({t}, {tpos})",
            f"D.Poisson({tpos} * 4)",
            f"D.Gamma({tpos}, {tpos})",
            f"D.Beta({tpos}, {tpos})",
            f"D.Dirichlet({tpos})",
            f"D.StudentT({tpos} * 3)",
            f"D.HalfNormal({tpos})",
            f"D.Geometric({t} * 0.9 + 0.05)",
            f"D.OneHotCategorical({tpos})",
            f"D.Chi2({tpos})",
            f"D.MultivariateNormal(torch.zeros(3, dtype=torch.{dt}), scale_tril=torch.eye(3, dtype=torch.{dt}) * 2)",
        ]
    )
    ss = r.choice(["", "(2,)", "(3, 2)", "torch.Size([5])"])
    m = r.choice(["sample", "rsample"])
    src = f"d = {D}\n"
    body = f"d.{m}({ss})"
    if m == "rsample" and any(
        s in D for s in ("Bernoulli", "Categorical", "Poisson", "Geometric", "OneHot")
    ):
        body = f"d.sample({ss})"
    return src + P(body)


def f_state(r):
    k = r.randrange(5)
    inner = stmt(r, no_state=True)
    if k == 0:
        return "s = torch.get_rng_state()\n" + inner + "torch.set_rng_state(s)\n" + inner
    if k == 1:
        return "s = g.get_state()\n" + inner + "g.set_state(s)\n" + inner
    if k == 2:
        return (
            "with torch.random.fork_rng():\n    torch.manual_seed(5)\n    print(torch.rand(3).tolist())\n"
            + inner
        )
    if k == 3:
        return (
            "s = torch.get_rng_state()\nprint(s.shape, s.dtype, s[:8].tolist())\ng.set_state(s)\n"
            + inner
        )
    return f"torch.manual_seed({seed_of(r)})\nprint(torch.initial_seed())\n" + inner


FAMILIES = [
    (f_rand, 4),
    (f_like, 3),
    (f_randint, 3),
    (f_random_, 3),
    (f_inplace, 6),
    (f_randperm, 2),
    (f_multinomial, 3),
    (f_bernoulli, 2),
    (f_normal, 3),
    (f_dropout, 3),
    (f_module, 3),
    (f_init, 4),
    (f_dist, 3),
    (f_state, 2),
]
_W = [w for _, w in FAMILIES]


def stmt(r, no_state=False):
    while True:
        ((f, _),) = r.choices(FAMILIES, weights=_W)
        if no_state and f is f_state:
            continue
        return f(r)


def program(r):
    src = "import math\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\nimport torch.distributions as D\n"
    src += f"torch.manual_seed({seed_of(r)})\n"
    src += f"g = torch.Generator().manual_seed({r.randrange(0, 2**64)})\n"
    for _ in range(r.randint(1, 4)):
        src += stmt(r)
    src += "print(torch.rand(2).tolist(), torch.randn(2, dtype=torch.float64).tolist(), torch.rand(1, generator=g).tolist())\n"
    return src


def programs(count, seed):
    r = random.Random(seed)
    return [program(r) for _ in range(count)]


# --- second wave: corners the first families do not reach --------------------------------------


def f_scalar_shapes(r):
    k = r.randrange(8)
    if k == 0:
        return P(f"torch.rand(()){''}") + P("torch.randn([])")
    if k == 1:
        return P(f"torch.randn(size=({r.choice(SMALL)}, {r.choice(SMALL)}){G(r)})")
    if k == 2:
        return P(f"torch.rand(torch.Size([{r.choice(SMALL)}, 3]), dtype=torch.float64)")
    if k == 3:
        return f"x = torch.rand(({r.choice(SMALL)}, 2), requires_grad=True)\nprint(x.requires_grad, x.tolist())\n"
    if k == 4:
        return P(f"torch.randint(3, 10, torch.Size([{r.choice(SIZES)}]){G(r)})")
    if k == 5:
        return P(
            f"torch.randint_like(torch.zeros({r.choice(SMALL)}, 3), 5, dtype=torch.{r.choice(['int32', 'int64', 'float64'])})"
        )
    if k == 6:
        return (
            f"t = torch.zeros(({r.choice(SMALL)}, 4), dtype=torch.float64)\n"
            + P("t.new_empty((3, 5)).normal_()")
            + P("torch.empty_like(t).uniform_(-1, 1)")
        )
    return P(
        f"torch.empty(()).{r.choice(['normal_()', 'uniform_()', 'exponential_()', 'cauchy_()', 'log_normal_()', 'geometric_(0.3)', 'bernoulli_(0.5)', 'random_(7)'])}"
    )


def f_half_big(r):
    dt = r.choice(["float16", "float64", "float32"])
    n = r.choice([16, 17, 31, 32, 33, 1000, 4097, 10000])
    fn = r.choice(
        [
            "normal_()",
            "uniform_(-3, 3)",
            "exponential_(2.0)",
            "cauchy_()",
            "log_normal_(0, 0.5)",
            "geometric_(0.2)",
            "bernoulli_(0.3)",
            "random_(-5, 5)",
            "random_()",
        ]
    )
    setup, x = (
        view(r, dt) if r.random() < 0.5 else (f"x = torch.empty({n}, dtype=torch.{dt})\n", "x")
    )
    return setup + f"{x}.{fn}\n" + P(x)


def f_bern_broadcast(r):
    m, n = r.choice([1, 2, 3, 16, 17]), r.choice([1, 4, 16, 33])
    dt = r.choice(["float32", "float64", "float16"])
    pdt = r.choice(["float32", "float64"])
    k = r.randrange(4)
    if k == 0:
        return (
            f"x = torch.empty({m}, {n}, dtype=torch.{dt})\np = torch.rand(1, {n}, dtype=torch.{pdt})\nx.bernoulli_(p{G(r)})\n"
            + P("x")
        )
    if k == 1:
        return (
            f"x = torch.empty({n}, {m}, dtype=torch.{dt}).t()\np = torch.rand({m}, {n}, dtype=torch.{pdt})\nx.bernoulli_(p)\n"
            + P("x")
        )
    if k == 2:
        return f"x = torch.rand({n}, {m}, dtype=torch.{dt}).t()\n" + P(f"torch.bernoulli(x{G(r)})")
    return f"x = torch.rand({n}, {m}, dtype=torch.{dt})[::2]\n" + P(
        f"torch.bernoulli(x, p={r.choice([0.2, 0.5, 0.9])})"
    )


def f_multinomial2(r):
    rows, n = r.choice([2, 3, 4]), r.choice([3, 5, 17, 40])
    dt = r.choice(["float32", "float64", "float16"])
    k = r.randrange(4)
    if k == 0:
        src = f"w = torch.rand({n}, {rows}, dtype=torch.{dt}).t()\n"
    elif k == 1:
        src = f"w = torch.rand({rows}, {n * 2}, dtype=torch.{dt})[:, ::2]\n"
    elif k == 2:
        src = f"w = torch.zeros({rows}, {n}, dtype=torch.{dt})\nw[:, {r.randrange(n)}] = 1\n"
    else:
        src = f"w = torch.rand({rows}, {n}, dtype=torch.{dt}) ** 8\n"
    repl = r.random() < 0.5
    kk = r.choice([1, 2, 5, 30]) if repl else r.randint(1, 1 if k == 2 else n)
    return (
        src
        + P(f"torch.multinomial(w, {kk}, replacement={repl}{G(r)})")
        + P(f"w.multinomial({min(kk, 1)})")
    )


def f_normal2(r):
    dt = r.choice(["float32", "float64"])
    k = r.randrange(5)
    if k == 0:
        return (
            f"m = torch.rand(20, 3, dtype=torch.{dt}).t()\ns = torch.rand(3, 20, dtype=torch.{dt})\n"
            + P("torch.normal(m, s)")
        )
    if k == 1:
        return f"m = torch.zeros(4, 5, dtype=torch.{dt}, requires_grad=True)\ny = torch.normal(m, 1.0)\nprint(y.requires_grad, y.tolist())\n"
    if k == 2:
        return P(
            f"torch.normal(torch.tensor(0.5, dtype=torch.{dt}), torch.tensor(2.0, dtype=torch.{dt}))"
        )
    if k == 3:
        return (
            f"o = torch.empty(7, 3, dtype=torch.{dt}).t()\ntorch.normal(0.0, 2.0, size=(3, 7), out=o)\n"
            + P("o")
        )
    return P(
        f"torch.normal(torch.rand(17, dtype=torch.{dt})[::2], torch.ones(9, dtype=torch.{dt}){G(r)})"
    )


def f_random_family(r):
    k = r.randrange(7)
    dt = r.choice(["float32", "float64"])
    if k == 0:
        return f"x = torch.randn(3, {r.choice([5, 17, 40])}, dtype=torch.{dt})\n" + P(
            f"F.gumbel_softmax(x, tau={r.choice([0.5, 1.0])}, hard={r.choice([True, False])})"
        )
    if k == 1:
        return f"x = torch.randn({r.choice([5, 17, 40])}, dtype=torch.{dt})\n" + P(
            "F.rrelu(x, training=True)"
        )
    if k == 2:
        return (
            f"m = nn.RReLU(0.1, 0.3)\nx = torch.randn(4, {r.choice([3, 16, 17])}, dtype=torch.{dt})\n"
            + P("m(x)")
        )
    if k == 3:
        return P(
            f"torch.poisson(torch.tensor([0.0, 0.5, 3.0, 9.9, 10.0, 25.0, 1000.0], dtype=torch.{dt}){G(r)})"
        )
    if k == 4:
        return (
            f"x = torch.rand(6, 5, dtype=torch.{dt}, requires_grad=True)\ny = F.dropout(x, 0.4)\ny.sum().backward()\n"
            + P("x.grad")
        )
    if k == 5:
        return "ds = torch.utils.data.TensorDataset(torch.arange(20.0))\na, b = torch.utils.data.random_split(ds, [0.7, 0.3])\nprint(list(a.indices), list(b.indices))\n"
    return f"dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.arange({r.choice([7, 20, 33])}.0)), batch_size=4, shuffle=True)\nfor (xb,) in dl:\n    print(xb.tolist())\n"


def f_modules2(r):
    a, b = r.randint(1, 6), r.randint(1, 6)
    e = 2 * r.randint(1, 3)
    tpl = r.choice(
        [
            "nn.MultiheadAttention({e}, 2, bias=False)",
            "nn.MultiheadAttention({e}, 2, add_bias_kv=True)",
            "nn.TransformerEncoder(nn.TransformerEncoderLayer({e}, 2, dim_feedforward=8), num_layers=2)",
            "nn.Conv1d({a}, {b}, 3, padding=1, bias=False)",
            "nn.Conv2d({a}, {b}, (2, 3), dilation=2)",
            "nn.ConvTranspose2d({e}, {e}, 3, groups=2)",
            "nn.ConvTranspose1d({a}, {b}, 2, stride=2)",
            "nn.RNN({a}, {b}, nonlinearity='relu', bias=False)",
            "nn.GRU({a}, {b}, bidirectional=True)",
            "nn.LSTM({a}, {b}, num_layers=3)",
            "nn.Bilinear({a}, {b}, 2, bias=False)",
            "nn.BatchNorm2d({a})",
            "nn.LayerNorm([{a}, {b}])",
            "nn.Embedding({a}, {b}, max_norm=1.0)",
            "nn.EmbeddingBag({a}, {b}, mode='sum')",
            "nn.Transformer({e}, 2, 1, 1, 8)",
            "nn.TransformerDecoder(nn.TransformerDecoderLayer({e}, 2, 8), 2)",
        ]
    )
    src = "m = " + tpl.format(a=a, b=b, e=e) + "\n"
    return src + "for n_, p_ in m.named_parameters():\n    print(n_, p_.tolist())\n"


def f_randperm_big(r):
    n = r.choice([2**24 - 1, 2**24, 2**24 + 1, 2**20 + 3])
    dt = r.choice(["", ", dtype=torch.float32", ", dtype=torch.int32"])
    return f"q = torch.randperm({n}{dt})\nprint(q[:8].tolist(), q[-4:].tolist(), int((q.double() * torch.arange({n}, dtype=torch.float64).remainder(1013)).sum().item()))\n"


FAMILIES += [
    (f_scalar_shapes, 3),
    (f_half_big, 3),
    (f_bern_broadcast, 3),
    (f_multinomial2, 3),
    (f_normal2, 3),
    (f_random_family, 4),
    (f_modules2, 4),
]
if os.environ.get("RNG12_BIG"):
    FAMILIES.append((f_randperm_big, 2))
_W[:] = [w for _, w in FAMILIES]


def run_torch(source: str) -> tuple[str, bool]:
    import contextlib
    import io
    import warnings

    import torch

    torch.set_default_dtype(torch.float32)
    out = io.StringIO()
    failed = False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with contextlib.redirect_stdout(out):
            try:
                exec(compile(source, "<program>", "exec"), {"__name__": "__main__"})
            except Exception:
                failed = True
    return out.getvalue(), failed


def run_gradcli(source: str) -> tuple[str, bool]:
    from gradcli.lang.program import parse

    pieces: list[str] = []
    try:
        parse(source, "program.py").run(dtype="float32", echo=pieces.append)
    except Exception:
        return "".join(pieces), True
    return "".join(pieces), False


def main(argv: list[str]) -> int:
    import sys

    count, seed = int(argv[0]), int(argv[1])
    cases = programs(count, seed)
    differ = [i for i, src in enumerate(cases) if run_torch(src) != run_gradcli(src)]
    print(f"{count} programs (seed {seed}), {count - len(differ)} printed PyTorch's text")
    for i in differ[:5]:
        sys.stdout.write("--- differs:\n" + cases[i])
    return 1 if differ else 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
