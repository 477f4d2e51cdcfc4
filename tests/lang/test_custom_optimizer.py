"""A program's own optimizer (`class MySGD(torch.optim.Optimizer)`) and scheduler (`class
Warmup(LRScheduler)`): the surface's machinery (param groups, state, state_dict, repr, the
schedulers) with the program's methods. The trajectories are checked against the built-in
optimizers gradcli already matches bit for bit with PyTorch (corpus 723-726 and 675 hold
PyTorch's own text)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

SGD_CLASS = """
import torch
class MySGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.1, momentum=0.0, weight_decay=0.0):
        super().__init__(params, dict(lr=lr, momentum=momentum, weight_decay=weight_decay))

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is None:
                    continue
                d_p = p.grad
                if group['weight_decay'] != 0:
                    d_p = d_p.add(p, alpha=group['weight_decay'])
                if group['momentum'] != 0:
                    state = self.state[p]
                    if 'momentum_buffer' not in state:
                        buf = state['momentum_buffer'] = torch.clone(d_p).detach()
                    else:
                        buf = state['momentum_buffer']
                        buf.mul_(group['momentum']).add_(d_p)
                    d_p = buf
                p.add_(d_p, alpha=-group['lr'])
        return loss
"""

TRAIN = """
torch.manual_seed(3)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
x = torch.randn(16, 3, dtype=DT)
y = torch.randn(16, 1, dtype=DT)
model = model.to(DT)
opt = MAKE
for i in range(6):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
for p in model.parameters():
    print(p.detach().tolist())
