"""A program's subclass of one of torch's optimizers or schedulers (`class MyAdam(torch.optim.
Adam)`, `class Warm(torch.optim.lr_scheduler.LambdaLR)`): its `__init__` calls the class's
(checked in Python's words, which are PyTorch's), `super().step()` is that class's step, what
it does not define is that class's, isinstance/issubclass know it. The numbers are those of the
class itself (compared here with the plain class run side by side); corpus 536 has PyTorch's."""

from __future__ import annotations

import pytest

from gradcli.base.errors import NotSupported
from gradcli.lang.program import parse


def run(text: str) -> str:
    return "".join(parse("import torch\n" + text, "t.py").run().output)


TRAIN = (
    "def train(opt, w, sched=None):\n"
    "    out = []\n"
    "    for i in range(6):\n"
    "        opt.zero_grad()\n"
    "        loss = ((w - torch.tensor([3.0, -1.0, 0.5])) ** 4).sum()\n"
    "        loss.backward()\n"
    "        opt.step()\n"
    "        if sched is not None:\n"
    "            sched.step()\n"
    "            out.append(sched.get_last_lr()[0])\n"
    "    return w.tolist() + out\n"
)


@pytest.mark.parametrize(
    ("base", "kwargs"),
    [
        ("torch.optim.SGD", "lr=0.01, momentum=0.9, nesterov=True"),
        ("torch.optim.Adam", "lr=0.1, betas=(0.8, 0.99), amsgrad=True"),
        ("torch.optim.AdamW", "lr=0.1, weight_decay=0.1"),
        ("torch.optim.RMSprop", "lr=0.01, momentum=0.5"),
        ("torch.optim.Adagrad", "lr=0.5"),
        ("torch.optim.NAdam", "lr=0.1"),
    ],
)
def test_a_subclass_steps_as_its_base(base: str, kwargs: str) -> None:
    out = run(
        TRAIN + f"class Mine({base}):\n"
        "    def __init__(self, params, **kw):\n"
        "        super().__init__(params, **kw)\n        self.calls = 0\n"
        "    def step(self, closure=None):\n"
        "        self.calls += 1\n        return super().step(closure)\n"
        "class Bare(Mine):\n    pass\n"
        "w1, w2, w3 = (torch.zeros(3, requires_grad=True) for _ in range(3))\n"
        f"a = train(Mine([w1], {kwargs}), w1)\n"
        f"b = train({base}([w2], {kwargs}), w2)\n"
        f"c = train(Bare([w3], {kwargs}), w3)\n"
        "print(a == b == c, a != [0.0, 0.0, 0.0])\n"
        f"m = Mine([torch.zeros(1, requires_grad=True)], {kwargs})\n"
        f"print(isinstance(m, {base}), isinstance(m, torch.optim.Optimizer), "
        f"isinstance(m, Mine), issubclass(Bare, {base}), issubclass(Mine, torch.optim.Optimizer))\n"
    )
    assert out == "True True\nTrue True True True True\n"


@pytest.mark.parametrize(
    ("base", "args"),
    [
        ("LambdaLR", "lambda e: 0.5 ** e"),
        ("StepLR", "step_size=2, gamma=0.5"),
        ("CosineAnnealingLR", "T_max=4"),
        ("ExponentialLR", "gamma=0.9"),
        ("LinearLR", "start_factor=0.25, total_iters=3"),
    ],
)
def test_a_scheduler_subclass_schedules_as_its_base(base: str, args: str) -> None:
    out = run(
        TRAIN + f"class Mine(torch.optim.lr_scheduler.{base}):\n"
        "    def get_lr(self):\n        return [lr + 0.0 for lr in super().get_lr()]\n"
        "def both(kind):\n"
        "    w = torch.zeros(3, requires_grad=True)\n"
        "    opt = torch.optim.SGD([w], lr=0.01)\n"
        f"    return train(opt, w, kind(opt, {args}))\n"
        f"print(both(Mine) == both(torch.optim.lr_scheduler.{base}))\n"
        "o = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)\n"
        f"s = Mine(o, {args})\n"
        f"print(isinstance(s, torch.optim.lr_scheduler.{base}), "
        "isinstance(s, torch.optim.lr_scheduler.LRScheduler), type(s).__name__)\n"
    )
    assert out == "True\nTrue True Mine\n"


