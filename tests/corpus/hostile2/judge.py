"""Judging one outcome against its case: every broken promise becomes one line of text.

An empty list is a pass. The lines start with the kind of failure, most severe first in the
report: "code", "files", "memory", "hang", "time", "traceback", "exit", "message".
"""

from __future__ import annotations

import ast
import re
import unicodedata
from pathlib import Path

from .cases import ANY, Case
from .runner import PEAK_RSS, Outcome

_ERROR_LINE = re.compile(r"^(?:.*?:\d+:\d+: )?error: ")
_WARNING_LINE = re.compile(r"^(?:.*?:\d+:\d+: )?(?:warning|note): ")

# What a generated script may name: the two imports and print.
_SCRIPT_GLOBALS = {"torch", "F", "print"}
# Characters that must not appear in generated code: control characters other than the
# newline (a lone \r ends a line for Python's tokenizer), Unicode line and paragraph
# separators (a line break for editors and str.splitlines) and bidirectional controls (the
# "Trojan Source" trick: code that reads differently from how it runs).
_BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _bad_char(ch: str) -> bool:
    if ch == "\n":
        return False
    cat = unicodedata.category(ch)
    return cat in ("Cc", "Zl", "Zp", "Cs") or ch in _BIDI


def inert_problems(text: str) -> list[str]:
    """Why `text` is not a valid, inert script of the shape `gradcli export` writes: imports
    of torch, assignments of torch expressions to fresh names, one backward call, prints of
    gradients. Empty: it is."""
    bad = sorted({f"U+{ord(ch):04X}" for ch in text if _bad_char(ch)})
    problems = []
    if bad:
        problems.append(f"code: the generated script holds control/line-break characters {bad}")
    try:
        tree = ast.parse(text)
    except SyntaxError as e:
        return problems + [f"code: the generated script is not valid Python: {e}"]
    defined = set(_SCRIPT_GLOBALS)
    backward_calls = 0
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            names = [(a.name, a.asname) for a in stmt.names]
            if names not in ([("torch", None)], [("torch.nn.functional", "F")]):
                problems.append(f"code: the script imports {ast.unparse(stmt)!r}")
            continue
        if isinstance(stmt, ast.Assign):
            if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
                problems.append(f"code: an assignment to {ast.unparse(stmt.targets[0])!r}")
                continue
            target = stmt.targets[0].id
            if target in _SCRIPT_GLOBALS:
                problems.append(f"code: the script rebinds `{target}`")
            problems += _expr_problems(stmt.value, defined)
            defined.add(target)
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            f = call.func
            if isinstance(f, ast.Name) and f.id == "print":
                pass
            elif isinstance(f, ast.Attribute) and f.attr in ("backward", "retain_grad"):
                backward_calls += f.attr == "backward"
            else:
                problems.append(f"code: a statement beyond the program: {ast.unparse(stmt)!r}")
                continue
            problems += _expr_problems(call, defined)
            continue
        problems.append(f"code: a statement beyond the program: {ast.unparse(stmt)[:80]!r}")
    if backward_calls != 1:
        problems.append(f"code: the script calls backward {backward_calls} times, not once")
    return problems


def _expr_problems(node: ast.AST, defined: set[str]) -> list[str]:
    problems = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            if sub.id not in defined:
                problems.append(f"code: the script uses the undefined name `{sub.id}`")
        elif isinstance(sub, ast.Attribute):
            if sub.attr.startswith("_"):
                problems.append(f"code: the script reaches the attribute `{sub.attr}`")
        elif isinstance(
            sub,
            (
                ast.Lambda,
                ast.NamedExpr,
                ast.Await,
                ast.Yield,
                ast.YieldFrom,
                ast.JoinedStr,
                ast.ListComp,
                ast.SetComp,
                ast.DictComp,
                ast.GeneratorExp,
            ),
        ):
            problems.append(f"code: the script holds a {type(sub).__name__}")
    return problems


