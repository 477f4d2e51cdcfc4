"""Complex numbers in programs: Python's own, and the refusals that keep complex tensors from
reaching code written for real ones (never a real number in silence)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import NotSupported
from tests.helpers.programs import error, out


def test_python_complex_numbers_are_pythons() -> None:
    text = (
        "a = 3 + 4j\n"
        "b = complex(1, -2)\n"
        "print(a * b, a / b, a - b, b ** 2, -a, +a, abs(a))\n"
        "print(a.real, a.imag, a.conjugate(), complex('2.5-1j'), complex(1j, 1j), complex())\n"
        "print(type(a), isinstance(a, complex), a == 3 + 4j, (-8) ** (1 / 3))\n"
        "print(f'{a:.2f}', '{:>10}'.format(b), repr(2 + 0j), str(1j))\n"
    )
    a, b = 3 + 4j, complex(1, -2)
    want = (
        f"{a * b} {a / b} {a - b} {b**2} {-a} {a} {abs(a)}\n"
        f"{a.real} {a.imag} {a.conjugate()} {complex('2.5-1j')} {complex(1j, 1j)} {0j}\n"
        f"<class 'complex'> True True {(-8) ** (1 / 3)}\n"
        f"{a:.2f} {b:>10} (2+0j) 1j\n"
    )
    assert out(text) == want


@pytest.mark.parametrize(
    "program, words",
    [
        ("x = 1j < 2j", "'<' not supported between instances of 'complex' and 'complex'"),
        ("x = 1j // 2", "unsupported operand type(s) for //"),
        ("x = 1j % 2", "unsupported operand type(s) for %"),
        ("x = 1j / 0", "complex division by zero"),
        ("x = (1 + 1j) ** 10**6", "complex exponentiation"),
        ("x = int(1j)", "int() argument must be a string or a real number, not 'complex'"),
        ("x = round(1j)", "doesn't define __round__"),
        ("x = f'{1j:010}'", "Zero padding is not allowed in complex format specifier"),
        ("x = f'{1j:d}'", "Unknown format code 'd'"),
        ("x = complex('1+2j', 3)", "can't take second arg if first is a string"),
    ],
)
def test_what_python_refuses_with_complex_numbers(program: str, words: str) -> None:
    assert words in error(program).message


@pytest.mark.parametrize(
    "program, words",
    [
        # a function whose complex support is not declared
        (
            "z = torch.tensor([1j])\nx = torch.logaddexp(z, z)",
            "not supported by torch.logaddexp() yet",
        ),
        ("z = torch.tensor([1j])\nx = z.max()", "\"max_all\" not implemented for 'ComplexFloat'"),
        ("z = torch.tensor([1j])\nx = z.min(0)", "min(): does not support complex input"),
        # one PyTorch has no complex kernel for: its own error (`names.COMPLEX_REFUSED`)
        ("z = torch.tensor([1j])\nx = torch.erf(z)", '"erf_vml_cpu" not implemented for \'Comp'),
        ("z = torch.tensor([1j])\nx = torch.sort(z)", " Sort does not support complex dtypes"),
        ("z = torch.tensor([1j])\nx = z.sign()", "Please use torch.sgn instead."),
        ("z = torch.tensor([1j])\nx = z.logcumsumexp(0)", "not supported by logcumsumexp() yet"),
        ("z = torch.tensor([1j])\nx = torch.cat([z, z]).logcumsumexp(0)", "not supported by"),
        ("z = torch.tensor([1j])\nx = torch.nn.functional.relu(z)", "clamp is not supported for"),
        # a record without complex rules, reached by an operator
        ("z = torch.tensor([1j])\nx = z // z", "not supported by floor_divide yet"),
        # linalg functions without complex support
        (
            "z = torch.tensor([[1j]])\nx = torch.linalg.matrix_rank(z)",
            "complex tensors are not supported",
        ),
        # a conversion to a real dtype
        ("z = torch.tensor([1j])\nx = z.numpy().astype(float)", "complex tensors are not"),
        ("z = torch.tensor([1j])\nx = torch.ones(1)\nx += z", "can't be cast to the desired"),
        # forward mode
        (
            "f = lambda x: (x * 1j).exp().abs()\n"
            "x = torch.func.jvp(f, (torch.ones(2),), (torch.ones(2),))",
            "forward-mode differentiation of complex tensors",
        ),
    ],
)
def test_complex_tensors_are_refused_where_no_complex_rule_exists(program: str, words: str) -> None:
    e = error("import torch\n" + program)
    assert words in e.message, e.message
    assert e.span is not None


def test_a_refusal_is_not_caught_by_the_program() -> None:
    from gradcli.lang.program import parse

    program = parse(
        "import torch\n"
        "try:\n"
        "    torch.logaddexp(torch.tensor([1j]), torch.tensor([1j]))\n"
        "except Exception:\n"
        "    print('caught')\n",
        "t.py",
    )
    with pytest.raises(NotSupported):
        program.run(dtype="float32")


def test_pytorchs_errors_are_the_programs() -> None:
    text = (
        "import torch\n"
        "z = torch.tensor([1 + 1j], requires_grad=True)\n"
        "for f in (lambda: z < 1, lambda: z.exp().sum().backward(), lambda: float(z),\n"
        "          lambda: torch.tensor([1.0]).imag, lambda: torch.view_as_real(torch.ones(2))):\n"
        "    try:\n"
        "        f()\n"
        "    except (RuntimeError, NotImplementedError) as e:\n"
        "        print(type(e).__name__, e)\n"
    )
    assert out(text) == (
        "NotImplementedError \"lt_cpu\" not implemented for 'ComplexFloat'\n"
        "RuntimeError grad can be implicitly created only for real scalar outputs but got "
        "torch.complex64\n"
        "RuntimeError value cannot be converted to type double without overflow\n"
        "RuntimeError imag is not implemented for tensors with non-complex dtypes.\n"
        "RuntimeError view_as_real is only supported for complex tensors\n"
    )


def test_transposes_conjugate_where_pytorchs_do() -> None:
    text = (
        "import torch\n"
        "a = torch.tensor([[1 + 2j, 3j], [-1j, 2 + 0j]])\n"
        "print(a.H)\n"
        "print(a.mH)\n"
        "print(a.adjoint())\n"
        "print(a.T)\n"
    )
    # (PyTorch's text: -1j is Python's -(1j), whose real part is -0.0)
    h = "tensor([[1.-2.j, -0.+1.j],\n        [0.-3.j, 2.-0.j]])\n"
    t = "tensor([[1.+2.j, -0.-1.j],\n        [0.+3.j, 2.+0.j]])\n"
    assert out(text) == h + h + h + t


def test_in_place_changes_of_complex_tensors() -> None:
    text = (
        "import torch\n"
        "z = torch.tensor([1 + 2j, 3 - 1j])\n"
        "z.mul_(2)\n"
        "z += 1j\n"
        "z[0] = 5j\n"
        "print(z)\n"
        "c = torch.zeros(2, dtype=torch.cfloat)\n"
        "c.copy_(torch.tensor([3.0, 4.0]))\n"
        "c[1] = 2\n"
        "print(c)\n"
    )
    assert out(text) == "tensor([0.+5.j, 6.-1.j])\ntensor([3.+0.j, 2.+0.j])\n"


@pytest.mark.parametrize(
    "program, words",
    [
        ("x[0] = 1j", "value cannot be converted to type float without overflow"),
        ("x += 1j", "result type ComplexFloat can't be cast to the desired output type Float"),
        ("x.add_(1j)", "result type ComplexFloat can't be cast to the desired output type Float"),
        ("x[0] = torch.tensor(1j)", "complex tensors are not supported by an item assignment"),
        ("x.copy_(torch.tensor([1j, 1j]))", "complex tensors are not supported by copy_()"),
    ],
)
def test_a_complex_value_never_goes_into_a_real_tensor(program: str, words: str) -> None:
    assert words in error("import torch\nx = torch.ones(2)\n" + program).message


def test_a_complex_tensor_made_by_an_op_arms_the_complex_checks() -> None:
    # torch.polar's result is the program's first complex tensor: sort must still refuse it
    # in PyTorch's words (it once sorted it silently, the process's flag left unset)
    from gradcli.core import tensor

    tensor.COMPLEX[0] = False
    text = (
        "z = torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 2.5]))\n"
        "try:\n    torch.sort(z)\nexcept RuntimeError as e:\n    print(e)\n"
    )
    assert out(text) == " Sort does not support complex dtypes on CPU\n"
