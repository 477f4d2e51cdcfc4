"""numpy.testing's assertions, against Python itself: the same passes, and the same
AssertionError (and TypeError) words where one fails (tensors are in the corpus, 1271)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from tests.helpers.programs import out, python_out

PRELUDE = "import numpy as np\nimport numpy.testing as npt\n"


def gradcli_prints(code: str) -> str:
    return out(PRELUDE + code + "\n")


def python_prints(code: str) -> str:
    return python_out(PRELUDE + code)


CALLS = [
    "npt.assert_allclose(np.ones(3), np.ones(3) + 1e-9)",
    "npt.assert_allclose(np.ones(3), np.ones(3) + 1e-3, rtol=1e-2)",
    "npt.assert_allclose(np.arange(4.0), [0, 1, 2, 3.1])",
    "npt.assert_allclose(np.ones((2, 2)), np.ones((2, 2)) * 1.1, 0, 0.05, err_msg='near')",
    "npt.assert_allclose([1.0, np.nan], [1.0, np.nan])",
    "npt.assert_allclose([1.0, np.nan], [1.0, np.nan], equal_nan=False)",
    "npt.assert_allclose(np.ones(2), np.ones(2, dtype=np.float32), strict=True)",
    "npt.assert_almost_equal(0.1 + 0.2, 0.3)",
    "npt.assert_almost_equal(1.0, 1.01, decimal=3)",
    "npt.assert_almost_equal(np.array([1.0, 2.0]), [1.0, 2.0001], 3)",
    "npt.assert_array_almost_equal([1.0, 2.0], [1.0, 2.01])",
    "npt.assert_array_equal(np.arange(3), [0, 1, 2])",
    "npt.assert_array_equal(np.arange(3), np.arange(4))",
    "npt.assert_equal([1, (2, 'a')], [1, (2, 'a')])",
    "npt.assert_equal([1, (2, 'a')], [1, (3, 'a')])",
    "npt.assert_equal(2.5, 2.5000001)",
    "npt.assert_allclose(np.ones(2), np.ones(2), 1e-7, 0, True, '', True, 3)",
    "npt.assert_allclose(np.ones(2), np.ones(2), tol=1)",
]


@pytest.mark.parametrize("call", CALLS)
def test_an_assertion_answers_as_numpy(call: str) -> None:
    code = (
        f"try:\n    {call}\n    print('passed')\n"
        "except (AssertionError, TypeError, ValueError) as e:\n    print(type(e).__name__, e)"
    )
    assert gradcli_prints(code) == python_prints(code)


def test_lists_nested_past_the_limit_are_refused_before_numpy_walks_them() -> None:
    code = "a = [1.0]\nfor i in range(150):\n    a = [a]\nnpt.assert_equal(a, a)"
    with pytest.raises(GradcliError, match="nesting"):
        gradcli_prints(code)


def test_a_program_object_is_refused() -> None:
    code = "class A:\n    pass\nnpt.assert_equal([A()], [A()])"
    with pytest.raises(GradcliError, match="takes arrays, numbers, strings or lists"):
        gradcli_prints(code)
