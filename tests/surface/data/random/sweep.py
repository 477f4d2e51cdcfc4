# ruff: noqa: E501 - generated programs are written as users write them
"""A sweep of random programs that draw PyTorch's random numbers, for issue 11's bar ("a hidden
set of seeds, sizes and functions matches PyTorch bit for bit"): seeds (0, 1, 42, 1234,
2**31 - 1, 2**32 + 5, 2**63 - 1, negative), sizes 0 to 4097, 1-D and 2-D targets (transposed,
sliced, narrowed), float32/float64/float16 and integer dtypes, generator objects, state
save/restore, fork_rng, out=, several draws per program, every sampler, dropout and nn.init.
Each program prints `.tolist()` (every bit) and ends with draws from both generators, so a
draw that consumed the wrong number of words shows.

`python tests/surface/data/random/sweep.py N SEED` (with torch and gradcli's dependencies
installed) runs N programs under both and prints how many printed the same text;
tests/surface/test_random_sweep.py runs a few hundred when torch is installed. Needs only the
standard library to generate.
"""

from __future__ import annotations

import contextlib
import io
import random
import sys
from typing import Any

SEEDS = [0, 1, 42, 1234, 2**31 - 1, 2**32 + 5, 2**63 - 1, -7, 7, 99999]
SIZES = [0, 1, 2, 7, 15, 16, 17, 31, 32, 33, 100, 1000, 4097]
FDT = ["float32", "float64", "float16"]
IDT = ["int64", "int32", "int16", "int8", "uint8"]


