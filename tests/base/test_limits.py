"""Every named limit at its boundary: the limit passes, one more fails with a clear message.

Limits are lowered with their environment variables (`GRADCLI_<NAME>`), as a user raises them,
so that the boundaries are cheap to reach; a few are also checked at their defaults.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from gradcli.analysis import api
from gradcli.base import limits
from gradcli.base.errors import GradcliError, LimitError
from gradcli.cli.main import app
from gradcli.lang.program import parse


def ok(text: str) -> api.Run:
    return api.load(text)


def refused(text: str, limit: limits.Limit) -> LimitError:
    with pytest.raises(LimitError) as info:
        api.load(text)
    e = info.value
    msg = e.format()
    assert f"({limit.name})" in msg, msg
    assert limit.env in msg, msg
    assert "over the limit" in msg or "limit" in msg
    return e


def test_every_limit_is_named_and_overridable(monkeypatch: pytest.MonkeyPatch) -> None:
    names = [lim.name for lim in limits.ALL]
    assert len(names) == len(set(names))
    for lim in limits.ALL:
        assert lim.env == "GRADCLI_" + lim.name.upper()
        monkeypatch.delenv(lim.env, raising=False)  # (conftest bounds the suite's time)
        assert lim.value == lim.default > 0
        monkeypatch.setenv(lim.env, "7")
        assert lim.value == 7
        monkeypatch.setenv(lim.env, "not a number")  # refused, never the default in silence
        with pytest.raises(LimitError, match="is not a (whole number|number of seconds)"):
            lim.read()
        monkeypatch.setenv(lim.env, "0")
        assert lim.value == 1  # a limit is at least 1
        monkeypatch.delenv(lim.env)


def test_limits_are_read_once_per_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_TENSOR_ELEMENTS", "5")
    with limits.BUDGET.run():
        monkeypatch.setenv("GRADCLI_TENSOR_ELEMENTS", "6")
        assert limits.TENSOR_ELEMENTS.value == 5
    assert limits.TENSOR_ELEMENTS.value == 6


def test_source_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_SOURCE_BYTES", "20")
    text = "x = 1" + " " * 14 + "\n"  # 20 bytes
    assert len(text.encode()) == 20
    parse(text)
    with pytest.raises(LimitError, match="the program's size in bytes is 21, over the limit"):
        parse(text + " ")
    # Bytes, not characters: 'é' is two bytes.
    with pytest.raises(LimitError):
        parse("x = 'é'" + " " * 12 + "\n")


def test_source_bytes_default_on_files(tmp_path) -> None:
    big = tmp_path / "big.py"
    big.write_bytes(b"#" * (limits.SOURCE_BYTES.default + 1))
    r = CliRunner().invoke(app, ["run", str(big)])
    assert r.exit_code == 1
    assert "over the limit of 1,000,000" in r.stderr
    assert "GRADCLI_SOURCE_BYTES" in r.stderr


def _unary(depth: int) -> str:
    # Module (0) > Assign (1) > UnaryOp (2..k+1) > USub/Constant (k+2): AST depth k + 2.
    return "x = " + "-" * (depth - 2) + "1\n"


def test_nesting_default() -> None:
    parse(_unary(limits.NESTING.default))
    with pytest.raises(LimitError) as info:
        parse(_unary(limits.NESTING.default + 1))
    msg = info.value.format()
    assert "nested too deeply (over 100 levels)" in msg
    assert "<program>:1:" in msg and "^" in msg


def test_nesting_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_NESTING", "20")
    parse(_unary(20))
    with pytest.raises(LimitError, match="over 20 levels"):
        parse(_unary(21))


def test_nesting_beyond_pythons_parser() -> None:
    # Deeper than Python's own parser goes: a clean error, not a RecursionError.
    with pytest.raises(LimitError, match="nested too deeply to parse"):
        parse("x = " + "-" * 100_000 + "1")
    with pytest.raises(GradcliError, match="too many nested parentheses"):
        parse("x = " + "(" * 1000 + ")" * 1000)


def test_tensor_elements(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_TENSOR_ELEMENTS", "100")
    ok("x = torch.zeros(10, 10)")
    refused("x = torch.zeros(10, 11)", limits.TENSOR_ELEMENTS)
    ok("x = torch.ones(10, 1) + torch.ones(1, 10)")
    refused("x = torch.ones(11, 1) + torch.ones(1, 10)", limits.TENSOR_ELEMENTS)
    ok("x = torch.ones(1, 10).expand(10, 10)")
    refused("x = torch.ones(1, 10).expand(11, 10)", limits.TENSOR_ELEMENTS)
    ok("x = torch.arange(100)")
    refused("x = torch.arange(101)", limits.TENSOR_ELEMENTS)


def test_tensor_elements_default_refuses_before_allocating() -> None:
    t = time.monotonic()
    e = refused("x = torch.zeros(100000, 100000)", limits.TENSOR_ELEMENTS)
    assert time.monotonic() - t < 2
    assert "10,000,000,000, over the limit of 10,000,000" in e.message
    refused("x = torch.randn(10**5, 10**5)", limits.TENSOR_ELEMENTS)
    refused("x = torch.ones(10**5, 1) @ torch.ones(1, 10**5)", limits.TENSOR_ELEMENTS)
    refused("x = torch.linspace(0, 1, 10**12)", limits.TENSOR_ELEMENTS)


def test_list_items(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_LIST_ITEMS", "10")
    ok("x = [0] * 10")
    refused("x = [0] * 11", limits.LIST_ITEMS)
    ok("x = [0] * 5 + [1] * 5")
    refused("x = [0] * 5 + [1] * 6", limits.LIST_ITEMS)
    ok("x = list(range(10))")
    refused("x = list(range(11))", limits.LIST_ITEMS)
    # Shared sub-lists: printing visits every item (l2 = [l, l] doubles each time).
    ok("l = [1]\nl = [l, l]\nl = [l, l]\nprint(l)")  # 2 + 2*2 + 4*1 = 10 visits
    refused("l = [1, 1]\nl = [l, l]\nl = [l, l]\nprint(l)", limits.LIST_ITEMS)


def test_list_items_default() -> None:
    refused("x = list(range(10**18))", limits.LIST_ITEMS)
    refused("x = [1] * 10**9", limits.LIST_ITEMS)
    refused("x = torch.Size(range(10**9))", limits.LIST_ITEMS)
    # 2**60 shared items: refused by their count, not by walking them (a walk would end in
    # the time limit, a different error).
    refused("l = [1]\nfor i in range(60):\n    l = [l, l]\nprint(l)", limits.LIST_ITEMS)


def test_string_chars(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_STRING_CHARS", "4")
    ok("s = 'ab' + 'ab'")
    refused("s = 'ab' + 'abc'", limits.STRING_CHARS)
    refused("s = str([1, 2, 3])", limits.STRING_CHARS)


def test_output_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_OUTPUT_BYTES", "8")
    assert ok("print('abc')\nprint('abc')").output == ["abc\n", "abc\n"]  # 8 characters
    refused("print('abc')\nprint('abcd')", limits.OUTPUT_BYTES)


def test_loop_iterations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_LOOP_ITERATIONS", "10")
    ok("for i in range(10):\n    pass")
    # Known in advance: refused before the first iteration.
    e = refused("for i in range(11):\n    pass", limits.LOOP_ITERATIONS)
    assert "this loop would run 11 times" in e.message
    assert e.span is not None and (e.span.line, e.span.col) == (1, 9)
    # Counted over all loops of the run.
    ok("for i in range(5):\n    pass\nfor j in range(5):\n    pass")
    e = refused(
        "for i in range(5):\n    pass\nfor j in range(6):\n    pass", limits.LOOP_ITERATIONS
    )
    assert "the number of loop iterations is 11" in e.message


def test_loop_iterations_default_is_instant() -> None:
    t = time.monotonic()
    refused("for i in range(10**18):\n    x = 1", limits.LOOP_ITERATIONS)
    refused("x = torch.ones(10**7)\nfor v in x:\n    pass", limits.LOOP_ITERATIONS)
    assert time.monotonic() - t < 2


@pytest.fixture
def frozen_heap():
    """The heap of the process as the CLI has it when a program runs: what was there before is
    frozen out of the collector's walks (`live_nodes` walks the rest; a test process holds the
    objects of every test before, the CLI's start-up ones are frozen)."""
    import gc

    gc.freeze()
    yield
    gc.unfreeze()


