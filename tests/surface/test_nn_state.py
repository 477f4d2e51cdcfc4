"""What the neural-network tutorials lean on besides the layers: load_state_dict and its report,
state_dict as an OrderedDict, Module.apply's order, ReduceLROnPlateau's rules, a range as an
index, NumPy's elementwise functions on lists, `in` on module containers, and the float32
kernels whose rounding order follows PyTorch's (nn.Linear's product, softmax, log_softmax).
Each program's expected text follows from PyTorch's documented behaviour (the corpus programs
350-399 check the same against recorded PyTorch output)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse
from gradcli.ops import linalg as L
from gradcli.ops import reduction as R
from gradcli.surface import nn as N
from gradcli.surface import optim as O


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def test_load_state_dict_copies_in_place_and_reports_all_keys_matched() -> None:
    got = out(
        "import torch\nfrom torch import nn\ntorch.manual_seed(0)\n"
        "a = nn.Linear(3, 2)\nb = nn.Linear(3, 2)\nw = b.weight\n"
        "opt = torch.optim.SGD(b.parameters(), lr=0.1)\n"
        "print(b.load_state_dict(a.state_dict()))\n"
        "print(w is b.weight, torch.equal(a.weight, b.weight), b.weight.requires_grad)\n"
        "print(opt.param_groups[0]['params'][0] is b.weight)\n"
    )
    assert got == "<All keys matched successfully>\nTrue True True\nTrue\n"


def test_load_state_dict_missing_unexpected_and_size_mismatch_in_pytorchs_words() -> None:
    got = out(
        "import torch\nfrom torch import nn\n"
        "big = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))\n"
        "small = nn.Sequential(nn.Linear(3, 4))\n"
        "r = small.load_state_dict(big.state_dict(), strict=False)\n"
        "print(r.missing_keys, r.unexpected_keys)\n"
        "print(r)\n"
        "r = big.load_state_dict({'0.weight': torch.zeros(4, 3)}, strict=False)\n"
        "print(r)\n"
        "try:\n    small.load_state_dict(big.state_dict())\n"
        "except RuntimeError as e:\n    print(e)\n"
        "try:\n    small.load_state_dict({'0.weight': torch.zeros(2, 3), 'x': 1})\n"
        "except RuntimeError as e:\n    print(e)\n"
    )
    assert got.split("\n") == [
        "[] ['2.weight', '2.bias']",
        "_IncompatibleKeys(missing_keys=[], unexpected_keys=['2.weight', '2.bias'])",
        "_IncompatibleKeys(missing_keys=['0.bias', '2.weight', '2.bias'], unexpected_keys=[])",
        "Error(s) in loading state_dict for Sequential:",
        '\tUnexpected key(s) in state_dict: "2.weight", "2.bias". ',
        "Error(s) in loading state_dict for Sequential:",
        '\tMissing key(s) in state_dict: "0.bias". ',
        '\tUnexpected key(s) in state_dict: "x". ',
        "\tsize mismatch for 0.weight: copying a param with shape torch.Size([2, 3]) from "
        "checkpoint, the shape in current model is torch.Size([4, 3]).",
        "",
    ]


def test_a_failed_load_changes_nothing() -> None:
    m = N.Sequential(N.Linear(2, 2), N.Linear(2, 1))
    before = [p.data.copy() for p in m.parameters()]
    bad = m.state_dict()
    bad["1.weight"] = N.Parameter(np.zeros((3, 3), np.float32))
    bad["0.weight"] = N.Parameter(np.ones((2, 2), np.float32))
    with pytest.raises(GradcliError, match="size mismatch for 1.weight"):
        m.load_state_dict(bad)
    assert all(np.array_equal(a, p.data) for a, p in zip(before, m.parameters()))
    with pytest.raises(GradcliError, match="Expected state_dict to be dict-like, got <class"):
        m.load_state_dict([1, 2])


def test_state_dict_is_an_ordered_dict_printed_as_python_does() -> None:
    got = out(
        "import torch\nfrom torch import nn\nm = nn.Linear(1, 1)\n"
        "with torch.no_grad():\n    m.weight.fill_(2.0)\n    m.bias.zero_()\n"
        "print(m.state_dict())\nprint(type(m.state_dict()).__name__)\n"
        "from collections import OrderedDict\nprint(OrderedDict(), OrderedDict([('a', 1)]))\n"
    )
    import sys

    if sys.version_info >= (3, 12):
        first = "OrderedDict({'weight': tensor([[2.]]), 'bias': tensor([0.])})"
        last = "OrderedDict() OrderedDict({'a': 1})"
    else:
        first = "OrderedDict([('weight', tensor([[2.]])), ('bias', tensor([0.]))])"
        last = "OrderedDict() OrderedDict([('a', 1)])"
    assert got == f"{first}\nOrderedDict\n{last}\n"


def test_sequential_takes_an_ordered_dict_and_names_its_layers() -> None:
    got = out(
        "from collections import OrderedDict\nimport torch.nn as nn\n"
        "m = nn.Sequential(OrderedDict([('fc', nn.Linear(2, 3)), ('act', nn.ReLU())]))\n"
        "print(m)\nprint(m.fc is m[0], 'act' in dict(m.named_children()))\n"
    )
    assert got == (
        "Sequential(\n  (fc): Linear(in_features=2, out_features=3, bias=True)\n"
        "  (act): ReLU()\n)\nTrue True\n"
    )


def test_apply_visits_children_before_parents_in_order() -> None:
    got = out(
        "import torch.nn as nn\nseen = []\n"
        "m = nn.Sequential(nn.Linear(1, 1), nn.Sequential(nn.ReLU(), nn.Tanh()), nn.Sigmoid())\n"
        "m.apply(lambda x: seen.append(type(x).__name__))\nprint(seen)\n"
    )
    assert got == "['Linear', 'ReLU', 'Tanh', 'Sequential', 'Sigmoid', 'Sequential']\n"


def test_in_on_module_containers() -> None:
    got = out(
        "import torch.nn as nn\nd = nn.ModuleDict({'relu': nn.ReLU()})\nr = nn.ReLU()\n"
        "s = nn.Sequential(r)\nprint('relu' in d, 'tanh' in d, r in s, nn.ReLU() in s)\n"
    )
    assert got == "True False True False\n"


def test_a_range_indexes_as_the_list_of_its_integers() -> None:
    got = out(
        "import torch\nx = torch.arange(12.).reshape(3, 4)\nt = torch.tensor([3, 0, 2])\n"
        "print(x[range(3), t])\nprint(x[range(3), t].equal(x[[0, 1, 2], t]))\n"
        "print(x[range(2, 0, -1)])\nprint(x[range(0)].shape)\n"
    )
    assert got == (
        "tensor([ 3.,  4., 10.])\nTrue\n"
        "tensor([[ 8.,  9., 10., 11.],\n        [ 4.,  5.,  6.,  7.]])\ntorch.Size([0, 4])\n"
    )


def test_numpy_elementwise_on_lists_and_tuples() -> None:
    got = out(
        "import numpy as np\nlosses, nums = (0.5, 0.25), (4, 2)\n"
        "print(np.sum(np.multiply(losses, nums)) / np.sum(nums))\n"
        "print(np.add([1, 2], 3), np.subtract(5, [1.5]), np.divide([1, 2], [4, 8]))\n"
    )
    assert got == "0.4166666666666667\n[4 5] [3.5] [0.25 0.25]\n"


def _plateau(values: list[float], **kw: object) -> list[float]:
    opt = O.SGD([N.Parameter(np.zeros(1, np.float32))], lr=1.0)
    sched = O.ReduceLROnPlateau(opt, **kw)
    lrs = []
    for v in values:
        sched.step(v)
        lrs.append(opt.param_groups[0]["lr"])
    return lrs


def test_reduce_lr_on_plateau_rules() -> None:
    # patience 1: the second epoch without improvement reduces; then counting starts again.
    assert _plateau([3, 2, 2, 2, 2, 2], patience=1, factor=0.5) == [1, 1, 1, 0.5, 0.5, 0.25]
    # min_lr bounds it; a reduction smaller than eps is skipped.
    assert _plateau([1, 1, 1, 1, 1], patience=0, factor=0.1, min_lr=0.05) == [
        1,
        0.1,
        0.05,
        0.05,
        0.05,
    ]
    # the relative threshold: 0.9999 * best is not an improvement on 1.0 in 'rel' mode ...
    assert _plateau([1.0, 0.99995, 0.99995], patience=1, factor=0.5) == [1, 1, 0.5]
    # ... max mode, cooldown: the epochs after a reduction do not count.
    assert _plateau([1, 1, 1, 1, 1, 1], mode="max", patience=0, cooldown=2, factor=0.5) == [
        1,
        0.5,
        0.5,
        0.5,
        0.25,
        0.25,
    ]
    with pytest.raises(GradcliError, match="Factor should be < 1.0."):
        _plateau([], factor=1.0)
    with pytest.raises(GradcliError, match="mode up is unknown!"):
        _plateau([], mode="up")


def test_reduce_lr_on_plateau_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    values = list(np.round(rng.random(40), 2))
    for kw in ({"patience": 2, "factor": 0.5}, {"mode": "max", "threshold": 0.1, "cooldown": 1}):
        p = torch.nn.Parameter(torch.zeros(1))
        opt = torch.optim.SGD([p], lr=1.0)
        sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, **kw)
        want = []
        for v in values:
            sched.step(v)
            want.append(opt.param_groups[0]["lr"])
        assert _plateau(values, **kw) == want


def test_linear_product_follows_the_chain_for_sixteen_rows_or_more() -> None:
    rng = np.random.default_rng(1)
    for n, m, k in ((16, 2, 2), (24, 7, 33), (64, 3, 500)):
        x = rng.standard_normal((n, k)).astype(np.float32)
        w = rng.standard_normal((m, k)).astype(np.float32)
        got = L._matmul_fwd(x, w.T)
        want = L._mm_float32(x, np.ascontiguousarray(w.T))
        assert np.array_equal(got, want)
    # Fewer rows, an inner size of 1: NumPy's product (MKL's order there is not mirrored).
    x = rng.standard_normal((15, 4)).astype(np.float32)
    w = rng.standard_normal((3, 4)).astype(np.float32)
    assert np.array_equal(L._matmul_fwd(x, w.T), np.matmul(x, w.T))


def _f32(v: float) -> float:
    return float(np.float32(v))


def _fma(a: float, b: float, c: float) -> float:
    """a * b + c rounded once to float32 (exactly: float32 numbers as fractions)."""
    from fractions import Fraction

    exact = Fraction(a) * Fraction(b) + Fraction(c)
    lo = np.float32(float(exact))  # the nearest double, then float32: fix up a bad tie below
    cands = [lo, np.nextafter(lo, np.float32(np.inf)), np.nextafter(lo, np.float32(-np.inf))]
    return float(
        min(cands, key=lambda f: (abs(Fraction(float(f)) - exact), int(f.view(np.int32)) & 1))
    )


def _one_row_element(a: list[float], b: list[float], whole_group: bool) -> float:
    """MKL's one-row kernel for one element, written out with scalars: 16 lanes, products
    fused into them (the first product starting lane 0), the lanes added by halves; the k
    left after the whole blocks of 16 start again from that sum. The columns past the last
    group of 4 add their lanes' rounded products to the first product instead."""
    k = len(a)

    def halves(v: list[float]) -> float:
        while len(v) > 1:
            h = len(v) // 2
            v = [_f32(v[i] + v[i + h]) for i in range(h)]
        return v[0]

    if not whole_group:
        lanes = [_f32(a[i] * b[i]) for i in range(1, k)] + [0.0] * (17 - k)
        return _f32(_f32(a[0] * b[0]) + halves(lanes))
    r = _f32(a[0] * b[0])
    whole = (k - 1) // 16 * 16
    for lo, hi in ((1, 1 + whole), (1 + whole, k)):
        if hi <= lo:
            continue
        lanes = [r] + [0.0] * 15
        for i in range(lo, hi):
            lanes[(i - lo) % 16] = _fma(a[i], b[i], lanes[(i - lo) % 16])
        r = halves(lanes)
    return r


