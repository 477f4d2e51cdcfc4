"""`unittest` in programs, against Python's own unittest: the assertion methods' verdicts and
messages on values drawn at random (numbers, strings, lists, tuples, dicts, sets, nested), and
whole test programs run by gradcli and by Python (standard output, exit status, the report on
standard error with its timing made equal), so that the rule is tested, not a list of
examples. Tensors in assertions are covered by the corpus (489, 490) against PyTorch."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import unittest

import pytest
from typer.testing import CliRunner

from gradcli.base.errors import GradcliError
from gradcli.cli.main import app
from gradcli.lang.program import parse

ATOMS = [0, 1, 2, -3, 0.5, 1.0, 1e-8, 0.1 + 0.2, 0.3, True, False, None, "a", "ab", "grad", ""]


def _value(rng: random.Random, depth: int = 0) -> object:
    kind = rng.random()
    if depth > 1 or kind < 0.45:
        return rng.choice(ATOMS)
    n = rng.randint(0, 12 if rng.random() < 0.2 else 4)
    items = [_value(rng, depth + 1) for _ in range(n)]
    if kind < 0.6:
        return items
    if kind < 0.7:
        return tuple(items)
    if kind < 0.8:
        return {f"k{i % 3}": v for i, v in enumerate(items)}
    if kind < 0.9:
        # (numbers only: the order of strings in a set is their hashes', random per process)
        return {v for v in items if isinstance(v, (int, float))}
    return "\n".join(str(v) for v in items) + rng.choice(["", "\n"])


def _near(rng: random.Random, v: object) -> object:
    """v, or a value like it (one item changed, dropped or added), or another value."""
    r = rng.random()
    if r < 0.3:
        return v
    if isinstance(v, list) and v and r < 0.8:
        w = list(v)
        i = rng.randrange(len(w))
        if r < 0.5:
            w[i] = _value(rng, 2)
        elif r < 0.65:
            del w[i]
        else:
            w.append(_value(rng, 2))
        return w
    if isinstance(v, str) and r < 0.8:
        return v + rng.choice(["x", "\n", "", " y"])
    return _value(rng)


METHODS = [
    ("assertEqual", 2),
    ("assertNotEqual", 2),
    ("assertTrue", 1),
    ("assertFalse", 1),
    ("assertIs", 2),
    ("assertIsNot", 2),
    ("assertIsNone", 1),
    ("assertIsNotNone", 1),
    ("assertIn", 2),
    ("assertNotIn", 2),
    ("assertGreater", 2),
    ("assertLessEqual", 2),
    ("assertListEqual", 2),
    ("assertDictEqual", 2),
    ("assertSetEqual", 2),
    ("assertMultiLineEqual", 2),
]
NUMBERS = [0, 1, 2, 0.5, 1.0, 1.00000001, 1.0001, 0.1 + 0.2, 0.3, -1e-9, 3, 2.5]


def _calls(seed: int) -> list[str]:
    rng = random.Random(seed)
    calls = []
    for _ in range(40):
        name, n = rng.choice(METHODS)
        a = _value(rng)
        args = [a] if n == 1 else [a, _near(rng, a)]
        if name == "assertIn" and rng.random() < 0.7:
            args = [rng.choice(ATOMS), _value(rng)]
            if isinstance(args[1], (int, float, bool, type(None))):
                args[1] = [args[1]]
        if name in ("assertIs", "assertIsNot"):
            # (identity of other values is how Python shares constants, not unittest's)
            args = [rng.choice([None, True, False]) for _ in range(2)]
        if name in ("assertGreater", "assertLessEqual"):
            args = [rng.choice(NUMBERS), rng.choice(NUMBERS)]
        text = ", ".join(repr(v) for v in args)
        if rng.random() < 0.2:
            text += ", msg=" + repr(rng.choice(["note", "lr too big", 3]))
        calls.append(f"t.{name}({text})")
    for _ in range(15):
        a, b = rng.choice(NUMBERS), rng.choice(NUMBERS)
        extra = rng.choice(["", ", places=3", ", places=1", ", delta=0.5", ", delta=0.001"])
        name = rng.choice(["assertAlmostEqual", "assertNotAlmostEqual"])
        calls.append(f"t.{name}({a!r}, {b!r}{extra})")
    return calls


def _program(calls: list[str]) -> str:
    lines = [
        "import unittest",
        "class T(unittest.TestCase):",
        "    def runTest(self):",
        "        pass",
        "t = T()",
    ]
    for call in calls:
        lines += [
            "try:",
            f"    {call}",
            "    print('passed')",
            "except AssertionError as e:",
            "    print('AssertionError:', e)",
            "except TypeError as e:",
            "    print('TypeError:', e)",
        ]
    return "\n".join(lines) + "\n"


def _python(program: str) -> str:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(program, {"__name__": "__main__", "unittest": unittest})
    return out.getvalue()


def _gradcli(program: str) -> str:
    return "".join(parse(program, "t.py").run().output)


@pytest.mark.parametrize("seed", range(25))
def test_assertion_messages_are_pythons(seed: int) -> None:
    program = _program(_calls(seed))
    want = _python(program)
    assert "AssertionError" in want and "passed" in want  # (the draw covers both outcomes)
    assert _gradcli(program) == want


def _run_both(tmp_path, program: str) -> tuple[tuple, tuple]:
    path = tmp_path / "prog.py"
    path.write_text(program)
    py = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    res = CliRunner().invoke(app, ["run", str(path)])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return (py.returncode, py.stdout, py.stderr), (res.exit_code, res.stdout, res.stderr)


def _timeless(err: str) -> str:
    return re.sub(r"Ran (\d+) tests? in \d+\.\d+s", r"Ran \1 tests", err)


SUITE = """
import unittest