def test_graph_nodes(monkeypatch: pytest.MonkeyPatch, frozen_heap: None) -> None:
    monkeypatch.setenv("GRADCLI_GRAPH_NODES", "10")
    loop = "x = torch.ones(1, requires_grad=True)\nfor i in range({n}):\n    x = x + 1"
    ok(loop.format(n=10))
    e = refused(loop.format(n=11), limits.GRAPH_NODES)
    assert "the number of operations recorded in the graph is 11" in e.message
    # Operations that record nothing (no input requires grad) do not count.
    ok("x = torch.ones(1)\nfor i in range(50):\n    x = x + 1")
    # A new run starts from zero.
    ok(loop.format(n=10))
    # What is bounded is the graph a run holds: a loop whose steps free their graphs runs on
    # (PyTorch's training loops), one that keeps them is stopped at the limit, counted exactly.
    freed = (
        "x = torch.tensor(1.0, requires_grad=True)\n"
        "for i in range({n}):\n    y = x * 3 + 1\n    y.backward()\n"
    )
    ok(freed.format(n=200))
    kept = (
        "x = torch.tensor(1.0, requires_grad=True)\nk = []\n"
        "for i in range({n}):\n    k.append(x * 3)\n    y = x * 2\n"
    )
    ok(kept.format(n=8))  # at most 8 kept, the old y and the new one: 10
    e = refused(kept.format(n=40), limits.GRAPH_NODES)
    assert "the number of operations recorded in the graph is 11" in e.message