def shape(r):
    n = r.choice(SIZES)
    if r.random() < 0.5:
        return (n,)
    a = r.choice([1, 2, 3, 4, 5, 8, 16, 17])
    return (a, max(1, n // a) if n else 0)


def target(r, dt, allow_int=False):
    """(source of an in-place target, description)."""
    sh = shape(r)
    kind = r.choice(["plain", "t", "slice", "col", "plain"])
    if len(sh) == 1:
        if kind in ("t", "col"):
            kind = "slice"
    base = f"torch.empty({sh}, dtype=torch.{dt})"
    if kind == "plain":
        return base
    if kind == "t":
        return f"torch.empty({sh[::-1]}, dtype=torch.{dt}).t()"
    if kind == "slice":
        if len(sh) == 1:
            return f"torch.empty({(sh[0] * 2,)}, dtype=torch.{dt})[::2]"
        return f"torch.empty({(sh[0], sh[1] * 2 + 1)}, dtype=torch.{dt})[:, 1::2]"
    return f"torch.empty({(sh[0], sh[1] + 3)}, dtype=torch.{dt})[:, 2:{2 + sh[1]}]"


def gen_kw(r):
    return ", generator=g" if r.random() < 0.25 else ""


def stmt(r):
    f = r.choice(FAMILIES)
    return f(r)


def p(expr):
    return f"print({expr}.tolist())"


def f_rand(r):
    fn = r.choice(["rand", "randn"])
    dt = r.choice(FDT)
    sh = shape(r)
    return p(f"torch.{fn}({sh}, dtype=torch.{dt}{gen_kw(r)})")


def f_rand_varargs(r):
    fn = r.choice(["rand", "randn"])
    sh = shape(r)
    return p(f"torch.{fn}({', '.join(map(str, sh))})")


def f_like(r):
    fn = r.choice(["rand_like", "randn_like"])
    dt = r.choice(FDT + ["int64"])
    t = target(r, dt)
    extra = r.choice(["", ", dtype=torch.float64", ""])
    return f"x = torch.zeros_like({t})\n" + p(f"torch.{fn}(x{extra})")


def f_randint(r):
    lo = r.choice([0, -5, -(2**40), 3, -(2**62), -(2**31)])
    hi = lo + r.choice([1, 2, 10, 2**31, 2**32, 2**32 + 1, 2**33, 2**50, 2**62])
    sh = shape(r)
    dt = r.choice(["", "", ", dtype=torch.int32", ", dtype=torch.float32", ", dtype=torch.float64"])
    if r.random() < 0.3:
        return p(f"torch.randint({hi if hi > 0 else 5}, {sh}{dt}{gen_kw(r)})")
    return p(f"torch.randint({lo}, {hi}, {sh}{dt}{gen_kw(r)})")


def f_randint_like(r):
    dt = r.choice(FDT + IDT)
    t = target(r, dt)
    if r.random() < 0.5:
        return f"x = torch.zeros_like({t})\n" + p(
            f"torch.randint_like(x, {r.choice([3, 100, 2**20])})"
        )
    return f"x = torch.zeros_like({t})\n" + p(
        f"torch.randint_like(x, -3, {r.choice([3, 100, 120])})"
    )


def f_randperm(r):
    n = r.choice(SIZES + [20000, 70000, 200000])
    dt = r.choice(["", ", dtype=torch.int32", ", dtype=torch.float64", ""])
    if n > 5000:
        return (
            f"q = torch.randperm({n}{dt}{gen_kw(r)}).long()\n"
            f"print((q * torch.arange({n})).sum().item(), q[:5].tolist(), q[-5:].tolist())"
        )
    return p(f"torch.randperm({n}{dt}{gen_kw(r)})")


def f_normal(r):
    k = r.randrange(6)
    dt = r.choice(["float32", "float64"])
    sh = shape(r)
    if k == 0:
        return p(
            f"torch.normal(torch.ones({sh}, dtype=torch.{dt}) * 2, torch.full({sh}, 0.5, dtype=torch.{dt}){gen_kw(r)})"
        )
    if k == 1:
        return p(f"torch.normal(torch.arange({sh[-1]}, dtype=torch.{dt}), 2.0{gen_kw(r)})")
    if k == 2:
        return p(
            f"torch.normal(1.5, torch.linspace(0.1, 3, {sh[-1]}, dtype=torch.{dt}){gen_kw(r)})"
        )
    if k == 3:
        return p(f"torch.normal(0.5, 2.0, size={sh}{gen_kw(r)})")
    if k == 4:
        return p(f"torch.normal(-1.0, 0.25, {sh}, dtype=torch.{dt})")
    return p(
        f"torch.normal(torch.zeros(3, 1, dtype=torch.{dt}), torch.ones(3, {sh[-1] or 1}, dtype=torch.{dt}))"
    )


def f_inplace(r):
    op = r.choice(
        [
            "uniform_",
            "normal_",
            "exponential_",
            "geometric_",
            "cauchy_",
            "log_normal_",
            "bernoulli_",
            "random_",
            "random_",
            "random_",
        ]
    )
    if op == "random_":
        dt = r.choice(FDT + IDT)
        args = r.choice(["", "10", "-3, 3", "0, 2**40", "-2**33, 2**33", "200", "None"])
        if args == "None":
            args = "0, None"
        if args == "10" and r.random() < 0.5:
            args = "to=10"
    else:
        dt = r.choice(FDT)
        args = {
            "uniform_": r.choice(["", "-2, 3", "0.5, 0.5001"]),
            "normal_": r.choice(["", "3, 0.1", "0, 1e-3"]),
            "exponential_": r.choice(["", "0.3", "5"]),
            "geometric_": r.choice(["0.3", "0.9", "0.01"]),
            "cauchy_": r.choice(["", "1, 3"]),
            "log_normal_": r.choice(["", "0, 0.5"]),
            "bernoulli_": r.choice(["", "0.3", "torch.tensor(0.7)"]),
        }[op]
    gk = gen_kw(r)
    if gk and args == "":
        gk = gk.lstrip(", ")
    t = target(r, dt)
    return f"x = {t}\nx.{op}({args}{gk})\n" + p("x")


def f_bernoulli(r):
    dt = r.choice(["float32", "float64"])
    t = target(r, dt)
    k = r.randrange(4)
    if k == 0:
        return f"x = {t}\nx.uniform_()\n" + p(f"torch.bernoulli(x{gen_kw(r)})")
    if k == 1:
        return f"x = {t}\n" + p(f"torch.bernoulli(x, {r.choice([0.1, 0.5, 0.99])})")
    if k == 2:
        return f"x = {t}\nx.fill_(0.3)\n" + p("x.bernoulli()")
    return f"x = {t}\nx.uniform_()\n" + p("torch.zeros_like(x).bernoulli_(x)")


def f_multinomial(r):
    ncat = r.choice([1, 2, 3, 7, 16, 100, 1000, 5000])
    rows = r.choice([None, 1, 3])
    dt = r.choice(["float32", "float64"])
    rep = r.random() < 0.5
    k = r.choice([1, 2, 5, 50]) if rep else min(r.choice([1, 2, 5, 50]), ncat)
    src = f"torch.rand({ncat if rows is None else (rows, ncat)}, dtype=torch.{dt})"
    if r.random() < 0.3:
        src = f"({src} > 0.5).to(torch.{dt}) + 0.01"
    if r.random() < 0.2 and rows:
        src = f"torch.rand(({ncat}, {rows}), dtype=torch.{dt}).t()"
    return f"w = {src}\n" + p(f"torch.multinomial(w, {k}, {rep}{gen_kw(r)})")


def f_poisson(r):
    dt = r.choice(["float32", "float64"])
    sh = shape(r)
    scale = r.choice([0.5, 5, 20, 500])
    return f"lam = torch.rand({sh}, dtype=torch.{dt}) * {scale}\n" + p(
        f"torch.poisson(lam{gen_kw(r)})"
    )


def f_dropout(r):
    dt = r.choice(["float32", "float64"])
    t = target(r, dt)
    pp = r.choice([0.0, 0.1, 0.5, 0.9, 1.0])
    k = r.randrange(7)
    pre = (
        f"x = {t}\nx.copy_((torch.arange(x.numel(), dtype=torch.{dt}).reshape(x.shape) % 7 - 3) / 4)\n"
        if r.random() < 0.5
        else f"x = torch.randn({shape(r)}, dtype=torch.{dt})\n"
    )
    if k == 0:
        return pre + p(f"F.dropout(x, {pp})")
    if k == 1:
        return pre + p(f"F.alpha_dropout(x, {pp}, True)")
    if k == 2:
        return (
            pre
            + "x = x.reshape(1, -1, 1) if x.dim() == 1 else x.unsqueeze(0)\n"
            + p(f"F.dropout1d(x, {pp})")
        )
    if k == 3:
        return pre + "x = x.reshape(1, 1, -1, 1)\n" + p(f"F.dropout2d(x, {pp})")
    if k == 4:
        return pre + f"m = nn.Dropout2d({pp})\n" + "x = x.reshape(1, -1, 1, 1)\n" + p("m(x)")
    if k == 5:
        return pre + f"m = nn.Dropout({pp})\n" + p("m(x)")
    return pre + "x = x.reshape(1, -1, 1, 1)\n" + p(f"F.feature_alpha_dropout(x, {pp}, True)")


def f_init(r):
    dt = r.choice(["float32", "float64"])
    sh = r.choice([(3, 4), (16, 17), (7,), (100, 33), (4, 3, 2, 2), (33, 100), (1, 5), (5, 1)])
    k = r.randrange(13)
    t = f"torch.empty({sh}, dtype=torch.{dt})"
    if k in (0, 1) and len(sh) < 2:
        sh = (3, 4)
        t = f"torch.empty({sh}, dtype=torch.{dt})"
    calls = [
        f"nn.init.kaiming_uniform_({t}, a={r.choice([0, 0.01, 5**0.5])}, mode='{r.choice(['fan_in', 'fan_out'])}', nonlinearity='{r.choice(['leaky_relu', 'relu', 'tanh', 'linear', 'sigmoid', 'selu'])}')",
        f"nn.init.kaiming_normal_({t}, mode='{r.choice(['fan_in', 'fan_out'])}', nonlinearity='{r.choice(['leaky_relu', 'relu', 'tanh'])}')",
        f"nn.init.xavier_uniform_({t}, gain={r.choice([1.0, 2.0])})",
        f"nn.init.xavier_normal_({t})",
        f"nn.init.uniform_({t}, -0.1, 0.1)",
        f"nn.init.normal_({t}, 0.0, 0.02)",
        f"nn.init.trunc_normal_({t}, std={r.choice([0.02, 1.0, 0.5])}, a={r.choice([-2.0, -1.0, -0.5])}, b={r.choice([2.0, 1.0, 0.3])})",
        f"nn.init.trunc_normal_({t})",
        f"nn.init.sparse_(torch.empty({sh[:1] + (5,)}, dtype=torch.{dt}), {r.choice([0.1, 0.5, 0.9])}, std={r.choice([0.01, 1.0])})",
        f"nn.init.eye_(torch.empty({(sh + (3,))[:2]}, dtype=torch.{dt}))",
        f"nn.init.dirac_(torch.empty((4, 2, 3, 3), dtype=torch.{dt}))",
        f"nn.init.constant_({t}, 0.3)",
        f"nn.init.zeros_({t})",
    ]
    return p(calls[k])


def f_state(r):
    k = r.randrange(4)
    if k == 0:
        return "s = torch.get_rng_state()\na = torch.rand(5)\ntorch.set_rng_state(s)\n" + p(
            "(torch.rand(5) - a)"
        )
    if k == 1:
        return (
            "s = g.get_state()\na = torch.randn(17, generator=g)\ng.set_state(s)\n"
            + p("torch.randn(17, generator=g)")
            + "\nprint(g.initial_seed())"
        )
    if k == 2:
        return "print(torch.initial_seed())\nprint(torch.get_rng_state()[:8].tolist(), torch.get_rng_state()[-8:].tolist())"
    return "torch.random.manual_seed(3)\n" + p("torch.rand(2)")


def f_modules(r):
    k = r.randrange(5)
    mods = [
        "nn.Linear(5, 3)",
        "nn.Conv2d(2, 3, 3)",
        "nn.Embedding(10, 4)",
        "nn.LSTM(3, 4)",
        "nn.Bilinear(2, 3, 4)",
    ]
    return f"m = {mods[k]}\nfor prm in m.parameters():\n    print(prm.tolist())"


FAMILIES = [
    f_rand,
    f_rand,
    f_rand_varargs,
    f_like,
    f_randint,
    f_randint,
    f_randint_like,
    f_randperm,
    f_normal,
    f_normal,
    f_inplace,
    f_inplace,
    f_inplace,
    f_bernoulli,
    f_multinomial,
    f_multinomial,
    f_poisson,
    f_dropout,
    f_dropout,
    f_init,
    f_init,
    f_state,
    f_modules,
]


def wrap(s):
    body = "\n".join("    " + line for line in s.splitlines())
    return (
        f"try:\n{body}\nexcept Exception as e:\n    print('ERR', type(e).__name__, str(e)[:150])\n"
    )


def case(r):
    seed = r.choice(SEEDS)
    gseed = r.choice(SEEDS)
    head = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
    head += f"torch.manual_seed({seed})\ng = torch.Generator().manual_seed({gseed})\n"
    body = "".join(wrap(stmt(r)) for _ in range(r.randint(1, 4)))
    return head + body + "print(torch.rand(3).tolist(), torch.rand(2, generator=g).tolist())\n"


def f_fork(r):
    inner = stmt(r).replace("\n", "\n    ")
    return f"with torch.random.fork_rng():\n    {inner}\n" + p("torch.rand(3)")


def f_out(r):
    fn = r.choice(["rand", "randn"])
    dt = r.choice(["float32", "float64"])
    sh = shape(r)
    return f"o = torch.empty({sh}, dtype=torch.{dt})\ntorch.{fn}({sh}, out=o)\n" + p("o")


def f_misc(r):
    k = r.randrange(12)
    sh = shape(r)
    dt = r.choice(FDT)
    if k == 0:
        return (
            f"x = torch.randn({sh}, requires_grad=True)\n"
            + p("x.detach()")
            + "\nprint(x.requires_grad)"
        )
    if k == 1:
        return f"x = torch.zeros(3, dtype=torch.{dt}).new_empty({sh}).uniform_(-1, 1)\n" + p("x")
    if k == 2:
        return f"x = torch.empty({sh}, dtype=torch.bool).random_()\n" + p("x")
    if k == 3:
        return p(f"torch.randint(high={r.choice([2, 7, 1000])}, size={sh}{gen_kw(r)})")
    if k == 4:
        return p(f"torch.randint(0, 2, {sh}, dtype=torch.bool)")
    if k == 5:
        return (
            f"x = torch.ones({sh}, dtype=torch.float32)\nF.dropout(x, 0.3, training=True, inplace=True)\n"
            + p("x")
        )
    if k == 6:
        return (
            f"w = torch.empty({(sh[0] + 1, 5)}, dtype=torch.{dt})\nnn.init.uniform_(w.t(), -1, 1)\n"
            + p("w")
        )
    if k == 7:
        return f"x = torch.empty({sh}, dtype=torch.{dt})\nx.normal_(generator=g)\n" + p("x")
    if k == 8:
        return (
            p(f"torch.rand({sh}, dtype=torch.{dt}, generator=g)")
            + "\n"
            + p(f"torch.randn({sh}, generator=g)")
        )
    if k == 9:
        return (
            f"x = torch.empty({sh}, dtype=torch.{dt})\nx.random_(0, 2**{r.choice([3, 11, 24, 53])})\n"
            + p("x")
        )
    if k == 10:
        return p(
            f"torch.bernoulli(torch.full({sh}, {r.choice([0.0, 1.0, 0.5])}, dtype=torch.{dt}){gen_kw(r)})"
        )
    return p(f"torch.randn({sh}, dtype=torch.{dt}).uniform_(2, 3)")


FAMILIES += [f_fork, f_out, f_misc, f_misc, f_misc]


def programs(count: int, seed: int) -> list[str]:
    r = random.Random(seed)
    return [case(r) for _ in range(count)]


def run_torch(source: str) -> str:
    """The program's standard output (and exceptions' text) under PyTorch, in this process."""
    import warnings

    import torch

    torch.set_default_dtype(torch.float32)
    out = io.StringIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with contextlib.redirect_stdout(out):
            try:
                exec(compile(source, "<program>", "exec"), {"__name__": "__main__"})
            except Exception as e:
                print("TOPERR", type(e).__name__, e)
    return out.getvalue()


def run_gradcli(source: str) -> str:
    from gradcli.lang.program import parse

    try:
        return "".join(parse(source, "program.py").run(dtype="float32").output)
    except Exception as e:  # a refused program differs from PyTorch's output: counted
        return f"GRADCLI {type(e).__name__} {e}"


def main(argv: list[str]) -> Any:
    count, seed = int(argv[0]), int(argv[1])
    differ = []
    cases = programs(count, seed)
    for i, src in enumerate(cases):
        if run_torch(src) != run_gradcli(src):
            differ.append(i)
    print(f"{count} programs (seed {seed}), {count - len(differ)} printed PyTorch's text")
    for i in differ[:5]:
        print("--- differs:\n" + cases[i])
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
