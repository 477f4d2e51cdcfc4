"""A program: `parse` (syntax and the whitelist checked, the program compiled once, never run),
`Program.run` (the one way to run or re-run it: with leaves replaced, float32 promoted, custom
functions seen through), and the `Run` it leaves behind."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, LimitError, Source, suggest
from ..base.record import Record
from ..core.tensor import Tensor, recording
from . import numpy_printing
from .compiler import compile_program
from .mangling import mangle_private_names
from .runtime import Runtime
from .syntax import ast_parse, char_span, syntax_span


class Run(Record):
    """What executing a program leaves behind."""

    _fields = (
        "program",
        "env",
        "tensors",
        "last_assigned",
        "output",
        "assigned_order",
        "warnings",
        "promoted",
        "settings",
        "marks",
    )
    _defaults = {
        "assigned_order": list,
        "warnings": list,
        "promoted": list,
        "settings": dict,
        "marks": list,
    }
    program: Program
    env: dict[str, Any]
    tensors: dict[str, Tensor]
    last_assigned: str | None
    output: list[str]
    assigned_order: list[str]
    # Things a user should know that are not errors (non-finite values), as full messages.
    warnings: list[str]
    # The float32 leaves promoted to float64 (`Program.run(promote=True)`).
    promoted: list[str]
    # How the run was made: `Program.run`'s overrides, dtype, seed, see_through, promote.
    settings: dict[str, Any]
    # (first node sequence number, statement): the statement that recorded each node.
    marks: list[tuple[int, Any]]

    def rerun(self, **changes: Any) -> Run:
        """The program run again as this run was made, with `changes` to its settings
        (`overrides` are merged into this run's: `rerun(overrides={"x": v})` keeps `--set`)."""
        kw = dict(self.settings)
        if "overrides" in changes:
            kw["overrides"] = {**(kw.get("overrides") or {}), **(changes.pop("overrides") or {})}
        kw.update(changes)
        return self.program.run(**kw)

    def node_line(self, node: Any) -> str | None:
        """`file:line:col` of the statement that recorded `node` (None if not this run's)."""
        import bisect

        marks = self.marks
        if not marks or node.seq < marks[0][0]:
            return None
        k = bisect.bisect_right(marks, node.seq, key=lambda m: m[0]) - 1
        stmt = marks[k][1]
        span = None if stmt is None else self.program.source.span(stmt)
        return None if span is None else span.where()

    def tensor(self, name: str) -> Tensor:
        t = self.tensors.get(name)
        if t is None:
            raise GradcliError(
                f"no tensor named `{name}` in the program",
                found=f"`{name}`",
                expected="one of: " + ", ".join(f"`{n}`" for n in self.tensors)
                if self.tensors
                else "a tensor assigned to a name",
                hint=suggest(name, self.tensors),
            )
        return t

    def leaves(self) -> list[str]:
        """Names of the leaf tensors that require grad, in the order they were assigned."""
        seen: dict[int, bool] = {}
        out = []
        for name in self.assigned_order:
            t = self.tensors.get(name)
            if t is not None and t.requires_grad and t.node is None and id(t) not in seen:
                seen[id(t)] = True
                out.append(name)
        return out


class Program:
    """A parsed program, compiled (once): run it to get a `Run`."""

    def __init__(self, source: Source, tree: ast.Module):
        self.source = source
        self.tree = tree
        self.code = compile_program(tree, source)

    def run(
        self,
        *,
        overrides: dict[str, np.ndarray] | None = None,
        dtype: Any = None,
        seed: int = 0,
        echo: Callable[[str], None] | None = None,
        see_through: bool | Callable[[str], bool] = False,
        promote: bool = False,
    ) -> Run:
        """Run the program. The one way to re-run it with changes:

        overrides    leaf tensors' data replaced (by name), as `--set` does: an array, or a
                     function of the tensor it replaces that returns one (values read
                     against its shape and dtype, in the same run); an array of the
                     leaf's shape and dtype, C-contiguous, is lent (read-only, copied at
                     the leaf's first write: `core.tensor.lend`), not copied, so it must
                     not change while the run is in use
        dtype, seed  the default float dtype and the seed of rand / randn
        echo         called with each text the program prints, as it prints it
        see_through  user functions with a custom gradient run their forward body as
                     ordinary, recorded operations (True: all of them; a predicate: those whose
                     name it accepts), so that the graph holds what `f` computes
        promote      float32 leaves are promoted to float64 when they are assigned (listed in
                     `Run.promoted`), so that finite differences run in float64
        """
        it = Runtime(
            self,
            overrides or {},
            dtype,
            seed,
            echo,
            see_through=see_through,
            promote=promote,
        )
        try:
            with recording():
                it.execute()
        except GradcliError as e:
            cut = cut_texts(e)
            if it.warnings and not getattr(cut, "preamble", None):
                # the warnings given before the failure (PyTorch has written them by then):
                # the CLI writes them ahead of the error
                cut.preamble = "\n".join(it.warnings)  # type: ignore[attr-defined]
            raise cut from e.__cause__
        finally:
            numpy_printing.reset()  # the process's NumPy prints as before the run
        return Run(
            self,
            it.globals,
            it.tensors,
            it.last_assigned,
            it.output,
            list(it.order),
            it.warnings,
            it.promoted,
            {
                "overrides": dict(overrides or {}),
                "dtype": dtype,
                "seed": seed,
                "see_through": see_through,
                "promote": promote,
            },
            it.marks,
        )


# Programs parsed lately, by their text, name and the limits compiling checks: a `Program` is
# immutable (its compiled code takes the frame it runs in), so parsing the same text again
# (the library in a loop, a benchmark) costs nothing.
_PARSED: dict[tuple, Program] = {}


def parse(text: str, name: str = "<program>") -> Program:
    """Parse program text (never running it): syntax and the whitelist are checked here, and
    the program is compiled."""
    if not isinstance(text, str):
        raise GradcliError(f"the program must be text, not {type(text).__name__}")
    if len(text) > limits.SOURCE_BYTES.value:  # a character is at least one byte
        limits.SOURCE_BYTES.check(len(text), "the program's size in bytes")
    key = (text, name, limits.NESTING.value, limits.INT_BITS.value)
    cached = _PARSED.get(key)
    if cached is not None:
        return cached
    limits.SOURCE_BYTES.check(
        len(text.encode("utf-8", errors="surrogatepass")), "the program's size in bytes"
    )
    try:
        program = _parse(text, name)
    except GradcliError as e:
        raise cut_texts(e) from e.__cause__
    if len(_PARSED) >= 32:
        _PARSED.clear()
    _PARSED[key] = program
    return program


def cut_texts(e: GradcliError) -> GradcliError:
    """`e` with its texts cut to what a reader reads: a program may use names of any length and
    make thousands of tensors, and an error that quoted them whole (`name ... is not defined`,
    `expected: one of ...`) would be megabytes on stderr. (Inside the program, `print(e)` of an
    error it caught shows the whole text, as Python does.)"""
    if len(e.message) > _MESSAGE:
        e.message = e.message[: _MESSAGE - 1] + "…"
        e.args = (e.message,)
    for field in ("found", "expected", "hint"):
        text = getattr(e, field)
        if text and len(text) > _DETAIL:
            setattr(e, field, text[: _DETAIL - 1] + "…")
    return e


_MESSAGE = 600
_DETAIL = 400


def _pasted_line_hint(text: str, lineno: int | None) -> str | None:
    """The hint for a syntax error on a line pasted from a notebook or a documentation page that
    is no Python: an IPython magic (`%matplotlib inline`, `%%time`), a shell escape (`!pip
    install torch`), IPython's help (`torch.randn?`), an interactive prompt (`>>> x = 1`,
    `... `) or printed output (`Parameter containing:`, `<AddBackward0 object at 0x...>`).
    Python refuses them all, as gradcli does; the hint says what the line is and that deleting
    it is the fix (None for any other line, or one that is not printable text)."""
    lines = text.splitlines()
    if not lineno or lineno > len(lines):
        return None
    line = lines[lineno - 1].strip()
    if not line.isprintable():
        return None
    shown = line if len(line) <= 40 else line[:39] + "…"
    if (line[:1] == "%" and line[1:2].isalpha()) or line[:2] == "%%":
        return (
            f"`{shown}` is an IPython magic, a command of the notebook, not Python: delete "
            "such lines (the program runs without them)"
        )
    if line[:1] == "!" and line[1:].lstrip()[:1].isalpha():
        return (
            f"`{shown}` is a notebook's shell command, not Python: delete such lines (gradcli "
            "needs nothing installed)"
        )
    if line.startswith(">>>") or line.startswith("... "):
        return (
            "`>>>` is the prompt of an interactive session, as documentation shows examples: "
            "delete the prompts (and the `...` of continued lines, and the output shown)"
        )
    if (line.endswith("?") or line.startswith("?")) and line.strip("?").replace(
        ".", "_"
    ).isidentifier():
        return f"`{shown}` asks IPython for help, not Python: delete the line"
    if line == "Parameter containing:" or (
        line.startswith("<") and line.endswith(">") and " object at 0x" in line
    ):
        return (
            f"`{shown}` is what PyTorch prints, pasted with the code: delete the lines of "
            "printed output"
        )
    return None


def _parse(text: str, name: str) -> Program:
    source = Source(text, name)
    if "\x00" in text:
        raise GradcliError(
            "the program contains a NUL byte",
            span=char_span(source, "\x00"),
            hint="is this a binary file?",
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        bad = next(c for c in text if 0xD800 <= ord(c) <= 0xDFFF)
        raise GradcliError(
            "the program is not valid UTF-8 text",
            span=char_span(source, bad),
            hint="save the program as UTF-8",
        ) from None
    try:
        tree = ast_parse(text, name)
    except SyntaxError as e:
        msg = e.msg or "invalid syntax"
        raise GradcliError(
            f"syntax error: {msg}",
            span=syntax_span(source, e),
            hint=_pasted_line_hint(text, e.lineno)
            or "gradcli programs are Python syntax (a PyTorch-like subset)",
        ) from None
    except (RecursionError, MemoryError):
        raise LimitError(
            "the program is nested too deeply to parse",
            expected=f"at most {limits.NESTING.value} levels of nesting ({limits.NESTING.name})",
            hint="split long or deeply nested expressions into several assignments",
        ) from None
    except (ValueError, OverflowError) as e:
        raise GradcliError(f"cannot parse the program: {e}") from None
    mangle_private_names(tree)
    return Program(source, tree)