def test_graph_nodes_counted_again_after_a_sixteenth(
    monkeypatch: pytest.MonkeyPatch, frozen_heap: None
) -> None:
    """Past the limit the live nodes are counted, and not again before a sixteenth of the
    limit more: a run that holds close to the limit is not walked at every operation."""
    monkeypatch.setenv("GRADCLI_GRAPH_NODES", "1600")
    counts: list[int] = []
    real = limits.BUDGET.live_nodes
    assert real is not None

    def counting() -> int:
        counts.append(real())
        return counts[-1]

    monkeypatch.setattr(limits.BUDGET, "live_nodes", counting)
    held = (
        "x = torch.tensor(1.0, requires_grad=True)\nk = [x * 1 for i in range(1590)]\n"
        "for i in range(2000):\n    y = x * 3\n"
    )
    ok(held)
    # 1,590 held: counted at 1,601 made, then every 100 at most (1600 // 16), not every 10
    assert counts and all(c >= 1590 for c in counts)
    assert len(counts) <= 2000 // 100 + 1, len(counts)


def test_time_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_TIME_SECONDS", "1")
    ok("x = torch.ones(3, requires_grad=True)\ny = (x * x).sum()")
    t = time.process_time()  # (the limit is of CPU time: a loaded machine does not shorten it)
    e = refused(
        "x = torch.ones(1, requires_grad=True)\nfor i in range(1000000):\n    x = x * 1.0 + 0.0",
        limits.TIME_SECONDS,
    )
    used = time.process_time() - t
    assert used < 4  # (imports made on the way count too)
    assert "has run for over 1 seconds, the time limit" in e.message
    if "wall-clock time (the backstop)" in e.format():
        # a machine so loaded that the process had under a third of a core: the backstop
        # stopped it first, legitimately, before a second of CPU time
        assert used < 1.5
    else:
        assert "seconds of CPU time" in e.format()
    assert e.span is not None  # the statement it was running


