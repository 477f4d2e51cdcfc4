"""Classes with several bases: plain classes as mixins of an nn.Module subclass, plain and
module classes deriving from several program classes, Python's method resolution order (C3)
for attributes and super(), isinstance with any base; and a module's train()/eval() reaching
the program's own `train` (checked by hand with /work/torchenv)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError, LimitError
from gradcli.lang.program import parse

HEAD = "import torch\nimport torch.nn as nn\n"


def out(text: str) -> str:
    return "".join(parse(HEAD + text, "t.py").run(dtype="float32").output)


def fails(text: str) -> GradcliError:
    with pytest.raises(GradcliError) as e:
        out(text)
    return e.value


CLASSES = (
    "class O:\n    def who(self):\n        return ['O']\n"
    "class A(O):\n    def who(self):\n        return ['A'] + super().who()\n"
    "class B(O):\n    def who(self):\n        return ['B'] + super().who()\n"
    "class C(O):\n    def who(self):\n        return ['C'] + super().who()\n"
    "class D(A, B):\n    def who(self):\n        return ['D'] + super().who()\n"
    "class E(B, C):\n    def who(self):\n        return ['E'] + super().who()\n"
    "class F(D, E):\n    def who(self):\n        return ['F'] + super().who()\n"
)


def test_super_follows_the_c3_order_of_the_instance_class() -> None:
    # Python: F's MRO is F, D, A, E, B, C, O
    got = out(CLASSES + "print(F().who())\nprint(D().who(), E().who())\nprint(A.who(F()))\n")
    assert got == (
        "['F', 'D', 'A', 'E', 'B', 'C', 'O']\n['D', 'A', 'B', 'O'] ['E', 'B', 'C', 'O']\n"
        "['A', 'E', 'B', 'C', 'O']\n"
    )


def test_attributes_resolve_in_the_same_order_and_isinstance_sees_every_base() -> None:
    got = out(
        "class P:\n    k = 'P'\n    only_p = 1\nclass Q:\n    k = 'Q'\n    only_q = 2\n"
        "class R(Q, P):\n    pass\nr = R()\n"
        "print(R.k, r.k, r.only_p, r.only_q, isinstance(r, P), isinstance(r, (int, Q)))\n"
        "print(isinstance(P(), R), isinstance(r, nn.Module))\n"
    )
    assert got == "Q Q 1 2 True True\nFalse False\n"


def test_cooperative_init_passes_keywords_along_and_ends_at_object() -> None:
    got = out(
        "class A:\n    def __init__(self, a=0, **kw):\n        super().__init__(**kw)\n"
        "        self.a = a\n"
        "class B:\n    def __init__(self, b=0, **kw):\n        super().__init__(**kw)\n"
        "        self.b = b\n"
        "class C(A, B):\n    pass\nc = C(a=1, b=2)\nprint(c.a, c.b)\n"
        "try:\n    C(a=1, z=3)\nexcept TypeError as e:\n    print(e)\n"
    )
    assert got == "1 2\nobject.__init__() takes exactly one argument (the instance to initialize)\n"


def test_mixins_of_a_module_and_nn_modules_place_in_the_order() -> None:
    got = out(
        "class M:\n    def helper(self):\n        return len(list(self.parameters()))\n"
        "    def zero_grad(self):\n        print('mixin zero_grad')\n"
        "class Early(M, nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.l = nn.Linear(1, 1)\n"
        "class Late(nn.Module, M):\n    def __init__(self):\n        super().__init__()\n"
        "        self.l = nn.Linear(1, 1)\n"
        "e, l = Early(), Late()\nprint(e.helper(), l.helper())\ne.zero_grad()\nl.zero_grad()\n"
        "print(isinstance(e, M), isinstance(l, nn.Module), e)\n"
    )
    assert got == (
        "2 2\nmixin zero_grad\nTrue True Early(\n  (l): Linear(in_features=1, out_features=1, "
        "bias=True)\n)\n"
    )


def test_a_mixin_init_before_a_module_class() -> None:
    got = out(
        "class Base(nn.Module):\n    def __init__(self, n):\n        super().__init__()\n"
        "        self.w = nn.Parameter(torch.ones(n))\n"
        "class Tag:\n    def __init__(self, *a, tag='t', **k):\n        super().__init__(*a, **k)\n"
        "        self.tag = tag\n"
        "class Both(Tag, Base):\n    def forward(self, x):\n        return self.w * x\n"
        "b = Both(2, tag='x')\n"
        "print(b.tag, b(torch.ones(2)), [n for n, _ in b.named_parameters()])\n"
    )
    assert got == "x tensor([1., 1.], grad_fn=<MulBackward0>) ['w']\n"


def test_eval_and_a_parents_train_call_the_programs_train() -> None:
    got = out(
        "class Loud(nn.Module):\n    def train(self, mode=True):\n"
        "        print('train', type(self).__name__, mode)\n        return super().train(mode)\n"
        "class Outer(Loud):\n    def __init__(self):\n        super().__init__()\n"
        "        self.inner = Loud()\n        self.plain = nn.Linear(1, 1)\n"
        "o = Outer()\no.eval()\nprint(o.training, o.inner.training, o.plain.training)\n"
        "s = nn.Sequential(Loud(), nn.ReLU())\ns.eval()\nprint(s[0].training, s[1].training)\n"
    )
    assert got == (
        "train Outer False\ntrain Loud False\nFalse False False\ntrain Loud False\nFalse False\n"
    )


@pytest.mark.parametrize(
    "text, message, kind",
    [
        (
            "class A:\n    pass\nclass B(A):\n    pass\nclass C(A, B):\n    pass",
            "Cannot create a consistent method resolution\norder (MRO) for bases A, B",
            "TypeError",
        ),
        ("class A:\n    pass\nclass C(A, A):\n    pass", "duplicate base class A", "TypeError"),
        (
            "class A:\n    pass\nclass C(A, dict):\n    pass",
            "several base classes is not supported with dict among them",
            None,
        ),
        (
            "class A:\n    pass\nclass C(A, torch.autograd.Function):\n    pass",
            "several base classes is not supported with torch.autograd.Function among them",
            None,
        ),
        (
            "class A:\n    def __call__(self, x):\n        return 0\n"
            "class C(A, nn.Module):\n    pass",
            "method `__call__` of the mixin A is not supported in an nn.Module subclass (C)",
            None,
        ),
    ],
)
def test_what_is_refused(text: str, message: str, kind: str | None) -> None:
    e = fails(text)
    assert message in str(e)
    assert e.python_class == kind


def test_a_long_method_resolution_order_stops_at_the_nesting_limit() -> None:
    with pytest.raises(LimitError, match="the number of classes"):
        out(
            "class A:\n    pass\nclass B:\n    pass\nfor i in range(200):\n"
            "    class A(A, B):\n        pass\n"
        )


def test_nn_modules_init_takes_nothing_more_in_pytorchs_words() -> None:
    got = out(
        "class A:\n    def __init__(self, *a, **kw):\n        super().__init__(*a, **kw)\n"
        "class M(A, nn.Module):\n    pass\nclass N(nn.Module):\n    pass\n"
        "class P(nn.Module):\n    def __init__(self):\n        super().__init__(3)\n"
        "for make in (lambda: M(foo=1), lambda: M(1, 2), lambda: N(1), lambda: N(a=1), P):\n"
        "    try:\n        make()\n    except TypeError as e:\n        print(e)\n"
        "print(M().training)\n"
    )
    assert got == (
        "M.__init__() got an unexpected keyword argument 'foo'\n"
        "M.__init__() takes 1 positional argument but 3 were given\n"
        "N.__init__() takes 1 positional argument but 2 were given\n"
        "N.__init__() got an unexpected keyword argument 'a'\n"
        "P.__init__() takes 1 positional argument but 2 were given\nTrue\n"
    )


def test_a_mixins_forward_before_nn_module_is_the_modules_after_it_is_not() -> None:
    got = out(
        "class F:\n    def forward(self, x):\n        return x * 2\n"
        "class A(F, nn.Module):\n    pass\nclass B(nn.Module, F):\n    pass\n"
        "print(A()(torch.ones(1)))\n"
        "try:\n    B()(torch.ones(1))\nexcept NotImplementedError as e:\n"
        "    print(type(e).__name__, e)\n"
    )
    assert got == (
        'tensor([2.])\nNotImplementedError Module [B] is missing the required "forward" function\n'
    )


def test_an_activation_module_with_a_mixin_runs_as_pytorchs() -> None:
    # (an activation's class, made lazily, may be a base beside a program's class: as PyTorch)
    got = out(
        "class A:\n    def tag(self):\n        return 'a'\n"
        "class C(nn.Tanh, A):\n    pass\nc = C()\nprint(c, c.tag(), c(torch.tensor([0.5])))\n"
    )
    assert got == "C() a tensor([0.4621])\n"