def test_linear_product_with_one_row_follows_mkls_lanes() -> None:
    rng = np.random.default_rng(5)
    for k, n in ((3, 6), (9, 7), (17, 6), (33, 8), (50, 4)):
        x = rng.standard_normal((1, k)).astype(np.float32)
        w = rng.standard_normal((n, k)).astype(np.float32)
        got = L._matmul_fwd(x, w.T)
        a = [float(v) for v in x[0]]
        for j in range(n):
            b = [float(v) for v in w[j]]
            want = _one_row_element(a, b, j < n - n % 4)
            assert got[0, j] == np.float32(want), (k, n, j)
    # 2 to 15 rows, 12 columns or more, an inner size under 24 times the rows: the chain
    x = rng.standard_normal((3, 40)).astype(np.float32)
    w = rng.standard_normal((12, 40)).astype(np.float32)
    assert np.array_equal(L._matmul_fwd(x, w.T), L._fma_chain(x, np.ascontiguousarray(w.T)))
    # 11 columns with 3 rows, an inner size over the columns: the chain too
    w = rng.standard_normal((11, 40)).astype(np.float32)
    assert np.array_equal(L._matmul_fwd(x, w.T), L._fma_chain(x, np.ascontiguousarray(w.T)))
    # 15 rows or fewer past the bound on work: NumPy's product
    x = rng.standard_normal((2, 1 << 12)).astype(np.float32)
    w = rng.standard_normal((1 << 11, 1 << 12)).astype(np.float32)
    assert not L._few_rows_t(2, 1 << 12, 1 << 11)
    assert np.array_equal(L._matmul_fwd(x, w.T), np.matmul(x, w.T))