def test_time_seconds_counts_cpu_time_with_a_wall_clock_backstop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GRADCLI_TIME_SECONDS", "1")
    real = time.monotonic
    program = "x = torch.ones(3)\nfor i in range(2000):\n    x = x * 1.0\n"
    # the wall clock 2 seconds ahead (a machine too busy to run us): under the backstop (3 x 1)
    monkeypatch.setattr(limits.time, "monotonic", lambda: real() + 2.0 * _started[0])
    _started[0] = 0
    with limits.BUDGET.run():
        _started[0] = 1
        api.load(program)
    # past the backstop: stopped, and the message says which clock
    _started[0] = 0
    with limits.BUDGET.run():
        _started[0] = 2
        with pytest.raises(LimitError, match="time limit") as info:
            api.load(program)
    assert "seconds of wall-clock time (the backstop)" in info.value.format()


_started = [0]


def test_time_seconds_recursion_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    # 2**40 calls, each under the depth limit: only the clock stops it.
    monkeypatch.setenv("GRADCLI_TIME_SECONDS", "1")
    t = time.process_time()
    refused(
        "def f(n):\n    if n == 0:\n        return 0\n    return f(n - 1) + f(n - 1)\ny = f(40)",
        limits.TIME_SECONDS,
    )
    assert time.process_time() - t < 4  # (imports made on the way count too)