"""


def run(src: str) -> str:
    return "".join(parse(src, "t.py").run(dtype="float32").output)


@pytest.mark.parametrize("dtype", ["torch.float32", "torch.float64"])
@pytest.mark.parametrize(
    "hyper", ["lr=0.1", "lr=0.05, momentum=0.9", "lr=0.05, momentum=0.5, weight_decay=0.01"]
)
def test_a_hand_written_sgd_follows_the_built_in_bit_for_bit(dtype: str, hyper: str) -> None:
    train = TRAIN.replace("DT", dtype)
    mine = run(SGD_CLASS + train.replace("MAKE", f"MySGD(model.parameters(), {hyper})"))
    builtin = run(
        SGD_CLASS + train.replace("MAKE", f"torch.optim.SGD(model.parameters(), {hyper})")
    )
    assert mine == builtin
    assert mine.count("\n") == 4


def test_state_is_a_defaultdict_kept_between_steps_and_saved() -> None:
    got = run(
        SGD_CLASS + "w = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "b = torch.tensor([0.5], requires_grad=True)\n"
        "opt = MySGD([w, b], lr=0.1, momentum=0.9)\n"
        "print(len(opt.state), w in opt.state)\n"
        "for _ in range(2):\n"
        "    opt.zero_grad()\n"
        "    (w * w).sum().backward()\n"
        "    opt.step()\n"
        "print(len(opt.state), w in opt.state, b in opt.state)\n"
        "print(opt.state[w]['momentum_buffer'])\n"
        "print(list(opt.state.keys())[0] is w, opt.state.get(b))\n"
        "print(opt.state_dict()['state'])\n"
    )
    assert got == (
        "0 False\n"
        "1 True False\n"
        "tensor([3.4000, 6.8000])\n"
        "True None\n"
        "{0: {'momentum_buffer': tensor([3.4000, 6.8000])}}\n"
    )


def test_load_state_dict_runs_the_programs_setstate() -> None:
    got = run(
        SGD_CLASS.replace(
            "    @torch.no_grad()",
            "    def __setstate__(self, state):\n"
            "        super().__setstate__(state)\n"
            "        print('setstate', sorted(state))\n"
            "        for group in self.param_groups:\n"
            "            group.setdefault('nesterov', False)\n\n"
            "    @torch.no_grad()",
        )
        + "w = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "a = MySGD([w], lr=0.3, momentum=0.9)\n"
        "(w * w).sum().backward()\n"
        "a.step()\n"
        "c = MySGD([w], lr=0.1)\n"
        "c.load_state_dict(a.state_dict())\n"
        "print(c.param_groups[0]['lr'], c.param_groups[0]['nesterov'])\n"
        "print(c.state[w]['momentum_buffer'])\n"
    )
    assert got == "setstate ['param_groups', 'state']\n0.3 False\ntensor([2., 4.])\n"


def test_a_scheduler_drives_a_programs_optimizer_and_warns_only_before_its_step() -> None:
    src = (
        SGD_CLASS + "w = torch.tensor([1.0], requires_grad=True)\n"
        "opt = MySGD([w], lr=1.0)\n"
        "s = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)\n"
        "FIRST\n"
        "s.step()\n"
        "print(s.get_last_lr(), opt.param_groups[0]['lr'])\n"
    )
    program = parse(src.replace("FIRST", "opt.step()"), "t.py").run(dtype="float32")
    assert "".join(program.output) == "[0.5] 0.5\n"
    assert not any("before `optimizer.step()`" in str(w) for w in program.warnings)
    program = parse(src.replace("FIRST", "pass"), "t.py").run(dtype="float32")
    assert any("before `optimizer.step()`" in str(w) for w in program.warnings)


def test_custom_scheduler_get_lr_and_state_dict_order() -> None:
    got = run(
        "import torch\n"
        "from torch.optim.lr_scheduler import LRScheduler\n"
        "class Linear(LRScheduler):\n"
        "    def __init__(self, optimizer, total, last_epoch=-1):\n"
        "        self.total = total\n"
        "        super().__init__(optimizer, last_epoch)\n"
        "        self.after = 1\n"
        "    def get_lr(self):\n"
        "        return [b * (1 - self.last_epoch / self.total) for b in self.base_lrs]\n"
        "w = torch.ones(1, requires_grad=True)\n"
        "opt = torch.optim.SGD([w], lr=1.0)\n"
        "s = Linear(opt, 4)\n"
        "for _ in range(3):\n"
        "    opt.step()\n"
        "    s.step()\n"
        "    print(s.last_epoch, s.get_last_lr())\n"
        "print(list(s.state_dict()))\n"
    )
    assert got == (
        "1 [0.75]\n2 [0.5]\n3 [0.25]\n"
        "['total', 'base_lrs', 'last_epoch', '_step_count', '_is_initial', "
        "'_get_lr_called_within_step', '_last_lr', 'after']\n"
    )


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("MySGD([{'lr': 0.1}])", "params"),
        ("MySGD([w * 2])", "can't optimize a non-leaf Tensor"),
        ("MySGD([{'params': [w]}, {'params': [w]}])", "more than one parameter group"),
        ("MySGD([])", "optimizer got an empty parameter list"),
        ("MySGD([w]).add_param_group([w])", "param_group must be a dict"),
    ],
)
def test_errors_in_pytorchs_words(body: str, words: str) -> None:
    src = SGD_CLASS + "w = torch.ones(2, requires_grad=True)\n" + body + "\n"
    with pytest.raises(GradcliError, match=words):
        run(src)


@pytest.mark.parametrize(
    ("cls", "words"),
    [
        (
            "class O(torch.optim.Optimizer):\n    def __repr__(self):\n        return 'x'\n",
            "method `__repr__` is not supported in a subclass of Optimizer",
        ),
        (
            "class A:\n    def __setstate__(self, s):\n        pass\n",
            "method `__setstate__` is only supported in an Optimizer subclass",
        ),
        (
            "from torch.optim.lr_scheduler import LRScheduler\n"
            "class S(LRScheduler):\n    def __setstate__(self, s):\n        pass\n",
            "not supported in a subclass of LRScheduler",
        ),
        (
            "class O(torch.optim.Optimizer):\n    pass\n"
            "o = O([torch.ones(1, requires_grad=True)], {})\no.state = [1]\n",
            "assigning an optimizer's `state` a list is not supported",
        ),
    ],
)
def test_refusals(cls: str, words: str) -> None:
    with pytest.raises(GradcliError, match=words):
        run("import torch\n" + cls)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        ("x.clone(memory_format=torch.channels_last_3d)", "required rank 5 tensor to use"),
        ("torch.ones(2, 3).to(memory_format=torch.channels_last)", "required rank 4 tensor"),
        ("torch.ones_like(x, memory_format='C')", "must be torch.memory_format, not str"),
    ],
)
def test_memory_formats_of_another_rank_or_type_are_pytorchs_errors(call: str, words: str) -> None:
    with pytest.raises(GradcliError, match=words):
        run(f"import torch\nx = torch.ones(1, 2, 3, 4)\ny = {call}\n")


def test_channels_last_state_buffers_are_laid_out_nhwc() -> None:
    # (PyTorch 2.13: (24, 1, 8, 2) and True for both)
    got = run(
        "import torch\nx = torch.ones(1, 2, 3, 4)\n"
        "z = torch.zeros_like(x, memory_format=torch.channels_last)\n"
        "print(z.stride(), z.is_contiguous(memory_format=torch.channels_last))\n"
    )
    assert got == "(24, 1, 8, 2) True\n"


def test_preserve_format_state_buffers_keep_the_parameters_layout() -> None:
    got = run(
        "import torch\nw = torch.ones(2, 3).t()\n"
        "print(torch.zeros_like(w, memory_format=torch.preserve_format).stride(),\n"
        "      torch.zeros_like(w, memory_format=torch.contiguous_format).stride(),\n"
        "      torch.rand_like(w, memory_format=torch.preserve_format).shape)\n"
    )
    assert got == "(1, 3) (2, 1) torch.Size([3, 2])\n"


def test_state_assigned_a_dict_in_init_is_the_programs_dict() -> None:
    # `self.state = dict()` then filled by hand (older hand-written momentum optimizers): the
    # program's dict is the state (a missing key is then a KeyError, not a new entry), and
    # state_dict() packs it as PyTorch does (parameters by index, other keys as themselves).
    out = run(
        "import torch\n"
        "w = torch.tensor([1.0, -2.0], requires_grad=True)\n"
        "class M(torch.optim.Optimizer):\n"
        "    def __init__(self, params, lr=0.1, momentum=0.9):\n"
        "        super().__init__(params, defaults={'lr': lr})\n"
        "        self.momentum = momentum\n"
        "        self.state = dict()\n"
        "        for group in self.param_groups:\n"
        "            for p in group['params']:\n"
        "                self.state[p] = dict(mom=torch.zeros_like(p.data))\n"
        "    def step(self):\n"
        "        for group in self.param_groups:\n"
        "            for p in group['params']:\n"
        "                mom = self.momentum * self.state[p]['mom'] - group['lr'] * p.grad.data\n"
        "                self.state[p]['mom'] = mom\n"
        "                p.data += mom\n"
        "o = M([w])\n"
        "for _ in range(3):\n"
        "    o.zero_grad()\n"
        "    (w ** 2).sum().backward()\n"
        "    o.step()\n"
        "print(w.data, o.state[w]['mom'], type(o.state).__name__)\n"
        "o.state['note'] = 1\n"
        "print(o.state_dict()['state'])\n"
        "try:\n"
        "    o.state[torch.ones(1)]\n"
        "except KeyError:\n"
        "    print('KeyError')\n"
    )
    assert out == (
        # (PyTorch 2.13's own output for this program)
        "tensor([ 0.0620, -0.1240]) tensor([-0.3980,  0.7960]) dict\n"
        "{0: {'mom': tensor([-0.3980,  0.7960])}, 'note': 1}\n"
        "KeyError\n"
    )


BUILTIN_TRAIN = """
import collections
import torch
torch.manual_seed(0)
w = torch.randn(3, dtype=torch.float64, requires_grad=True)
def loss():
    return ((w - torch.arange(3.0, dtype=torch.float64)) ** 4).sum()