def test_linear_product_with_few_rows_is_pytorchs() -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    rng = np.random.default_rng(6)
    checked = 0
    while checked < 300:
        m, k, n = (int(rng.integers(1, 16)), int(rng.integers(1, 401)), int(rng.integers(2, 65)))
        if not L._few_rows_t(m, k, n):
            continue
        checked += 1
        x = rng.standard_normal((m, k)).astype(np.float32)
        w = rng.uniform(-1, 1, (n, k)).astype(np.float32)
        b = rng.uniform(-1, 1, n).astype(np.float32)
        tx, tw, tb = (torch.from_numpy(a).clone() for a in (x, w, b))
        got = L._matmul_fwd(x, w.T)
        assert np.array_equal(got, (tx @ tw.t()).numpy()), (m, k, n)
        assert np.array_equal(got + b, torch.nn.functional.linear(tx, tw, tb).numpy()), (m, k, n)


def test_softmax_and_log_softmax_round_in_pytorchs_order() -> None:
    rng = np.random.default_rng(2)
    x = (rng.standard_normal((50, 7)) * 3).astype(np.float32)
    d = x - x.max(axis=1, keepdims=True)
    # SLEEF's exp and log as ATen's vector kernel calls them; a row shorter than a vector
    # (16 floats) summed left to right (tests/ops/test_softmax_order.py checks them).
    from gradcli.ops.softmax32 import _sleef_expf, _sleef_logf

    e = _sleef_expf(d)
    s = e[:, :1]
    for j in range(1, 7):
        s = s + e[:, j : j + 1]
    assert np.array_equal(R._softmax_fwd(x, 1), e * (np.float32(1) / s))
    logs = _sleef_logf(s)
    assert np.array_equal(R._log_softmax_fwd(x, 1), d - logs)
    # Not the other order (x - (max + log(sum))): the test can tell them apart.
    other = x - (logs + x.max(axis=1, keepdims=True))
    assert not np.array_equal(R._log_softmax_fwd(x, 1), other)


