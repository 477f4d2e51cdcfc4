"""The package's layers: base <- core <- ops <- surface <- lang <- analysis <- cli.

Every module's imports are read with `ast` (function-level and TYPE_CHECKING imports too): an
import of a layer to the right is an error, and so is any cycle among the modules. Then every
module is imported first, in a fresh process (forked from one that has imported nothing of
gradcli), and must not bring in sympy (only `check` and `symbolic` use it, inside functions).
"""

from __future__ import annotations

import ast
import functools
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "gradcli"
LAYERS = ("base", "core", "ops", "surface", "lang", "analysis", "cli")


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _layer(module: str) -> int:
    """The layer's position; the package itself and `__main__` sit above every layer."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    return len(LAYERS)


def _package(module: str) -> str:
    is_package = MODULES[module].name == "__init__.py"
    return module if is_package else module.rpartition(".")[0]


def _imports(module: str) -> list[tuple[str, int]]:
    """The gradcli modules `module` imports, with the line of each import."""
    tree = ast.parse(MODULES[module].read_text(), filename=str(MODULES[module]))
    # (its top-level import lines kept from the same parse: `_module_level_lines`)
    _TOP_LINES[module] = _top_lines(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _package(module).split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # `from pkg import name`: the submodule pkg.name when there is one, else pkg.
            names = [
                f"{target}.{a.name}" if f"{target}.{a.name}" in MODULES else target
                for a in node.names
            ]
        else:
            continue
        for name in names:
            if name.split(".")[0] == "gradcli" and name != module:
                found.append((name, node.lineno))
    return found


@functools.cache
def _graph() -> dict[str, list[tuple[str, int]]]:
    """Every module's gradcli imports: read when a test asks (not at collection, which every
    pytest-xdist worker does: parsing the whole package there cost each one ~3 s of CPU)."""
    return {m: _imports(m) for m in MODULES}


def test_every_layer_is_a_package() -> None:
    for layer in LAYERS:
        assert f"gradcli.{layer}" in MODULES, f"gradcli/{layer}/__init__.py is missing"


def test_imports_only_go_to_the_left() -> None:
    wrong = []
    for module, imports in _graph().items():
        for target, line in imports:
            assert target in MODULES, f"{module}:{line} imports {target}, which does not exist"
            if _layer(target) > _layer(module):
                wrong.append(f"{MODULES[module].relative_to(ROOT)}:{line}: {module} -> {target}")
    assert not wrong, (
        "imports against the layer order " + " <- ".join(LAYERS) + ":\n" + "\n".join(wrong)
    )


def test_no_import_cycles() -> None:
    edges = {m: sorted({t for t, _ in imports}) for m, imports in _graph().items()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    cycles: list[list[str]] = []

    def visit(start: str) -> None:
        # Iterative depth-first search, reporting the path of each back edge.
        path = [start]
        state[start] = 1
        stack = [iter(edges[start])]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
                continue
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt) :] + [nxt])
            elif nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(edges[nxt]))

    for m in edges:
        if m not in state:
            visit(m)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_layer_test_sees_lazy_imports() -> None:
    """The walk reads imports inside functions (a lazy import is still an edge)."""
    lazy = [
        (m, t)
        for m, imports in _graph().items()
        for t, line in imports
        if line > 1 and not _module_level(m, line)
    ]
    assert lazy, "no function-level import found: is the walk reading function bodies?"


def _module_level(module: str, line: int) -> bool:
    return line in _module_level_lines(module)


_TOP_LINES: dict[str, frozenset[int]] = {}  # filled by `_imports`


def _top_lines(tree: ast.Module) -> frozenset[int]:
    return frozenset(n.lineno for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom)))


def _module_level_lines(module: str) -> frozenset[int]:
    """The lines of `module`'s imports at its top level (from the parse `_graph` made: the
    package is parsed once, not again here)."""
    if module not in _TOP_LINES:
        _TOP_LINES[module] = _top_lines(ast.parse(MODULES[module].read_text()))
    return _TOP_LINES[module]


_DRIVER = textwrap.dedent(
    """
    import importlib, os, sys, traceback
    import numpy  # noqa: F401 - not gradcli: shared by the forks, to save their time

    failed = []
    for name in sys.argv[1:]:
        pid = os.fork()
        if pid == 0:
            try:
                importlib.import_module(name)
                assert "sympy" not in sys.modules, "imports sympy"
            except BaseException:
                traceback.print_exc()
                os._exit(1)
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        if status != 0:
            failed.append(name)
    print("FAILED:", " ".join(failed))
    sys.exit(1 if failed else 0)
    """
)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="imports each module in a forked process")
def test_every_module_imports_first_in_a_fresh_process() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    r = subprocess.run(
        [sys.executable, "-c", _DRIVER, *MODULES],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env=env,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_cli_starts_without_numpy_rich_or_sympy() -> None:
    """`gradcli --help` imports the app and the commands' options only."""
    code = (
        "import sys, gradcli.cli.main\n"
        "heavy = [m for m in ('numpy', 'rich', 'sympy') if m in sys.modules]\n"
        "assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, timeout=60)


# What a command's process must not import (start-up is most of what a CLI user waits for):
# sympy only for symbolic/check, rich only for tables and a terminal, each area's analysis
# only for its commands. Checked by module, not by time, so a busy machine cannot fool it.
_NEVER_ON_A_PIPE = (
    "sympy",
    "scipy",
    "rich",
    "gradcli.analysis.symbolic",
    "gradcli.analysis.check",
    "gradcli.analysis.export",
    "gradcli.analysis.torch_ref",
    "gradcli.cli.commands.verify",
    "gradcli.cli.render.verify",
    # the surface a program reaches only by naming it (examples/mlp.py does not)
    "gradcli.surface.optim",
    "gradcli.surface.init",
    "gradcli.surface.nnutils",
    "gradcli.surface.linalg",
    "gradcli.surface.layers",
    "gradcli.surface.basics",
    "gradcli.surface.composite",
    "gradcli.surface.statistics",
    "gradcli.surface.rearrange",
    "gradcli.surface.predicates",
    "gradcli.surface.scatter",
    # the op families a program reaches only by naming them (`gradcli.ops`, `base.lazy`)
    "gradcli.ops.activation",
    "gradcli.ops.batchnorm",
    "gradcli.ops.conv",
    "gradcli.ops.ctc",
    "gradcli.ops.gridsample",
    "gradcli.ops.groupnorm",
    "gradcli.ops.layernorm",
    "gradcli.ops.renorm",
    "gradcli.ops.resample",
    "gradcli.ops.scan",
    "gradcli.ops.scatter",
    "gradcli.ops.special",
    "gradcli.ops.trilinear",
    # complex and bfloat16 values: imported when the first one is made or differentiated
    "gradcli.ops.complexnum",
    "gradcli.core.bf16",
    # torch.jit and torch.library: imported when a program reads them
    "gradcli.lang.jit",
    "gradcli.lang.library",
    # PyTorch's generator and Python's: imported at the first draw or seed, not at start-up
    "gradcli.surface.random",
    "random",
    # what costs start-up time for one feature or an error path only: a dataclass generates
    # and execs its methods (gradcli's start-up path uses `base.record.Record`)
    "dataclasses",
)
# A table (rich draws it): rich's console and text, not its tables (a gradient is drawn as
# text), pretty-printing or tracebacks (typer's pretty exceptions are off).
_DRAWING_A_TABLE = tuple(
    m for m in _NEVER_ON_A_PIPE if m not in ("rich", "random", "dataclasses")
) + (
    "rich.table",
    "rich.pretty",
    "rich.traceback",
    "rich.syntax",
    "rich.markdown",
    "pygments",
)
_ANALYSIS_OF_JACOBIANS = (
    "gradcli.analysis.jacobian",
    "gradcli.analysis.hessian",
    "gradcli.cli.commands.jacobian",
    "gradcli.cli.render.jacobian",
)

_COMMAND_DRIVER = textwrap.dedent(
    """
    import json, os, sys
    from gradcli.__main__ import main

    sys.argv = ["gradcli", *sys.argv[1:]]
    try:
        main()
    except SystemExit as e:
        code = e.code
    else:
        code = 0
    sys.stdout.flush()
    # a module bound by `base.lazy.lazy_module` and never read is in sys.modules unexecuted
    ran = [m for m, mod in sys.modules.items() if type(mod).__name__ != "_LazyModule"]
    print(json.dumps({"code": code, "modules": sorted(ran),
                      "blas": os.environ.get("OPENBLAS_NUM_THREADS")}), file=sys.stderr)
    """
)


@pytest.mark.parametrize(
    ("argv", "absent"),
    [
        (["run", "examples/mlp.py"], _NEVER_ON_A_PIPE + _ANALYSIS_OF_JACOBIANS),
        (["backward", "examples/mlp.py"], _NEVER_ON_A_PIPE + _ANALYSIS_OF_JACOBIANS),
        (
            ["backward", "examples/mlp.py", "--format", "json"],
            _NEVER_ON_A_PIPE + _ANALYSIS_OF_JACOBIANS + ("gradcli.cli.matrix",),
        ),
        (
            ["backward", "examples/mlp.py", "--format", "table"],
            _DRAWING_A_TABLE + _ANALYSIS_OF_JACOBIANS,
        ),
        (["jacobian", "examples/mlp.py", "--of", "y", "--wrt", "W2"], _NEVER_ON_A_PIPE),
        (["backward", "examples/mlp.py", "--of", "nope"], _NEVER_ON_A_PIPE),
    ],
    ids=["run", "backward", "backward-json", "backward-table", "jacobian", "error"],
)
def test_a_command_imports_only_what_it_needs(argv: list[str], absent: tuple[str, ...]) -> None:
    """A typical command, its output to a pipe, in a process of its own: none of `absent` is
    imported by its exit, and the CLI chose one BLAS thread (see gradcli/__main__.py)."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")
    r = subprocess.run(
        [sys.executable, "-c", _COMMAND_DRIVER, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env,
    )
    report = json.loads(r.stderr.strip().splitlines()[-1])
    assert report["code"] == (1 if "nope" in argv else 0), r.stdout + r.stderr
    assert "numpy" in report["modules"]  # the program ran
    imported = [m for m in report["modules"] if m in absent or m.split(".")[0] in absent]
    assert not imported, f"{' '.join(argv)} imports {imported}"
    assert report["blas"] == "1"