log = []


def setUpModule():
    print("module set up")


class Base(unittest.TestCase):
    value = 2

    def helper(self):
        return self.value * 2

    def test_base(self):
        print("base test of", type(self).__name__)


class TestNumbers(Base):
    @classmethod
    def setUpClass(cls):
        print("class set up", cls.__name__)

    def setUp(self):
        self.items = [1, 2, 3]
        self.addCleanup(log.append, self._testMethodName)

    def tearDown(self):
        print("tear down", self.id())

    def test_sum(self):
        self.assertEqual(sum(self.items), 6)

    def test_helper(self):
        self.assertEqual(self.helper(), 4)

    def test_sub(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertLess(i, 5)

    @unittest.skip("later")
    def test_skipped(self):
        print("never")

    @unittest.expectedFailure
    def test_known_bug(self):
        self.assertEqual(1, 2)

    def test_skip_inside(self):
        self.skipTest("no data")

    data = [1, 2]  # a class attribute named like no test
    test_not_callable = 3


class ATestsFirst(unittest.TestCase):
    def test_z(self):
        print("z")

    def test_a(self):
        print("a", log)
"""


def test_a_passing_run_is_pythons(tmp_path) -> None:
    py, gc = _run_both(tmp_path, SUITE + "\nunittest.main(verbosity=2)\nprint('unreached')\n")
    assert py[0] == gc[0] == 0
    assert gc[1] == py[1]
    assert "unreached" not in gc[1]
    assert _timeless(gc[2]) == _timeless(py[2])


def test_exit_false_returns_and_the_program_goes_on(tmp_path) -> None:
    program = SUITE + (
        "\np = unittest.main(argv=['x'], exit=False)\n"
        "print(p.result.testsRun, p.result.wasSuccessful(), len(p.result.skipped))\n"
    )
    py, gc = _run_both(tmp_path, program)
    assert py[0] == gc[0] == 0
    assert gc[1] == py[1]
    assert _timeless(gc[2]) == _timeless(py[2])


FAILING = """
import unittest


class TestFails(unittest.TestCase):
    def setUp(self):
        print("set up", self._testMethodName)

    def test_fails(self):
        self.assertEqual([1, 2], [1, 3])
        print("not reached")

    def test_errors(self):
        {}["missing"]

    def test_sub(self):
        for i in range(4):
            with self.subTest(i=i):
                self.assertEqual(i % 2, 0)
        print("after the subtests")

    def test_ok(self):
        print("ok")

    @unittest.expectedFailure
    def test_unexpected(self):
        pass


class TestSetUpFails(unittest.TestCase):
    def setUp(self):
        raise ValueError("no")

    def test_never(self):
        print("never")
"""


@pytest.mark.parametrize("verbosity", [0, 1, 2])
def test_a_failing_run_exits_1_with_pythons_report(tmp_path, verbosity: int) -> None:
    program = FAILING + f"\nunittest.main(verbosity={verbosity})\nprint('unreached')\n"
    py, gc = _run_both(tmp_path, program)
    assert py[0] == gc[0] == 1
    assert gc[1] == py[1]
    # The report's lines but Python's tracebacks (gradcli shows the failing line's place),
    # then gradcli's message saying why the program stopped.
    want = [
        line
        for line in _timeless(py[2]).splitlines()
        if not line.startswith(("Traceback", '  File "', "    "))
    ]
    got = _timeless(gc[2]).splitlines()
    stop = next(i for i, line in enumerate(got) if "error: the tests failed" in line)
    assert "FAILED (failures=3, errors=2, unexpected successes=1)" in got[stop]
    report = [re.sub(r"^\S*prog\.py:\d+:\d+: ", "", line) for line in got[:stop]]
    assert report == want


def test_the_runner_and_loader(tmp_path) -> None:
    program = SUITE + (
        "\nsuite = unittest.TestLoader().loadTestsFromTestCase(TestNumbers)\n"
        "suite.addTest(ATestsFirst('test_z'))\n"
        "print(suite.countTestCases())\n"
        "r = unittest.TextTestRunner(verbosity=2).run(suite)\n"
        "print(r.testsRun, len(r.failures), len(r.errors), len(r.skipped), r.wasSuccessful())\n"
        "print(len(r.expectedFailures), len(r.unexpectedSuccesses))\n"
        "s = unittest.TestSuite()\n"
        "s.addTests([TestNumbers('test_sum'), TestNumbers('test_helper')])\n"
        "print(unittest.TextTestRunner(verbosity=0).run(s).testsRun)\n"
    )
    py, gc = _run_both(tmp_path, program)
    assert py[0] == gc[0] == 0
    assert gc[1] == py[1]
    assert _timeless(gc[2]) == _timeless(py[2])


@pytest.mark.parametrize(
    "code",
    [
        "with self.assertRaises(ZeroDivisionError) as cm:\n            1 / 0\n"
        "        print(type(cm.exception).__name__, cm.exception)",
        "with self.assertRaises((KeyError, IndexError)):\n            [][1]\n        print('ok')",
        "self.assertRaises(ValueError, int, 'x')\n        print('ok')",
        "self.assertRaises(ValueError, int, '3')",
        "with self.assertRaises(TypeError, msg='why'):\n            pass",
        "with self.assertRaises(KeyError):\n            [][1]",
        "with self.assertRaisesRegex(ValueError, 'invalid literal'):\n            int('x')\n"
        "        print('matched')",
        "with self.assertRaisesRegex(ValueError, 'nope'):\n            int('x')",
        "self.assertRaises(3, int, 'x')",
        "with self.assertRaises(ValueError):\n            raise ValueError('mine')\n"
        "        print('swallowed')",
    ],
)
def test_assert_raises_is_pythons(tmp_path, code: str) -> None:
    program = (
        "import unittest\n\n\nclass T(unittest.TestCase):\n    def runTest(self):\n"
        f"        {code}\n\n\nt = T()\n"
        "try:\n    t.runTest()\nexcept AssertionError as e:\n    print('AssertionError:', e)\n"
        "except (TypeError, IndexError) as e:\n    print(type(e).__name__, e)\n"
    )
    py, gc = _run_both(tmp_path, program)
    assert (gc[0], gc[1]) == (py[0], py[1])


@pytest.mark.parametrize(
    "program, words",
    [
        ("from torch.testing._internal.common_utils import TestCase", "internal test machinery"),
        ("import torch.testing._internal.common_utils as cu", "internal test machinery"),
        ("import unittest\nunittest.main(argv=['a', '-v'])", "command-line arguments"),
        ("import unittest\nunittest.main(buffer=True)", "buffer="),
        ("import unittest\nunittest.TestCase.maxDiff = None", "is not supported by gradcli"),
        (
            "import unittest\nclass T(unittest.TestCase):\n    def runTest(self):\n"
            "        self.assertRaisesRegex(ValueError, 'a.*b', int, 'x')\nT().runTest()",
            "regular expressions are not supported",
        ),
        (
            "import unittest\nclass T(unittest.TestCase):\n    def runTest(self):\n"
            "        self.assertWarns(UserWarning, print)\nT().runTest()",
            "assertWarns is not supported",
        ),
    ],
)
def test_refusals_in_plain_words(program: str, words: str) -> None:
    with pytest.raises(GradcliError) as info:
        parse(program, "t.py").run()
    assert words in info.value.message


@pytest.mark.parametrize(
    "body",
    [
        "with self.assertRaises(Exception):\n            while True:\n                pass",
        "with self.subTest(i=1):\n            while True:\n                pass",
        "self.assertRaises(Exception, self.test_a)",
        "unittest.main(exit=False)",
    ],
)
def test_a_limit_inside_a_test_ends_the_run(body: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither assertRaises, a subTest nor the runner catches a limit: the run stops there."""
    monkeypatch.setenv("GRADCLI_LOOP_ITERATIONS", "1000")
    program = (
        "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n"
        f"        {body}\nunittest.main()\n"
    )
    with pytest.raises(GradcliError) as info:
        parse(program, "t.py").run()
    message = info.value.message
    assert "the tests failed" not in message
    assert re.search(r"loop iterations|depth of function calls", message), message