def test_buffers_register_save_load_and_convert_as_pytorchs() -> None:
    got = out(
        "import torch\nfrom torch import nn\n"
        "m = nn.Module()\nm.register_buffer('mask', torch.ones(2))\n"
        "m.register_buffer('tmp', torch.zeros(1), persistent=False)\n"
        "m.register_buffer('none', None)\n"
        "print(list(m.state_dict()), [n for n, _ in m.named_buffers()])\n"
        "m.mask = torch.tensor([2.0, 3.0])\nprint(m.state_dict()['mask'])\n"
        "bn = nn.BatchNorm1d(2)\nbn(torch.tensor([[1.0, 2.0], [3.0, 6.0]]))\n"
        "fresh = nn.BatchNorm1d(2)\nprint(fresh.load_state_dict(bn.state_dict()))\n"
        "print(fresh.running_mean, fresh.running_var, fresh.num_batches_tracked)\n"
        "fresh.double()\nprint(fresh.running_var.dtype, fresh.num_batches_tracked.dtype)\n"
        "for name, value in (('a.b', torch.ones(1)), ('', torch.ones(1)), ('c', 3), (4, None)):\n"
        "    try:\n        m.register_buffer(name, value)\n"
        "    except (KeyError, TypeError) as e:\n        print(type(e).__name__, e)\n"
        "try:\n    m.mask = 5\nexcept TypeError as e:\n    print(e)\n"
    )
    assert got == (
        "['mask'] ['mask', 'tmp']\n"
        "tensor([2., 3.])\n"
        "<All keys matched successfully>\n"
        "tensor([0.2000, 0.4000]) tensor([1.1000, 1.7000]) tensor(1)\n"
        "torch.float64 torch.int64\n"
        "KeyError 'buffer name can\\'t contain \".\"'\n"
        "KeyError 'buffer name can\\'t be empty string \"\"'\n"
        "TypeError cannot assign 'int' object to buffer 'c' (torch Tensor or None required)\n"
        "TypeError buffer name should be a string. Got int\n"
        "cannot assign 'int' as buffer 'mask' (torch.nn.Buffer, torch.Tensor or None expected)\n"
    )