def test_wrong_calls_and_a_missing_super_init_in_pytorch_s_words() -> None:
    out = run(
        "w = torch.zeros(1, requires_grad=True)\n"
        "class A(torch.optim.Adam):\n"
        "    def __init__(self, params):\n        super().__init__(params, learning_rate=0.1)\n"
        "class C(torch.optim.SGD):\n    pass\n"
        "class E(torch.optim.SGD):\n    def __init__(self, params):\n        self.x = 1\n"
        "class L(torch.optim.lr_scheduler.StepLR):\n"
        "    def __init__(self, opt):\n        self.y = 2\n"
        "e = E([w])\nl = L(torch.optim.SGD([w]))\n"
        "for f in (lambda: A([w]), lambda: C([w], 0.1, 0.9, 0, 0, True, 5), lambda: e.step(),\n"
        "          lambda: e.state_dict(), lambda: e.param_groups, lambda: l.step(),\n"
        "          lambda: l.get_last_lr(), lambda: l.gamma):\n"
        "    try:\n        f()\n"
        "    except (TypeError, AttributeError) as err:\n        print(type(err).__name__, err)\n"
    )
    assert out.splitlines() == [
        "TypeError Adam.__init__() got an unexpected keyword argument 'learning_rate'",
        "TypeError SGD.__init__() takes from 2 to 7 positional arguments but 8 were given",
        "AttributeError 'E' object has no attribute 'defaults'",
        "AttributeError 'E' object has no attribute '_optimizer_state_dict_pre_hooks'",
        "AttributeError 'E' object has no attribute 'param_groups'",
        "AttributeError 'L' object has no attribute '_step_count'",
        "AttributeError 'L' object has no attribute '_last_lr'",
        "AttributeError 'L' object has no attribute 'gamma'",
    ]


def test_a_base_scheduler_s_number_settings_change_and_other_values_are_refused() -> None:
    text = (
        "o = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)\n"
        "class S(torch.optim.lr_scheduler.StepLR):\n    pass\n"
        "s = S(o, 3, gamma=0.5)\nprint(s.gamma, s.step_size, s.base_lrs)\n"
    )
    assert run(text) == "0.5 3 [1.0]\n"
    # a number for a number, as a program's subclass sets it after super().__init__ (the
    # step reads it as PyTorch's does: 1.0 for three steps, then 1.0 * 0.1)
    stepped = "s.gamma = 0.1\nfor _ in range(4):\n    o.step(); s.step()\nprint(s.get_last_lr())\n"
    assert run(text + stepped).endswith("[0.1]\n")
    with pytest.raises(NotSupported, match="setting `gamma` of a scheduler is not supported"):
        run(text + "s.gamma = [0.1]\n")
    with pytest.raises(NotSupported, match="setting `step_size` of a scheduler is not supported"):
        run(text + "s.step_size = True\n")


PLATEAU = (
    "from torch.optim.lr_scheduler import ReduceLROnPlateau\n"
    "def run_it(kind, metrics):\n"
    "    o = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)\n"
    "    s = kind(o, factor=0.5, patience=1, cooldown=1, threshold=0.01)\n"
    "    out = []\n"
    "    for m in metrics:\n"
    "        s.step(m)\n"
    "        out.append((s.get_last_lr()[0], s.num_bad_epochs, s.cooldown_counter, s.best))\n"
    "    return out\n"
    "class Plain(ReduceLROnPlateau):\n    pass\n"
    "class Logged(ReduceLROnPlateau):\n"
    "    def __init__(self, optimizer, **kw):\n"
    "        self.seen = []\n        super().__init__(optimizer, **kw)\n"
    "    def step(self, metrics):\n"
    "        self.seen.append(metrics)\n        super().step(metrics)\n"
    "    def _reduce_lr(self, epoch):\n"
    "        self.seen.append(('reduce', epoch))\n        super()._reduce_lr(epoch)\n"
)


def test_a_reduce_lr_on_plateau_subclass_steps_as_the_class() -> None:
    # the same metrics through the class itself, a subclass that adds nothing and one that
    # overrides step and _reduce_lr around super()'s: the same rates and counters
    metrics = "[1.0, 0.9, 0.95, 0.99, 0.7, 0.8, 0.85, 0.9, 0.91, 0.5]"
    got = run(
        PLATEAU + f"a = run_it(ReduceLROnPlateau, {metrics})\n"
        f"b = run_it(Plain, {metrics})\nc = run_it(Logged, {metrics})\n"
        "print(a == b, a == c, a[-1], len(a))\n"
        "o = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)\n"
        "s = Logged(o, patience=0)\nfor m in [3, 2, 2, 2]:\n    s.step(m)\n"
        "print(s.seen, s.get_last_lr(), isinstance(s, ReduceLROnPlateau))\n"
        "print(sorted(s.state_dict())[:3], 'seen' in s.state_dict())\n"
    )
    assert got == (
        "True True (0.25, 0, 0, 0.5) 10\n"
        "[3, 2, 2, ('reduce', 3), 2, ('reduce', 4)] [0.010000000000000002] True\n"
        "['_last_lr', 'best', 'cooldown'] True\n"
    )
