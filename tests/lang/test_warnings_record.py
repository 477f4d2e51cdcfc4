"""`warnings.catch_warnings(record=True)`: the warnings shown inside the block collected as
Python's WarningMessage records (`.message`, `.category`, `.filename`, `.lineno`), under the
block's filters ("always", "once", the default once for each place, "ignore", "error"),
PyTorch's own warnings too; and `issubclass` on warning categories and program classes.
Each expected text is what Python 3 / PyTorch 2.13 print (checked with /work/torchenv)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

HEAD = "import warnings\nimport torch\n"


def out(text: str) -> str:
    return "".join(parse(HEAD + text, "t.py").run(dtype="float32").output)


def stderr_of(text: str) -> list[str]:
    return list(parse(HEAD + text, "t.py").run(dtype="float32").warnings)


def test_records_have_pythons_fields() -> None:
    got = out(
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    warnings.warn('plain')\n"
        '    warnings.warn("it\'s old", DeprecationWarning)\n'
        "print(len(w), type(w).__name__)\n"
        "for r in w:\n"
        "    print(r.category, r.category.__name__, r.message, repr(r.message), r.lineno)\n"
        "print(w[1])\n"
        "print(w[0].message.args, w[0].line, w[0].file, w[0].source)\n"
        "print(isinstance(w[1].message, Warning), w[1].category is DeprecationWarning)\n"
    )
    assert got == (
        "2 list\n"
        "<class 'UserWarning'> UserWarning plain UserWarning('plain') 5\n"
        "<class 'DeprecationWarning'> DeprecationWarning it's old DeprecationWarning(\"it's old\")"
        " 6\n"
        "{message : DeprecationWarning(\"it's old\"), category : 'DeprecationWarning', "
        "filename : 't.py', lineno : 6, line : None}\n"
        "('plain',) None None None\nTrue True\n"
    )


def test_the_filters_decide_what_is_recorded() -> None:
    got = out(
        "def warn_twice(text, cat=UserWarning):\n"
        "    for i in range(2):\n        warnings.warn(text, cat)\n"
        "with warnings.catch_warnings(record=True) as a:\n"
        "    warnings.simplefilter('always')\n    warn_twice('x')\n    warn_twice('x')\n"
        "with warnings.catch_warnings(record=True) as b:\n"
        "    warn_twice('y')\n    warn_twice('z')\n"
        "with warnings.catch_warnings(record=True) as c:\n"
        "    warnings.simplefilter('once')\n    warn_twice('x')\n    warn_twice('y')\n"
        "with warnings.catch_warnings(record=True) as d:\n"
        "    warnings.simplefilter('always')\n"
        "    warnings.filterwarnings('ignore', message='sk')\n"
        "    warnings.simplefilter('ignore', RuntimeWarning)\n"
        "    warn_twice('skip me')\n    warn_twice('keep')\n    warn_twice('r', RuntimeWarning)\n"
        "print(len(a), [str(m.message) for m in b], [str(m.message) for m in c], len(d))\n"
    )
    # the default filter: once for each place (the same line), each block afresh
    assert got == "4 ['y', 'z'] ['x', 'y'] 2\n"


def test_blocks_nest_and_the_filters_and_stderr_come_back_after() -> None:
    text = (
        "with warnings.catch_warnings(record=True) as outer:\n"
        "    warnings.simplefilter('always')\n"
        "    warnings.warn('one')\n"
        "    with warnings.catch_warnings(record=True) as inner:\n"
        "        warnings.warn('two')\n"
        "    warnings.warn('three')\n"
        "print([str(m.message) for m in outer], [str(m.message) for m in inner])\n"
        "warnings.warn('to stderr')\n"
    )
    assert out(text) == "['one', 'three'] ['two']\n"
    assert [w.split("warning: ")[1] for w in stderr_of(text)] == ["to stderr"]


def test_pytorchs_warnings_are_recorded_at_the_programs_line() -> None:
    got = out(
        "x = torch.ones(2, requires_grad=True)\ny = x * 2\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n    g = y.grad\n"
        "print(len(w), w[0].category, w[0].lineno, str(w[0].message)[:38])\n"
    )
    assert got == "1 <class 'UserWarning'> 7 The .grad attribute of a Tensor that i\n"


def test_error_filter_and_a_warning_instance() -> None:
    got = out(
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    warnings.warn(RuntimeWarning('given as an instance'))\n"
        "print(w[0].category, w[0].message)\n"
        "with warnings.catch_warnings():\n"
        "    warnings.simplefilter('error')\n"
        "    try:\n        warnings.warn('now an error', FutureWarning)\n"
        "    except FutureWarning as e:\n        print('caught', e, e.args)\n"
    )
    assert got == (
        "<class 'RuntimeWarning'> given as an instance\ncaught now an error ('now an error',)\n"
    )


def test_issubclass() -> None:
    got = out(
        "import torch.nn as nn\n"
        "class M:\n    pass\nclass Net(M, nn.Module):\n    pass\nclass Sub(Net):\n    pass\n"
        "print(issubclass(DeprecationWarning, Warning), issubclass(UserWarning, (ValueError,)))\n"
        "print(issubclass(Sub, M), issubclass(Sub, nn.Module), issubclass(M, nn.Module))\n"
        "print(issubclass(bool, int), issubclass(nn.Parameter, torch.Tensor), "
        "issubclass(nn.Linear, nn.ReLU), issubclass(nn.Linear, nn.Module))\n"
    )
    assert got == "True False\nTrue True False\nTrue True False True\n"
    for text, message in (
        ("issubclass(3, int)", "issubclass() arg 1 must be a class"),
        ("issubclass(int, 3)", "issubclass() arg 2 must be a class, a tuple of classes"),
    ):
        with pytest.raises(GradcliError, match=message.replace("(", r"\(").replace(")", r"\)")):
            out(text)


def test_a_record_prints_as_pythons() -> None:
    got = out(
        "with warnings.catch_warnings(record=True) as w:\n    warnings.warn('x')\n"
        "print(type(w[0]), repr(w[0])[:33], str(w)[:34])\nprint(f'{w[0]}')\n"
    )
    assert got == (
        "<class 'warnings.WarningMessage'> <warnings.WarningMessage object a "
        "[<warnings.WarningMessage object a\n"
        "{message : UserWarning('x'), category : 'UserWarning', filename : 't.py', "
        "lineno : 4, line : None}\n"
    )


def test_pytorchs_warnings_follow_the_filters_as_pythons() -> None:
    got = out(
        "x = torch.ones(2, requires_grad=True)\ny = x * 2\n"
        "with warnings.catch_warnings(record=True) as a:\n"
        "    for i in range(3):\n        g = y.grad\n"
        "with warnings.catch_warnings(record=True) as b:\n"
        "    warnings.simplefilter('always')\n"
        "    for i in range(3):\n        g = y.grad\n"
        "with warnings.catch_warnings(record=True) as c:\n"
        "    warnings.simplefilter('ignore')\n    g = y.grad\n"
        "print(len(a), len(b), len(c))\n"
    )
    assert got == "1 3 0\n"


def test_stacklevel_places_the_warning_at_the_callers_line() -> None:
    got = out(
        "def old_api(x):\n"
        "    warnings.warn('old_api is deprecated', DeprecationWarning, stacklevel=2)\n"
        "    return x\n"
        "def wrapper(x):\n    return old_api(x)\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    old_api(1)\n    old_api(2)\n"
        "    for i in range(3):\n        old_api(i)\n"
        "    wrapper(1)\n    wrapper(2)\n"
        "    warnings.warn('here', stacklevel=1)\n"
        "print(len(w), [r.lineno for r in w])\n"
    )
    # the default filter: once for each (caller's) line
    assert got == "5 [9, 10, 12, 7, 15]\n"


def test_pytorchs_future_warnings_have_their_category() -> None:
    # (feat24) clip_grad_norm, weight_norm and state_dict's positional arguments are
    # FutureWarnings in PyTorch 2.13 (its Python code's category=FutureWarning)
    from gradcli.lang.program import parse

    got = "".join(
        parse(
            "import warnings\nimport torch\nimport torch.nn as nn\nm = nn.Linear(2, 2)\n"
            "m(torch.ones(1, 2)).sum().backward()\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    torch.nn.utils.clip_grad_norm(m.parameters(), 1.0)\n"
            "    torch.nn.utils.weight_norm(nn.Linear(2, 2))\n"
            "    m.state_dict(None)\n"
            "    torch.range(0, 1)\n"
            "print([x.category.__name__ for x in w])\n",
            "t.py",
        )
        .run(dtype="float32")
        .output
    )
    assert got == "['FutureWarning', 'FutureWarning', 'FutureWarning', 'UserWarning']\n"