"""


def test_a_builtin_optimizer_takes_assigned_groups_and_state() -> None:
    # `inner.param_groups = outer.param_groups` (SAM's load_state_dict) and `opt.state =
    # collections.defaultdict(dict)` (a reset of the moments) are Python attributes in PyTorch,
    # read again by the next step: each run must equal the one built without the assignment.
    shared = run(
        BUILTIN_TRAIN + "a = torch.optim.SGD([w], lr=0.5, momentum=0.9)\n"
        "b = torch.optim.SGD([w], lr=0.01, momentum=0.9)\n"
        "b.param_groups = a.param_groups\n"
        "a.param_groups[0]['lr'] = 0.02\n"
        "for _ in range(3):\n    b.zero_grad()\n    loss().backward()\n    b.step()\n"
        "print(w.tolist(), b.param_groups is a.param_groups)\n"
    )
    plain = run(
        BUILTIN_TRAIN + "b = torch.optim.SGD([w], lr=0.02, momentum=0.9)\n"
        "for _ in range(3):\n    b.zero_grad()\n    loss().backward()\n    b.step()\n"
        "print(w.tolist(), True)\n"
    )
    assert shared == plain
    reset = run(
        BUILTIN_TRAIN + "opt = torch.optim.Adam([w], lr=0.1)\n"
        "for _ in range(2):\n    opt.zero_grad()\n    loss().backward()\n    opt.step()\n"
        "opt.state = collections.defaultdict(dict)\n"
        "start = w.detach().clone()\n"
        "opt.zero_grad()\nloss().backward()\nopt.step()\n"
        "print((w - start).tolist(), opt.state[w]['step'].item())\n"
    )
    fresh = run(
        BUILTIN_TRAIN + "opt = torch.optim.Adam([w], lr=0.1)\n"
        "for _ in range(2):\n    opt.zero_grad()\n    loss().backward()\n    opt.step()\n"
        "start = w.detach().clone()\n"
        "opt = torch.optim.Adam([w], lr=0.1)\n"
        "opt.zero_grad()\nloss().backward()\nopt.step()\n"
        "print((w - start).tolist(), opt.state[w]['step'].item())\n"
    )
    assert reset == fresh
    assert reset.rstrip().endswith("1.0")


def test_other_attributes_of_a_builtin_optimizer_are_kept_and_change_no_step() -> None:
    got = run(
        BUILTIN_TRAIN + "opt = torch.optim.SGD([w], lr=0.1)\nopt.lr = 100.0\n"
        "setattr(opt, 'note', 'x')\n"
        "opt.zero_grad()\nloss().backward()\nopt.step()\n"
        "print(opt.lr, opt.note, opt.param_groups[0]['lr'], w.tolist())\n"
    )
    plain = run(
        BUILTIN_TRAIN + "opt = torch.optim.SGD([w], lr=0.1)\n"
        "opt.zero_grad()\nloss().backward()\nopt.step()\n"
        "print(100.0, 'x', 0.1, w.tolist())\n"
    )
    assert got == plain


@pytest.mark.parametrize(
    ("assign", "words"),
    [
        (
            "opt.param_groups = {}",
            "assigning an optimizer's `param_groups` a dict is not supported",
        ),
        ("opt.defaults = 3", "assigning an optimizer's `defaults` a int is not supported"),
        ("opt.state = None", "assigning an optimizer's `state` a NoneType is not supported"),
        ("opt.step = print", "replacing the method `step` of a SGD is not supported"),
    ],
)
def test_builtin_optimizer_assignments_refused(assign: str, words: str) -> None:
    with pytest.raises(GradcliError, match=words):
        run(BUILTIN_TRAIN + "opt = torch.optim.SGD([w], lr=0.1)\n" + assign + "\n")


def test_a_group_or_defaults_missing_what_the_step_reads_is_a_catchable_key_error() -> None:
    got = run(
        BUILTIN_TRAIN + "opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)\nloss().backward()\n"
        "opt.param_groups = [{'params': [w], 'lr': 0.1}]\n"
        "try:\n    opt.step()\nexcept KeyError as e:\n    print(repr(e))\n"
        "opt.defaults = {'lr': 0.1}\n"
        "try:\n    opt.step()\nexcept LookupError as e:\n    print(type(e).__name__, e)\n"
    )
    assert got == "KeyError('momentum')\nKeyError 'differentiable'\n"


WRAPPER = """
class Wrap(torch.optim.Optimizer):
    def __init__(self, inner):
        self.inner = inner
        self.param_groups = inner.param_groups
        self.state = collections.defaultdict(dict)
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group['params']:
                self.state[p]['seen'] = self.state[p].get('seen', 0) + 1
        return self.inner.step(closure)
