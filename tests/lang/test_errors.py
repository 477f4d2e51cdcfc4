"""Errors in programs: which ones a program's `except` catches (PyTorch's and Python's, with
their messages), which it never does (limits, what gradcli does not support), and where
errors point (spans inside functions, lambdas, comprehensions, f-strings)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError, LimitError
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse("import torch\n" + text, "p.py").run().output)


def fails(text: str, kind: type = GradcliError) -> GradcliError:
    with pytest.raises(kind) as info:
        parse("import torch\n" + text, "p.py").run()
    return info.value


def test_pytorch_errors_are_caught_with_their_message() -> None:
    text = (
        "try:\n    torch.ones(2, 3) @ torch.ones(2, 3)\nexcept RuntimeError as e:\n    print(e)\n"
        "x = torch.ones(2, requires_grad=True)\n"
        "try:\n    x.sum().backward()\n    x.sum().backward()\n    (x * x).backward()\n"
        "except RuntimeError as e:\n    print(e)\n"
    )
    assert out(text) == (
        "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)\n"
        "grad can be implicitly created only for scalar outputs\n"
    )


def test_python_errors_have_their_classes() -> None:
    text = (
        "for bad in ('[1][3]', 'k', 'z', 'i'):\n"
        "    try:\n"
        "        if bad == 'k':\n            {}['a']\n"
        "        elif bad == 'z':\n            1 // 0\n"
        "        elif bad == 'i':\n            int('x')\n"
        "        else:\n            [1][3]\n"
        "    except LookupError as e:\n        print('lookup', e)\n"
        "    except ArithmeticError as e:\n        print('arithmetic', e)\n"
        "    except Exception as e:\n        print('other', e)\n"
    )
    assert out(text) == (
        "lookup list index out of range\nlookup 'a'\n"
        "arithmetic integer division or modulo by zero\n"
        "other invalid literal for int() with base 10: 'x'\n"
    )


@pytest.mark.parametrize(
    "handler", ["except:", "except Exception:", "except BaseException:", "except RuntimeError:"]
)
def test_limits_are_never_caught(handler: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_LOOP_ITERATIONS", "50")
    text = f"try:\n    while True:\n        pass\n{handler}\n    print('caught')\n"
    e = fails(text, LimitError)
    assert "loop iterations" in e.message


def test_no_finally_runs_after_a_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_LOOP_ITERATIONS", "50")
    text = "try:\n    while True:\n        pass\nfinally:\n    print('after the limit')\n"
    with pytest.raises(LimitError):
        parse(text).run(echo=lambda s: pytest.fail(f"printed {s!r}"))


def test_what_gradcli_lacks_is_never_caught() -> None:
    e = fails(
        "try:\n    torch.linalg.ldl_factor(torch.eye(200))\n"
        "except Exception:\n    print('caught')\n"
    )
    assert "not supported" in e.message
    e = fails("try:\n    torch.ones(1).to('mps')\nexcept Exception:\n    pass\n")
    assert "CPU only" in e.message


def test_recursion_is_a_limit() -> None:
    e = fails("def f(n):\n    return f(n + 1)\ntry:\n    f(0)\nexcept Exception:\n    pass\n")
    assert isinstance(e, LimitError) and "depth of function calls" in e.message


def test_uncaught_raise_names_its_class_and_place() -> None:
    e = fails("def check(v):\n    raise ValueError(f'bad {v}')\ncheck(3)\n")
    assert e.message == "ValueError: bad 3"
    assert (e.span.line, e.span.col) == (3, 4)  # the raise, in the function's body


def test_raise_from_raises_the_exception_and_checks_its_cause() -> None:
    # Python's semantics: the exception raised is the first one; the cause (an exception, its
    # class, or None) is evaluated after it and must be an exception; the message of an
    # uncaught error names its cause in a note.
    text = (
        "def load(d, k):\n    try:\n        return d[k]\n    except KeyError as e:\n"
        "        raise ValueError(f'missing {k}') from e\n"
        "try:\n    load({}, 'w')\nexcept ValueError as e:\n    print('caught', e, e.args)\n"
        "try:\n    try:\n        1 / 0\n    except ZeroDivisionError:\n"
        "        raise RuntimeError('wrapped') from None\n"
        "except RuntimeError as e:\n    print('caught2', e)\n"
        "try:\n    raise KeyError('k') from ValueError\nexcept KeyError as e:\n"
        "    print('caught3', repr(e))\n"
        "try:\n    raise ValueError('x') from 5\nexcept TypeError as e:\n    print('caught4', e)\n"
        "order = []\n"
        "def mark(v):\n    order.append(v)\n    return ValueError(v)\n"
        "try:\n    raise mark('first') from mark('second')\nexcept ValueError as e:\n"
        "    print('caught5', e, order)\n"
    )
    assert out(text) == (
        "caught missing w ('missing w',)\n"
        "caught2 wrapped\n"
        "caught3 KeyError('k')\n"
        "caught4 exception causes must derive from BaseException\n"
        "caught5 first ['first', 'second']\n"
    )
    e = fails("def f():\n    raise ValueError('bad') from KeyError('inner')\nf()\n")
    assert e.message == "ValueError: bad"
    assert (e.span.line, e.span.col) == (3, 4)
    assert e.hint == "the direct cause: KeyError: 'inner'"
    # a PyTorch error caught and raised again from another keeps its own words
    e = fails(
        "try:\n    torch.ones(2) @ torch.ones(3)\nexcept RuntimeError as err:\n"
        "    raise err from ValueError('v')\n"
    )
    assert "inconsistent tensor size" in e.message or "size" in e.message


def test_assert_message_is_only_evaluated_on_failure() -> None:
    assert out("assert True, undefined_name\nprint('ok')\n") == "ok\n"
    e = fails("assert 1 == 2, f'{1} != {2}'\n")
    assert e.message == "AssertionError: 1 != 2"


def test_bare_raise_outside_a_handler() -> None:
    e = fails("raise\n")
    assert "No active exception to reraise" in e.message


def test_only_exception_classes_can_be_raised_or_caught() -> None:
    assert "must derive from BaseException" in fails("raise 3\n").message
    e = fails("try:\n    1 / 0\nexcept 3:\n    pass\n")
    assert "do not inherit from BaseException" in e.message


def test_caught_exceptions_expose_only_args() -> None:
    # `e.args` as Python's (the message, or what the program raised); nothing else of it
    got = "".join(
        parse(
            "try:\n    1 / 0\nexcept Exception as e:\n    print(e.args)\n"
            "try:\n    raise ValueError('a', 2)\nexcept ValueError as e:\n    print(e.args)\n",
            "t.py",
        )
        .run()
        .output
    )
    assert got == "('division by zero',)\n('a', 2)\n"
    e = fails("try:\n    1 / 0\nexcept Exception as e:\n    a = e.with_traceback\n")
    assert "'ZeroDivisionError' object has no attribute 'with_traceback'" in e.message


@pytest.mark.parametrize(
    "text, at",
    [
        ("f = lambda v: v.nope\ny = f(torch.ones(1))", (2, 15)),
        ("y = [v.nope for v in [torch.ones(1)]]", (2, 6)),
        ("def f(v):\n    w = v * 2\n    return w.nope\ny = f(torch.ones(1))", (4, 12)),
        ("x = torch.ones(1)\ns = f'{x.nope:>3}'", (3, 8)),
    ],
)
def test_errors_point_inside_functions_lambdas_comprehensions(
    text: str, at: tuple[int, int]
) -> None:
    e = fails(text)
    assert "has no attribute 'nope'" in e.message
    assert (e.span.line, e.span.col + 1) == at


def test_unbound_local() -> None:
    e = fails("x = 1\ndef f():\n    y = x\n    x = 2\n    return y\nf()\n")
    assert "cannot access local variable 'x'" in e.message


def test_call_errors_are_pythons() -> None:
    text = "def f(a, b=1, *, c):\n    return a\n"
    assert "missing 1 required positional argument: 'a'" in fails(text + "f(c=1)").message
    assert "missing 1 required keyword-only argument: 'c'" in fails(text + "f(1)").message
    assert "got an unexpected keyword argument 'd'" in fails(text + "f(1, c=1, d=2)").message
    assert "takes from 1 to 2 positional arguments but 3" in fails(text + "f(1, 2, 3)").message
    assert "got multiple values for argument 'a'" in fails(text + "f(1, a=2, c=0)").message


def test_hasattr_answers_dunders_as_python_without_reading_them() -> None:
    # (a dunder's answer is Python's for the value, from gradcli's table: nothing is read;
    # privates stay unreadable)
    text = (
        "x = torch.ones(1)\n"
        "print(hasattr(torch, '__dict__'), hasattr(x, '__class__'), hasattr(x, '_data'))\n"
        "print(hasattr(x, 'grad'), hasattr(x, 'sum'), hasattr([], 'append'))\n"
    )
    assert out(text) == "True True False\nTrue True True\n"


@pytest.mark.parametrize(
    "text",
    [
        "y = " + "a" * 50_000,
        "y = torch." + "a" * 50_000,
        "y = torch.ones(2)." + "a" * 50_000 + "()",
        "from torch.optim import " + "a" * 50_000 + "\n" + "a" * 50_000 + "()",
        "def f(x):\n    return x\nf(" + "a" * 50_000 + "=1)",
        "raise ValueError('" + "v" * 50_000 + "')",
    ],
    ids=["name", "torch_attribute", "method", "missing_import", "keyword", "raise"],
)
def test_errors_quoting_long_names_are_cut(text: str) -> None:
    e = fails(text)
    assert 50 < len(e.format()) < 2500


def test_a_caught_error_keeps_its_whole_text() -> None:
    assert (
        out(
            "try:\n    raise ValueError('" + "v" * 5000 + "')\nexcept ValueError as e:\n"
            "    print(len(str(e)))\n"
        )
        == "5000\n"
    )


@pytest.mark.parametrize(
    ("line", "hint"),
    [
        ("%matplotlib inline", "`%matplotlib inline` is an IPython magic"),
        ("%%time", "`%%time` is an IPython magic"),
        ("!pip install torch", "`!pip install torch` is a notebook's shell command"),
        ("x = (1\n     % )", "gradcli programs are Python syntax"),
        ("!= 3", "gradcli programs are Python syntax"),
        (">>> x = torch.ones(2)", "`>>>` is the prompt of an interactive session"),
        ("torch.randn?", "`torch.randn?` asks IPython for help"),
        ("for i in range(2):\n...     print(i)", "`>>>` is the prompt"),
        ("Parameter containing:", "`Parameter containing:` is what PyTorch prints"),
        ("<AddBackward0 object at 0x7f0>", "`<AddBackward0 object at 0x7f0>` is what PyTorch"),
    ],
)
def test_syntax_errors_on_notebook_lines_say_what_the_line_is(line: str, hint: str) -> None:
    with pytest.raises(GradcliError) as info:
        parse("import torch\n" + line + "\nprint(1)\n", "p.py")
    assert info.value.message.startswith("syntax error: ")
    assert info.value.hint.startswith(hint)


def test_a_bare_annotation_evaluates_its_target_but_not_the_annotation() -> None:
    text = (
        "class Box:\n    pass\n"
        "b = Box()\nb.w: undefined_in_annotation\nitems = [1, 2]\nitems[1]: int\n"
        "print(hasattr(b, 'w'), items)\n"
        "def f():\n    Out[2]: int\n"
        "try:\n    f()\nexcept NameError as e:\n    print(e)\n"
        "try:\n    Out[1]: tensor([1.0])\nexcept NameError as e:\n    print(e)\n"
    )
    assert out(text) == ("False [1, 2]\nname 'Out' is not defined\nname 'Out' is not defined\n")


@pytest.mark.parametrize(
    ("line", "hint"),
    [
        ("display(torch.ones(1))", "`display` is the notebook's"),
        ("get_ipython().run_line_magic('matplotlib', 'inline')", "`get_ipython()` exists only"),
        ("In [1]: x = 1", "`In [n]:` is a notebook's prompt"),
        ("Out[1]: 3", "`Out[n]:` is a notebook's output prompt"),
        ("tensor([1.0, 2.0])", "write torch.tensor(...)"),
    ],
)
def test_names_of_a_notebook_get_a_hint(line: str, hint: str) -> None:
    e = fails(line)
    assert e.message.endswith("is not defined")
    assert e.hint.startswith(hint)
