"""Operator and protocol methods called by name on tensors and Python numbers
(`a.__mul__(b)`, `x.__rdiv__(2)`, `torch.Tensor.__add__(a, b)`, `int.__add__(2, 3)`,
`x.__getitem__(0)`, `s.__format__('.3f')`): the interpreter's own operations, so the same op
records as the operators. Expected text is PyTorch 2.13's (run with /work/torchenv)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def run(text: str) -> tuple[str, list]:
    result = parse(text, "t.py").run(dtype="float32")
    return "".join(result.output), list(getattr(result, "warnings", []))


def out(text: str) -> str:
    return run(text)[0]


def fails(text: str) -> GradcliError:
    with pytest.raises(GradcliError) as e:
        out(text)
    return e.value


PROGRAM = (
    'import torch\n'
    'a = torch.tensor([1.0, 2.0], requires_grad=True)\n'
    'b = torch.tensor([3.0, 4.0])\n'
    'w = torch.tensor([[1.0, 2.0], [3.0, 4.0]])\n'
    'print(torch.Tensor.__add__(a, b), a.__sub__(b), b.__rsub__(2), a.__rdiv__(2))\n'
    'print(a.__truediv__(b), a.__rtruediv__(1), a.__div__(2), a.__floordiv__(2), a.__mod__(1.5))\n'
    'print(a.__pow__(2), a.__rpow__(2), a.__matmul__(w), w.__matmul__(a), a.__rmatmul__(w))\n'
    'print(a.__neg__(), a.__pos__(), a.__abs__(), a.__radd__(1), a.__rmul__(3))\n'
    'print(a.__lt__(b), a.__eq__(a), b.__ge__(3.5), a.__ne__(2.0), a.__add__("s"), b.__eq__(None))\n'
    'm = torch.tensor([6, 3])\n'
    'print(m.__and__(5), m.__or__(1), m.__xor__(2), m.__lshift__(1), m.__rshift__(1), m.__invert__())\n'
    's = (a * b).sum()\n'
    "print(s.__format__('.3f'), s.__float__(), s.__bool__(), torch.tensor(3).__index__(), s.__int__())\n"
    'print(a.__len__(), a.__getitem__(1), a.__contains__(2.0), a.__repr__(), b.__str__())\n'
    'print([t for t in b.__iter__()], b.__reversed__())\n'
    'y = b.clone()\n'
    'y.__setitem__(0, 5.0)\n'
    'r = y.__iadd__(b)\n'
    'print(y, r is y, y.__imul__(2), y.__isub__(1), y.__itruediv__(2), y)\n'
    'print(int.__add__(2, 3), (3).__mul__(4), float.__truediv__(1.0, 4), (2).__add__(3.0))\n'
    'print((2).__eq__(2.0), (2.0).__eq__(2), (7).__floordiv__(2), (7).__rsub__(10), (-3).__abs__())\n'
    'print((2.5).__round__(), (2.567).__round__(2), (7).__divmod__(2), (5).__pow__(3, 7))\n'
    "print(True.__add__(True), (1.5).__format__('.2f'), int.__mul__(True, 3), (1 + 2j).__mul__(2))\n"
    "print(getattr(a, '__mul__')(b), sum([a, b], torch.zeros(2)).__neg__())\n"
    'g = torch.autograd.grad(a.__rdiv__(2).__mul__(b).sum(), a)\n'
    'print(g)\n'
    'print(torch.autograd.gradcheck(lambda u, v: u.__rdiv__(2).__mul__(v.__rsub__(1)).__matmul__(w.double()), (a.detach().double().requires_grad_(), b.double().requires_grad_())))\n'
)

EXPECTED = (
    'tensor([4., 6.], grad_fn=<AddBackward0>) tensor([-2., -2.], grad_fn=<SubBackward0>) tensor([-1., -2.]) tensor([2., 1.], grad_fn=<MulBackward0>)\n'
    'tensor([0.3333, 0.5000], grad_fn=<DivBackward0>) tensor([1.0000, 0.5000], grad_fn=<MulBackward0>) tensor([0.5000, 1.0000], grad_fn=<DivBackward0>) tensor([0., 1.], grad_fn=<NotImplemented>) tensor([1.0000, 0.5000], grad_fn=<RemainderBackward0>)\n'
    'tensor([1., 4.], grad_fn=<PowBackward0>) tensor([2., 4.], grad_fn=<PowBackward2>) tensor([ 7., 10.], grad_fn=<SqueezeBackward4>) tensor([ 5., 11.], grad_fn=<MvBackward0>) tensor([ 5., 11.], grad_fn=<MvBackward0>)\n'
    'tensor([-1., -2.], grad_fn=<NegBackward0>) tensor([1., 2.], requires_grad=True) tensor([1., 2.], grad_fn=<AbsBackward0>) tensor([2., 3.], grad_fn=<AddBackward0>) tensor([3., 6.], grad_fn=<MulBackward0>)\n'
    'tensor([True, True]) tensor([True, True]) tensor([False,  True]) tensor([ True, False]) NotImplemented NotImplemented\n'
    'tensor([4, 1]) tensor([7, 3]) tensor([4, 1]) tensor([12,  6]) tensor([3, 1]) tensor([-7, -4])\n'
    '11.000 11.0 True 3 11\n'
    '2 tensor(2., grad_fn=<SelectBackward0>) True tensor([1., 2.], requires_grad=True) tensor([3., 4.])\n'
    '[tensor(3.), tensor(4.)] tensor([4., 3.])\n'
    'tensor([7.5000, 7.5000]) True tensor([7.5000, 7.5000]) tensor([7.5000, 7.5000]) tensor([7.5000, 7.5000]) tensor([7.5000, 7.5000])\n'
    '5 12 0.25 NotImplemented\n'
    'NotImplemented True 3 3 3\n'
    '2 2.57 (3, 1) 6\n'
    '2 1.50 3 (2+4j)\n'
    'tensor([3., 8.], grad_fn=<MulBackward0>) tensor([-4., -6.], grad_fn=<NegBackward0>)\n'
    '(tensor([-6., -2.]),)\n'
    'True\n'
)


def test_every_method_as_pytorch_and_python_give_it() -> None:
    # (the last line is gradcheck of a composition of them in float64: central differences)
    assert out(PROGRAM) == EXPECTED


ERRORS = (
    'import torch\n'
    'def t(f):\n'
    '    try:\n'
    '        print(repr(f()))\n'
    '    except Exception as e:\n'
    '        print(type(e).__name__, e)\n'
    'x = torch.tensor([1.0, 2.0])\n'
    's = torch.tensor(2.5)\n'
    't(lambda: s.__len__())\n'
    't(lambda: x.__bool__())\n'
    "t(lambda: x.__format__('.3f'))\n"
    't(lambda: x.__index__())\n'
    't(lambda: x.__getitem__(5))\n'
    't(lambda: x.__iand__(x))\n'
    't(lambda: x.__imatmul__)\n'
    't(lambda: s.__round__())\n'
    't(lambda: (3).__truediv__(0))\n'
    't(lambda: int.__add__(2.0, 1))\n'
    't(lambda: torch.Tensor.__add__(2, x))\n'
    't(lambda: torch.Tensor.__rsub__(2, x))\n'
    't(lambda: torch.Tensor.__add__(x))\n'
    't(lambda: (1.5).__invert__())\n'
    't(lambda: (1 + 1j).__lt__(2))\n'
    't(lambda: float.__add__(1, 2.0))\n'
    't(lambda: (2).__radd__(x))\n'
    't(lambda: x.__rmul__("ab"))\n'
)

ERRORS_EXPECTED = (
    'TypeError len() of a 0-d tensor\n'
    'RuntimeError Boolean value of Tensor with more than one value is ambiguous\n'
    'TypeError unsupported format string passed to Tensor.__format__\n'
    'TypeError only integer tensors of a single element can be converted to an index\n'
    'IndexError index 5 is out of bounds for dimension 0 with size 2\n'
    'NotImplementedError "bitwise_and_cpu" not implemented for \'Float\'\n'
    "AttributeError 'Tensor' object has no attribute '__imatmul__'\n"
    "AttributeError 'Tensor' object has no attribute '__round__'\n"
    'ZeroDivisionError division by zero\n'
    "TypeError descriptor '__add__' requires a 'int' object but received a 'float'\n"
    "TypeError descriptor '__add__' for 'torch._C.TensorBase' objects doesn't apply to a 'int' object\n"
    'NotImplemented\n'
    'NotImplemented\n'
    "AttributeError 'float' object has no attribute '__invert__'\n"
    'NotImplemented\n'
    "TypeError descriptor '__add__' requires a 'float' object but received a 'int'\n"
    'NotImplemented\n'
    'NotImplemented\n'
)


def test_errors_and_giving_way_in_python_and_pytorch_words() -> None:
    assert out(ERRORS) == ERRORS_EXPECTED


def test_float_of_a_tensor_that_requires_grad_warns_once_as_pytorch() -> None:
    text, warnings = run(
        "import torch\nx = torch.ones(2, requires_grad=True)\ns = x.sum()\n"
        "print(int(s), s.__int__(), bool(s))\nprint(s.__float__(), float(s), complex(s))\n"
    )
    assert text == "2 2 True\n2.0 2.0 (2+0j)\n"
    assert len(warnings) == 1 and "Converting a tensor with requires_grad=True" in warnings[0]
    assert "t.py:5:" in warnings[0]


def test_getattr_reads_them_as_the_attribute_does() -> None:
    assert out(
        "import torch\nx = torch.tensor([1.0, 2.0])\nf = getattr(x, '__mul__')\n"
        "print(f(3), getattr(int, '__add__')(1, 2), f.__name__, getattr(x, '__neg__')())\n"
    ) == "tensor([3., 6.]) 3 __mul__ tensor([-1., -2.])\n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("x.__add__.__self__", "`.__self__` is not accessible"),
        ("x.__repr__.__globals__", "`.__globals__` is not accessible"),
        ("int.__add__.__objclass__", "`.__objclass__` is not accessible"),
        ("x.__getattribute__('data')", "`.__getattribute__` is not accessible"),
        ("x.__reduce_ex__(2)", "`.__reduce_ex__` is not accessible"),
        ("x.__hash__()", "`.__hash__` is not accessible"),
        ("(1).__sizeof__()", "`.__sizeof__` is not accessible"),
        ("x.__add__.__call__(x)", "`.__call__` of a value of class 'builtin_function_or_method'"),
        ("'ab'.__mul__(10 ** 9)", "`.__mul__` of a value of class 'str' is not supported"),
        ("[1].__len__()", "`.__len__` of a value of class 'list' is not supported"),
        ("getattr(x, '__dict__')", "getattr(..., '__dict__') is not accessible"),
        ("getattr([1], '__len__')", "getattr(..., '__len__') is not accessible"),
        ("(2).__pow__(10 ** 7)", "the size of an integer in bits is 10,000,000"),
        ("(1).__lshift__(10 ** 9)", "over the limit"),
        ("torch.tensor(1.5).__format__('>999999999')", "the width in a format spec"),
        ("x.__iadd__(1)", "a leaf Variable that requires grad is being used in an in-place"),
        ("x.__setitem__(0, 2.0)", "a view of a leaf Variable that requires grad"),
    ],
)
def test_what_reaches_python_or_past_a_limit_is_refused(text: str, message: str) -> None:
    e = fails("import torch\nx = torch.ones(2, requires_grad=True)\ny = " + text)
    assert message in e.message
    assert e.span is not None and e.span.line == 3