"""


def test_a_wrapper_that_never_calls_super_init_reads_what_it_assigned() -> None:
    # Lookahead's pattern: `self.param_groups = inner.param_groups`, `self.state = ...` in an
    # __init__ without super().__init__(): PyTorch reads them back as plain attributes.
    train = (
        "for _ in range(3):\n    w.grad = None\n    loss().backward()\n    OPT.step()\n"
        "print(w.tolist())\n"
    )
    wrapped = run(
        BUILTIN_TRAIN
        + WRAPPER
        + "o = Wrap(torch.optim.Adam([w], lr=0.1))\n"
        + train.replace("OPT", "o")
        + "print(o.state[w]['seen'], o.param_groups is o.inner.param_groups)\n"
    )
    plain = run(
        BUILTIN_TRAIN
        + "o = torch.optim.Adam([w], lr=0.1)\n"
        + train.replace("OPT", "o")
        + "print(3, True)\n"
    )
    assert wrapped == plain


@pytest.mark.parametrize(
    ("call", "missing"),
    [
        ("o.zero_grad()", "defaults"),
        ("o.add_param_group({'params': [torch.ones(1, requires_grad=True)]})", "defaults"),
        ("o.state_dict()", "_optimizer_state_dict_pre_hooks"),
        ("o.load_state_dict(o.inner.state_dict())", "_optimizer_load_state_dict_pre_hooks"),
        ("print(o.defaults)", "defaults"),
    ],
)
def test_a_wrapper_without_super_init_misses_what_init_sets(call: str, missing: str) -> None:
    with pytest.raises(GradcliError, match=f"'Wrap' object has no attribute '{missing}'") as e:
        run(BUILTIN_TRAIN + WRAPPER + "o = Wrap(torch.optim.SGD([w], lr=0.1))\n" + call + "\n")
    assert e.value.python_class == "AttributeError"
