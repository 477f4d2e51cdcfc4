"""`numpy.set_printoptions` / `get_printoptions` in programs: NumPy arrays print as NumPy prints
them under the same options, the options last for one run, and bad values are refused at the
call that sets them."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

ARRAYS = [
    [1e-5, 1 / 3, 2.0],
    [[0.5, -1.25, 123456.789], [float("nan"), float("inf"), -0.0]],
    list(range(1500)),
    [1e-12, 3.0],
]

OPTIONS = [
    {"precision": 3},
    {"suppress": True, "precision": 4},
    {"threshold": 5, "edgeitems": 1},
    {"linewidth": 30},
    {"precision": 2, "floatmode": "fixed", "sign": "+"},
    {"nanstr": "NaN", "infstr": "Inf", "floatmode": "unique"},
    {"floatmode": "maxprec_equal", "precision": 3},
]


def output(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def program(opts: dict, values: list) -> str:
    args = ", ".join(f"{k}={v!r}" for k, v in opts.items())
    literal = repr(values).replace("nan", "float('nan')").replace("inf", "float('inf')")
    return f"import numpy as np\nnp.set_printoptions({args})\nprint(np.array({literal}))\n"


@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: ",".join(o))
@pytest.mark.parametrize("values", ARRAYS, ids=["vec", "mat", "long", "tiny"])
def test_arrays_print_as_numpy_under_the_options(opts: dict, values: list) -> None:
    with np.printoptions(**opts):
        expected = str(np.array(values)) + "\n"
    assert output(program(opts, values)) == expected


def test_options_accumulate_and_get_printoptions_reports_them() -> None:
    text = (
        "import numpy as np\n"
        "np.set_printoptions(precision=3)\n"
        "np.set_printoptions(suppress=True)\n"
        "o = np.get_printoptions()\n"
        "print(o['precision'], o['suppress'], o['threshold'], sorted(o))\n"
        "print(np.array([1e-7, 2/3]), f'{np.array([0.125])}', [np.array([1/3])])\n"
    )
    with np.printoptions(precision=3, suppress=True):
        arrays = f"{np.array([1e-7, 2 / 3])} {np.array([0.125])} {[np.array([1 / 3])]}"
        keys = sorted(np.get_printoptions())
    assert output(text) == f"3 True 1000 {keys}\n{arrays}\n"


def test_options_last_for_one_run() -> None:
    output(program({"precision": 2, "floatmode": "fixed"}, [1 / 3]))
    fresh = (
        "import numpy as np\nprint(np.array([1/3]))\nprint(np.get_printoptions()['precision'])\n"
    )
    assert output(fresh) == f"{np.array([1 / 3])}\n8\n"
    assert np.get_printoptions()["precision"] == 8  # the process's NumPy is left as it was


def test_threshold_maxsize_prints_every_element() -> None:
    text = (
        "import sys\nimport numpy as np\nnp.set_printoptions(threshold=sys.maxsize)\n"
        "print(np.arange(1200))\n"
    )
    with np.printoptions(threshold=np.iinfo(np.int64).max):
        expected = str(np.arange(1200)) + "\n"
    assert output(text) == expected


@pytest.mark.parametrize(
    "call, message",
    [
        ("precision=-1", "precision must be a non-negative integer, got -1"),
        ("precision=1.5", "precision must be an integer"),
        ("threshold='x'", "threshold must be numeric"),
        ("threshold=float('nan')", "threshold must be non-NAN"),
        ("sign='x'", "sign option must be one of"),
        ("floatmode='round'", "floatmode option must be one of"),
        ("suppress='yes'", "suppress must be True or False, not str"),
        ("formatter={'float': str}", "formatter=...) is not supported by gradcli"),
        ("legacy='1.13'", "legacy=...) is not supported by gradcli"),
        ("bogus=1", "unexpected keyword argument 'bogus'"),
    ],
)
def test_bad_options_are_refused_where_they_are_set(call: str, message: str) -> None:
    with pytest.raises(GradcliError) as e:
        output(f"import numpy as np\nnp.set_printoptions({call})\n")
    assert message in e.value.message
    assert e.value.span is not None and e.value.span.line == 2


def test_a_refused_option_changes_nothing() -> None:
    text = (
        "import numpy as np\n"
        "try:\n    np.set_printoptions(precision=2, sign='x')\nexcept ValueError as e:\n"
        "    print('refused')\n"
        "print(np.array([1/3]))\n"
    )
    assert output(text) == f"refused\n{np.array([1 / 3])}\n"