def judge(case: Case, o: Outcome, cwd: Path) -> tuple[list[str], str | None]:
    """The problems found, and the exported script still to check with `inert_problems`.

    The script is returned, not parsed here: judging runs in the scheduler's worker threads
    beside in-process tests, and CPython 3.11's AST conversion keeps its recursion depth in
    state shared by all threads, so two threads in `ast.parse` at once can fail with
    "SystemError: AST constructor recursion depth mismatch". The caller parses it in the
    test's own thread."""
    problems: list[str] = []
    script: str | None = None
    err, out = o.err, o.out

    # Files first: nothing but the case's outputs, and those only on success.
    allowed = set(case.outputs) if o.code == 0 else set()
    for what, names in (("created", o.created), ("changed", o.changed), ("removed", o.removed)):
        for name in names:
            if name not in allowed:
                problems.append(f"files: {name!r} {what}")

    if o.peak_rss > PEAK_RSS:
        problems.append(f"memory: peak {o.peak_rss / 2**20:,.0f} MiB, over 1 GiB")
    if o.code is None:
        problems.append(f"hang: killed after {o.seconds:.1f} s")
    elif _took(o) > case.seconds:
        problems.append(f"time: took {o.seconds:.1f} s, over {case.seconds:g} s")
    if "Traceback (most recent call last)" in err or "Traceback (most recent call last)" in out:
        problems.append("traceback: a Python traceback was printed")
    if o.code is not None and o.code not in case.codes:
        problems.append(f"exit: status {o.code}, expected {sorted(case.codes)}")
    if "internal error" in err:
        problems.append("exit: an internal error")
    if len(o.stderr) > case.max_stderr:
        problems.append(f"message: stderr is {len(o.stderr):,} bytes (over {case.max_stderr:,})")
    for pat in case.forbid:
        if re.search(pat, err) or re.search(pat, out):
            problems.append(f"message: the output matches the forbidden {pat!r}")

    if o.code == 0:
        for pat in case.stdout_patterns:
            if not re.search(pat, out):
                problems.append(f"exit: stdout does not match {pat!r}: {out[:200]!r}")
        if case.export is not None:
            if case.export == "-":
                text = out
            else:
                path = cwd / case.export
                text = path.read_text("utf-8", "replace") if path.exists() else ""
            script = text
    elif o.code == 1:
        problems += _message_problems(case, err)
        if not case.printed and out:
            problems.append(f"message: stdout is not empty on an error: {out[:100]!r}")
    elif o.code == 2:
        if case.patterns and not any(re.search(p, err) for p in case.patterns):
            problems.append(f"message: the usage error does not say any of {case.patterns}")
    return problems, script


def continued(line: str) -> bool:
    """A second or later line of a message of several lines: indented, and not the source
    line or its caret (` 12 | ...`, `    | ^^^`)."""
    return line.startswith("    ") and not re.match(r" +\d* \| ", line)


def _message_problems(case: Case, err: str) -> list[str]:
    lines = err.splitlines()
    start = next((i for i, line in enumerate(lines) if _ERROR_LINE.match(line)), None)
    if start is None:
        first = lines[0] if lines else "(empty)"
        return [f"message: no `error:` line on stderr (first line {first[:120]!r})"]
    for line in lines[:start]:
        if line and not (_WARNING_LINE.match(line) or line.startswith(" ")):
            return [f"message: {line[:120]!r} before the error"]
    block = [lines[start]]
    for line in lines[start + 1 :]:
        if not line.startswith(" "):
            break
        block.append(line)
    text = "\n".join(block)
    problems = []
    if case.patterns and not any(re.search(p, text) for p in case.patterns):
        problems.append(f"message: {lines[start][:160]!r} says none of {case.patterns}")
    if re.search(r"gradcli bug|please report", text):
        problems.append(f"message: {lines[start][:160]!r} calls itself a possible gradcli bug")
    if lines[start + 1 :] and len(block) != len(lines) - start:
        extra = lines[start + len(block)]
        problems.append(f"message: more than one message (then {extra[:80]!r})")
    if case.at is None:
        return problems
    prog = re.escape(case.prog_name)
    if case.at == ANY:
        m = re.match(rf"^{prog}:(\d+):(\d+): error: ", block[0])
        if not m:
            return problems + [f"message: no `{case.prog_name}:LINE:COL:` in {block[0][:120]!r}"]
        line_no = int(m.group(1))
    else:
        line_no, col = case.at
        if not block[0].startswith(f"{case.prog_name}:{line_no}:{col}: error: "):
            return problems + [
                f"message: expected {case.prog_name}:{line_no}:{col}:, got {block[0][:120]!r}"
            ]
    num = str(line_no)
    # A message of several lines (PyTorch's "invalid combination of arguments") goes on in
    # indented lines before the source line.
    block = block[:1] + [line for line in block[1:] if not continued(line)]
    if len(block) < 3 or not block[1].startswith(f" {num} | "):
        return problems + ["message: the source line is not shown"]
    if "^" not in block[2]:
        return problems + ["message: no caret under the source line"]
    prefix = f" {' ' * len(num)} | "
    shown = block[1][len(prefix) :]
    if case.at != ANY and shown.isascii() and not shown.startswith("…"):
        if block[2][len(prefix) :].index("^") != case.at[1] - 1:
            problems.append(f"message: the caret is not under column {case.at[1]}")
    return problems


def _took(o: Outcome) -> float:
    """The time a case is judged by: the wall clock on a machine with a core to spare; on a
    loaded one, at most its CPU time plus a second of start-up and I/O (waiting for the CPU is
    not the command's fault; a command that blocks is still caught by its deadline)."""
    if o.load <= 1.0:
        return o.seconds
    return min(o.seconds, o.cpu + 1.0)