def test_batch_norm_running_statistics_follow_momentum_and_the_unbiased_variance() -> None:
    """Running mean (1 - m) * old + m * batch mean; running variance the same with the batch's
    unbiased variance; momentum=None the cumulative average of every batch so far."""
    x = np.array([[1.0, 2.0], [3.0, 6.0], [5.0, 1.0]])
    got = out(
        "import torch\nfrom torch import nn\n"
        f"x = torch.tensor({x.tolist()})\n"
        "bn = nn.BatchNorm1d(2, momentum=0.25)\nbn(x)\nbn(2 * x)\n"
        "print(bn.running_mean.tolist(), bn.running_var.tolist())\n"
        "avg = nn.BatchNorm1d(2, momentum=None)\navg(x)\navg(2 * x)\n"
        "print(avg.running_mean.tolist(), avg.running_var.tolist())\n"
    )
    mean, var = x.mean(0), x.var(0, ddof=1)
    rm = 0.75 * (0.75 * 0 + 0.25 * mean) + 0.25 * 2 * mean
    rv = 0.75 * (0.75 * 1 + 0.25 * var) + 0.25 * 4 * var
    am, av = (mean + 2 * mean) / 2, (var + 4 * var) / 2
    lines = got.splitlines()
    np.testing.assert_allclose(eval(lines[0].replace("] [", "], [")), [rm, rv], rtol=1e-6)
    np.testing.assert_allclose(eval(lines[1].replace("] [", "], [")), [am, av], rtol=1e-6)