def test_memory_mb() -> None:
    # In a fresh process: in a long one, memory freed earlier is reused without growing.
    if limits._rss_bytes() is None:  # pragma: no cover
        pytest.skip("no way to measure memory here")
    code = (
        "import sys\nfrom gradcli.analysis import api\nfrom gradcli.base.errors import LimitError\n"
        "grow = 'xs = []\\nfor i in range(%d):\\n    xs = xs + [torch.ones(10**6) * i]'\n"
        "try:\n    api.load(grow % int(sys.argv[1]))\nexcept LimitError as e:\n"
        "    print(e.format())\nelse:\n    print('ok')\n"
    )
    env = {**os.environ, "GRADCLI_MEMORY_MB": "100"}

    def run(n: int) -> str:
        r = subprocess.run(
            [sys.executable, "-c", code, str(n)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert r.returncode == 0, r.stderr
        return r.stdout

    assert run(2) == "ok\n"  # 16 MB
    out = run(40)  # 320 MB
    assert "the memory the program has taken, in MB," in out, out
    assert "(memory_mb)" in out and "GRADCLI_MEMORY_MB" in out


def test_memory_mb_collects_cycles_before_refusing() -> None:
    """Large tensors dropped in reference cycles are garbage the collector frees, not memory
    the program holds: a run collects it as its growth nears the limit (a run holds off the
    collector's older generations, and its first one runs only every so many objects)."""
    if limits._rss_bytes() is None:  # pragma: no cover
        pytest.skip("no way to measure memory here")
    code = (
        "from gradcli.analysis import api\nfrom gradcli.base.errors import LimitError\n"
        "cycles = ('for i in range(60):\\n'\n"
        "    '    a = [torch.ones(10**6, dtype=torch.float32)]\\n    a.append(a)')\n"
        "try:\n    api.load(cycles)\nexcept LimitError as e:\n"
        "    print(e.format())\nelse:\n    print('ok')\n"
    )
    env = {**os.environ, "GRADCLI_MEMORY_MB": "100"}  # 60 x 4 MB dropped, one alive at a time
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout == "ok\n", r.stdout


def test_int_bits_default() -> None:
    ok("x = 2**255")
    refused("x = 2**256", limits.INT_BITS)
    ok("x = -(2**255) + 1 - 2**255 + 2**255")
    refused("x = 2**255 * 2", limits.INT_BITS)
    refused("x = 10**10**10", limits.INT_BITS)
    ok("x = " + str(2**256 - 1))  # a 256-bit literal
    e = refused("x = " + str(2**256), limits.INT_BITS)
    assert e.span is not None and e.span.col == 4
    refused("x = int('" + "9" * 78 + "')", limits.INT_BITS)


def test_int_bits_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_INT_BITS", "8")
    ok("x = 255")
    refused("x = 256", limits.INT_BITS)
    ok("x = 2**7")
    refused("x = 2**8", limits.INT_BITS)
    ok("x = 15 * 17")
    refused("x = 16 * 16", limits.INT_BITS)


def test_call_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_CALL_DEPTH", "5")
    f = "def f(n):\n    if n == 0:\n        return 0\n    return f(n - 1)\n"
    ok(f + "y = f(4)")  # f(4) .. f(0): 5 calls deep
    e = refused(f + "y = f(5)", limits.CALL_DEPTH)
    assert "the depth of function calls is 6" in e.message


def test_call_depth_default() -> None:
    e = refused("def f(x):\n    return f(x)\ny = f(1)", limits.CALL_DEPTH)
    assert e.span is not None and e.span.line == 2


def test_jacobian_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    prog = "x = torch.ones(3, requires_grad=True)\ny = torch.cat([x, x, x, x])"  # 12 x 3
    runner = CliRunner()
    monkeypatch.setenv("GRADCLI_JACOBIAN_ENTRIES", "36")
    r = runner.invoke(app, ["jacobian", "-e", prog, "--format", "json"])
    assert r.exit_code == 0, r.stderr
    monkeypatch.setenv("GRADCLI_JACOBIAN_ENTRIES", "35")
    r = runner.invoke(app, ["jacobian", "-e", prog, "--format", "json"])
    assert r.exit_code == 1
    assert "is 36, over the limit of 35" in r.stderr and "GRADCLI_JACOBIAN_ENTRIES" in r.stderr
    assert r.stdout == ""


def test_value_limits(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    from gradcli.cli import values

    def over(text: str, shape: tuple[int, ...], name: str) -> None:
        with pytest.raises(LimitError) as info:
            values.parse_values(text, shape)
        assert f"({name})" in info.value.format()

    monkeypatch.setenv("GRADCLI_VALUE_TEXT_BYTES", "5")
    values.parse_values("1,2,3", (3,))
    over("1,2,3,", (3,), "value_text_bytes")
    monkeypatch.setenv("GRADCLI_VALUE_NESTING", "2")
    monkeypatch.setenv("GRADCLI_VALUE_TEXT_BYTES", "1000")
    values.parse_values("[[1]]", (1, 1))
    over("[[[1]]]", (1, 1, 1), "value_nesting")
    f = tmp_path / "g.json"
    f.write_text("[1, 2]")
    monkeypatch.setenv("GRADCLI_VALUE_FILE_BYTES", "6")
    values.parse_values(f"@{f}", (2,))
    f.write_text("[1, 2] ")
    over(f"@{f}", (2,), "value_file_bytes")


def test_limit_messages_through_the_cli(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_LOOP_ITERATIONS", "3")
    r = CliRunner().invoke(app, ["run", "-e", "x = 1\nfor i in range(4):\n    pass"])
    assert r.exit_code == 1
    assert r.stdout == ""
    assert r.stderr.splitlines()[0] == (
        "<-e>:2:10: error: this loop would run 4 times, over the limit of 3 loop iterations"
    )
    assert "GRADCLI_LOOP_ITERATIONS=N" in r.stderr


def test_indexing_result_size_is_checked_before_it_is_made() -> None:
    t = time.monotonic()
    refused(
        "a = torch.ones(1, 10)\ni = torch.zeros(100000, 1).long()\n"
        "j = torch.zeros(1, 100000).long()\nb = a[i, j]",
        limits.TENSOR_ELEMENTS,
    )
    refused("a = torch.ones(10, 10**6)\nb = a[torch.zeros(10**7).long()]", limits.TENSOR_ELEMENTS)
    assert time.monotonic() - t < 3


def test_index_result_size_matches_numpy() -> None:
    import numpy as np

    from gradcli.surface.indexing import index_result_size as _index_result_size

    rng = np.random.default_rng(0)
    shape = (2, 3, 4)
    a = np.zeros(shape)
    pieces = [
        0,
        -1,
        slice(None),
        slice(1, 3),
        slice(None, None, 2),
        None,
        Ellipsis,
        np.array([0, 1]),
        np.array([[0], [1]]),
        a[..., 0] > -1,
        np.array([1, 0, 1]),
    ]
    checked = 0
    for _ in range(3000):
        idx = tuple(pieces[i] for i in rng.integers(0, len(pieces), rng.integers(1, 4)))
        try:
            expected = a[idx].size
        except (IndexError, ValueError):
            continue
        assert _index_result_size(shape, idx) == expected, idx
        checked += 1
    assert checked > 500


def test_sympy_elements(monkeypatch: pytest.MonkeyPatch) -> None:
    prog = "x = torch.tensor([1., 2., 3., 4.], requires_grad=True)\ny = (x * x).sum()"
    runner = CliRunner()
    monkeypatch.setenv("GRADCLI_SYMPY_ELEMENTS", "4")
    r = runner.invoke(app, ["symbolic", "-e", prog])
    assert r.exit_code == 0, r.stderr
    monkeypatch.setenv("GRADCLI_SYMPY_ELEMENTS", "3")
    r = runner.invoke(app, ["symbolic", "-e", prog])
    assert r.exit_code == 1
    assert "is 4, over the limit of 3" in r.stderr and "GRADCLI_SYMPY_ELEMENTS" in r.stderr
    assert r.stdout == ""


def test_memory_default_keeps_the_process_under_a_gibibyte() -> None:
    # What a program may add, plus the process itself (~40 MB) and one operation's temporaries
    # past the last check (a few float64 arrays of the element limit: 80 MB each), within the
    # 1 GiB every hostile program must stay under.
    temporaries = 3 * limits.TENSOR_ELEMENTS.default * 8 >> 20
    assert limits.MEMORY_MB.default + 40 + temporaries < 1024


@pytest.mark.parametrize("raw", ["1.5", "ten", "1e3", " "])
def test_a_limit_set_to_what_is_not_a_whole_number_is_refused_not_ignored(
    raw: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(limits.MEMORY_MB.env, raw)
    with pytest.raises(LimitError) as e:
        limits.MEMORY_MB.read()
    assert "GRADCLI_MEMORY_MB is not a whole number" in e.value.message
    monkeypatch.setenv(limits.MEMORY_MB.env, "7")
    assert limits.MEMORY_MB.read() == 7
    monkeypatch.delenv(limits.MEMORY_MB.env)
    assert limits.MEMORY_MB.read() == limits.MEMORY_MB.default


@pytest.mark.parametrize(
    ("raw", "seconds"), [("0.3", 0.3), ("1.5", 1.5), ("1e3", 1000.0), ("0.001", 0.05), ("7", 7)]
)
def test_the_time_limit_may_be_a_fraction(raw: str, seconds: float, monkeypatch) -> None:
    monkeypatch.setenv(limits.TIME_SECONDS.env, raw)
    assert limits.TIME_SECONDS.read() == seconds


@pytest.mark.parametrize("raw", ["ten", " ", "nan", "inf", "-inf", "0x1p-2"])
def test_a_time_limit_that_is_no_number_of_seconds_is_refused(raw: str, monkeypatch) -> None:
    monkeypatch.setenv(limits.TIME_SECONDS.env, raw)
    with pytest.raises(LimitError) as e:
        limits.TIME_SECONDS.read()
    assert "GRADCLI_TIME_SECONDS is not a number of seconds" in e.value.message


def test_a_fractional_time_limit_ends_an_endless_loop(tmp_path) -> None:
    prog = tmp_path / "p.py"
    prog.write_text("import torch\nx = torch.ones(2)\nwhile True:\n    x = x + 1\n")
    env = {**os.environ, "GRADCLI_TIME_SECONDS": "0.3"}
    r = subprocess.run(
        [sys.executable, "-m", "gradcli", "run", str(prog)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert r.returncode == 1, r.stderr
    assert "gradcli has run for over 0.3 seconds, the time limit" in r.stderr


def test_a_limit_that_is_not_a_whole_number_ends_the_command_in_one_message(tmp_path) -> None:
    prog = tmp_path / "p.py"
    prog.write_text("import torch\nx = torch.ones(2)\n")
    env = {**os.environ, "GRADCLI_TIME_SECONDS": "ten"}
    r = subprocess.run(
        [sys.executable, "-m", "gradcli", "run", str(prog)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert r.returncode == 1, r.stderr
    assert "GRADCLI_TIME_SECONDS is not a number of seconds" in r.stderr
    assert "Traceback" not in r.stderr