def test_initialised_weights_are_not_mistaken_for_changed_in_place() -> None:
    # nn.Linear's weight is at version 1 (its init filled it in place); a graph recorded on
    # it before any other change in place must not fail backward after an unrelated one.
    run = parse(
        "import torch\ntorch.manual_seed(0)\nlin = torch.nn.Linear(3, 2)\n"
        "w = lin.weight.detach()\nx = torch.randn(4, 3, requires_grad=True)\n"
        "y = torch.nn.functional.linear(x, w, lin.bias)\nz = torch.ones(2)\nz.add_(1)\n"
        "y.sum().backward()\nprint(w._version, x.grad.shape)\n",
        "prog.py",
    ).run(dtype="float32")
    assert "".join(run.output) == "1 torch.Size([4, 3])\n"


def test_nn_buffer_assigned_in_a_module_registers_a_buffer() -> None:
    """`self.x = nn.Buffer(t)` is `register_buffer('x', t)`, persistent or not as the Buffer
    says; an nn.Buffer not assigned to a module is a detached tensor sharing the values; a
    Buffer assigned over a parameter is refused as assigning any tensor there is."""
    got = out(
        "import torch\nfrom torch import nn\n"
        "class M(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.w = nn.Parameter(torch.ones(2))\n"
        "        self.a = nn.Buffer(torch.zeros(2))\n"
        "        self.b = nn.Buffer(torch.ones(1), persistent=False)\n"
        "m = M()\n"
        "print([n for n, _ in m.named_buffers()], list(m.state_dict()))\n"
        "m.c = nn.Buffer(torch.ones(3))\n"
        "m.c = torch.zeros(3)\n"
        "print([n for n, _ in m.named_buffers()], m.c)\n"
        "t = torch.ones(2, requires_grad=True)\n"
        "b = nn.Buffer(t)\n"
        "print(b.requires_grad, b.is_leaf, b is t)\n"
        "with torch.no_grad():\n"
        "    b.add_(1)\n"
        "print(t)\n"
    )
    assert got == (
        "['a', 'b'] ['w', 'a']\n"
        "['a', 'b', 'c'] tensor([0., 0., 0.])\n"
        "True True False\n"
        "tensor([2., 2.], requires_grad=True)\n"
    )
    with pytest.raises(
        GradcliError, match="cannot assign 'torch.FloatTensor' as parameter 'weight'"
    ):
        out(
            "import torch\nfrom torch import nn\nm = nn.Linear(2, 2)\n"
            "m.weight = nn.Buffer(torch.ones(2, 2))\n"
        )


def test_state_dict_into_a_destination_positional_or_keyword_returns_it() -> None:
    # (explore29: `m.state_dict(OrderedDict())`, PyTorch's deprecated positional form, was
    # refused; PyTorch fills the dict given, warns for positional arguments, returns it)
    got = out(
        "import torch\nfrom collections import OrderedDict\n"
        "m = torch.nn.Sequential(torch.nn.Linear(2, 1), torch.nn.Linear(1, 1))\n"
        "d = OrderedDict()\nr = m.state_dict(d)\nprint(r is d, list(d))\n"
        "e = {'kept': 1}\nprint(m.state_dict(e, 'net.') is e, list(e))\n"
        "f = {}\nm.state_dict(destination=f, prefix='p.', keep_vars=True)\n"
        "print(f['p.0.weight'] is m[0].weight, m.state_dict(f)['p.1.bias'] is m[1].bias)\n"
        "print(m.state_dict(None, 'x.', True)['x.1.bias'] is m[1].bias)\n"
        "print(m.state_dict({}, '', False)['0.bias'].requires_grad)\n"
    )
    assert got == (
        "True ['0.weight', '0.bias', '1.weight', '1.bias']\n"
        "True ['kept', 'net.0.weight', 'net.0.bias', 'net.1.weight', 'net.1.bias']\n"
        "True True\nTrue\nFalse\n"
    )
    with pytest.raises(GradcliError, match="destination of type list is not supported"):
        out("import torch\ntorch.nn.Linear(1, 1).state_dict([])\n")
