"""A long fuzz run of gradcli's language and CLI: hostile and broken input must never escape
as anything but a `GradcliError`, hang, or show a traceback.

    python fuzz/run_fuzz.py --minutes 5                  # random mutations (no extra tools)
    python fuzz/run_fuzz.py --minutes 5 --engine atheris # coverage-guided (pip install atheris)
    python fuzz/run_fuzz.py --minutes 1 --cli 0.05       # also 5% of the cases through the CLI

Each case is a program: a mutation of a valid one (`examples/*.py` and the snippets below,
taken from the seeds and PyTorch tutorials), or random token soup. It is parsed and run with
`gradcli.parse` and `Program.run`, then differentiated with `gradcli.backward` where it has an
output.
A finding is any other exception, a case slower than `--timeout` seconds, or (through the CLI)
an exit status other than 0/1 or a traceback in the output. Findings are written to `--out`
(one file per distinct kind, with the program) and summarised at the end, with the number of
cases and cases per second.

The mutators are plain functions of a `random.Random`, shared with tests/corpus/test_fuzz.py (which
runs a bounded number of cases in the normal test run). atheris is an optional developer tool,
not a dependency of gradcli.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import signal
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# --- the seed programs ------------------------------------------------------------------------

SNIPPETS: list[str] = [
    # seed 000: the masks walkthrough
    """from torch.autograd import Variable
import torch
x = Variable(torch.FloatTensor([[1, 2, 3, 4]]), requires_grad=True)
z = 2*x
loss = z.sum(dim=1)
z.backward(torch.FloatTensor([[1, 0, 0, 0]]), retain_graph=True)
print(x.grad.data)
x.grad.data.zero_()
loss.backward()
print(x.grad.data)
""",
    # seed 002: the gradient argument, autograd.grad, higher order, custom Function
    """import torch
x = torch.randn(2, 2, requires_grad=True)
y = x.pow(2)
v = torch.tensor([[0.1, 0.5], [0.2, 0.3]])
y.backward(gradient=v)
print(x.grad)
""",
    """import torch
x = torch.randn(2, 2, requires_grad=True)
y = x.pow(2).sum()
grads = torch.autograd.grad(outputs=y, inputs=x, create_graph=True)
g2 = torch.autograd.grad(grads[0].sum(), x)[0]
print(g2)
""",
    """import torch
class MyFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.pow(2)
        ctx.save_for_backward(x)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return 2 * x * grad_output

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = MyFunction.apply(x).sum()
y.backward()
print(x.grad)
""",
    # the loops seed
    """import torch
a = torch.tensor([[1,2,3],[4,5,6]], dtype=torch.float, requires_grad=True)
for i in range(2):
  for j in range(3):
    out = a[i,j] * a[i,j]
    out.backward()
print(a.grad)
a.grad.zero_()
out = a * a
out.backward(a, retain_graph=True)
print(a.grad)
""",
    # a custom gradient by companion function, shapes, reductions, losses
    """def f(x):
    return (x * x).sum()

def f_backward(x, g):
    return 2 * x * g

x = torch.tensor([1., -2., 3.], requires_grad=True)
y = f(x)
w = torch.ones(3, 2, requires_grad=True)
h = torch.relu(x @ w)
m = h.max()
values, indices = torch.max(w, dim=1)
loss = F.mse_loss(h, torch.zeros(2)) + torch.log(torch.exp(m)) + values.mean()
loss.backward()
""",
    """import torch
import torch.nn.functional as F
X = torch.tensor([[1.0, 2.0], [-0.5, 0.3]])
W = torch.tensor([[0.2, -0.1, 0.4], [0.3, 0.8, -0.5]], requires_grad=True)
logits = X @ W
p = F.softmax(logits, dim=1)
loss = F.cross_entropy(logits, torch.tensor([2, 0]))
s = torch.sigmoid(logits).reshape(-1)[1:4].unsqueeze(0).t().squeeze()
c = torch.cat([s, s * 2], dim=0).norm() + torch.stack([s, s]).std()
""",
    """x = torch.linspace(-1, 1, 5, requires_grad=True)
y = torch.where(x > 0, x ** 2, -x).clamp(min=0.1) / (1 + x.abs())
z = y.sum() + x.sin().cos().tanh().prod()
g, = torch.autograd.grad(z, x)
print(g, x.shape, x.dtype, x.requires_grad, x.is_leaf, y.grad_fn)
""",
]

# Pieces a mutation may insert (valid tokens, hostile calls, huge numbers, odd characters).
TOKENS: list[str] = [
    "x",
    "y",
    "z",
    "w",
    "a",
    "torch",
    "F",
    "np",
    "print",
    "range",
    "len",
    "def",
    "class",
    "return",
    "for",
    "in",
    "if",
    "else",
    "elif",
    "while",
    "with",
    "lambda",
    "import",
    "from",
    "as",
    "not",
    "and",
    "or",
    "is",
    "None",
    "True",
    "False",
    "pass",
    "break",
    "continue",
    "global",
    "try",
    "except",
    "yield",
    "await",
    "async",
    "del",
    "assert",
    "raise",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    ";",
    ".",
    "=",
    "==",
    "+",
    "-",
    "*",
    "/",
    "//",
    "%",
    "**",
    "@",
    "<",
    ">",
    "<=",
    "!=",
    "+=",
    "-=",
    "*=",
    "->",
    "...",
    "\\",
    "'",
    '"',
    "#",
    "\n",
    "\n    ",
    "\t",
    "    ",
    "0",
    "1",
    "2",
    "-1",
    "3.5",
    "1e308",
    "1e-320",
    "0x1F",
    "10**10**10",
    "2**64",
    "10**100",
    "float('nan')",
    "float('inf')",
    "-0.0",
    "'abc'",
    '"\\x00"',
    "b'x'",
    "1j",
    "__class__",
    "__dict__",
    "__import__('os')",
    "getattr",
    "eval('1')",
    "exec",
    "open('/etc/passwd')",
    "type(x)",
    "x.__class__",
    "().__class__.__bases__",
    "print(file=1)",
    "torch.zeros(100000, 100000)",
    "torch.randn(10**5, 10**5)",
    "torch.ones(3)",
    "torch.tensor([1., 2.], requires_grad=True)",
    "x.backward()",
    "x.sum()",
    "x.grad",
    "x.data",
    "x.T",
    "x.shape",
    "x.view(-1)",
    "x.expand(10**6, 10**6)",
    "x[0]",
    "x[:, 1]",
    "x[::-1]",
    "x @ x",
    "torch.cat([x]*100)",
    "[1]*10**9",
    "'a'*10**9",
    "range(10**18)",
    "for i in range(10**9): pass\n",
    "def f(): return f()\n",
    "f()",
    "torch.Size([2, 3])",
    "torch.autograd.grad(x, x)",
    "torch.nn.Sigmoid()",
    "F.relu",
    "dim=1",
    "keepdim=True",
    "retain_graph=True",
    "create_graph=True",
    "requires_grad=True",
    "gradient=x",
    "日本",
    "é",
    "\u200b",
    "\u2028",
    "\ufeff",
    "\x0c",
    "\x1b[31m",
    "\ud800",
    "😀",
]


def seeds(root: Path = ROOT) -> list[str]:
    """The valid programs mutations start from."""
    out = list(SNIPPETS)
    for p in sorted((root / "examples").glob("*.py")):
        out.append(p.read_text(encoding="utf-8"))
    return out


# --- mutations --------------------------------------------------------------------------------


def _span(rng: random.Random, text: str) -> tuple[int, int]:
    if not text:
        return 0, 0
    i = rng.randrange(len(text) + 1)
    j = min(len(text), i + rng.choice([1, 1, 2, 3, 5, 8, 20, 80]))
    return i, j


def _delete(rng: random.Random, text: str) -> str:
    i, j = _span(rng, text)
    return text[:i] + text[j:]


def _duplicate(rng: random.Random, text: str) -> str:
    i, j = _span(rng, text)
    k = rng.randrange(len(text) + 1)
    return text[:k] + text[i:j] + text[k:]


def _insert_token(rng: random.Random, text: str) -> str:
    k = rng.randrange(len(text) + 1)
    return text[:k] + rng.choice(TOKENS) + text[k:]


def _replace_word(rng: random.Random, text: str) -> str:
    """Replace a word or number with a token (a name, a hostile call, a huge number)."""
    import re

    words = list(re.finditer(r"[A-Za-z_][A-Za-z_0-9]*|[0-9][0-9.eE]*", text))
    if not words:
        return _insert_token(rng, text)
    m = rng.choice(words)
    return text[: m.start()] + rng.choice(TOKENS) + text[m.end() :]


def _swap_lines(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    if len(lines) < 2:
        return text
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _indent(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    lines[i] = rng.choice(["", " ", "\t", "        "]) + lines[i].lstrip(
        " \t" if rng.random() < 0.5 else ""
    )
    return "\n".join(lines)


def _truncate(rng: random.Random, text: str) -> str:
    return text[: rng.randrange(len(text) + 1)]


def _nest(rng: random.Random, text: str) -> str:
    """Wrap a piece in many brackets or unary operators (deep nesting)."""
    i, j = _span(rng, text)
    n = rng.choice([5, 50, 99, 100, 101, 200, 1000])
    op = rng.choice(["(", "[", "-", "not ", "x."])
    close = {"(": ")", "[": "]"}.get(op, "")
    return text[:i] + op * n + text[i:j] + close * n + text[j:]


# Expressions an AST mutation may put in place of another (valid syntax, odd or hostile).
EXPRESSIONS: list[str] = [
    "x",
    "y",
    "w",
    "0",
    "1",
    "-1",
    "2.5",
    "1e308",
    "-1e308",
    "10**18",
    "2**255",
    "True",
    "None",
    "'a'",
    "[]",
    "[1, 2]",
    "[[1, 2], [3]]",
    "(1, 2)",
    "...",
    "float('nan')",
    "float('inf')",
    "torch.ones(2, 3)",
    "torch.zeros(10**5, 10**5)",
    "torch.randn(3, requires_grad=True)",
    "torch.tensor([1., 2., 3.], requires_grad=True)",
    "torch.tensor([[1, 2], [3]])",
    "torch.tensor(5)",
    "torch.arange(6)",
    "torch.eye(2)",
    "torch.empty(0)",
    "[x] * 10**7",
    "range(10**12)",
    "x.expand(1000, 1000, 1000)",
    "x.T @ x",
    "x.view(-1, 7)",
    "x.reshape(-1)",
    "torch.cat([x, x], dim=5)",
    "torch.stack([x, y])",
    "x[10]",
    "x[..., None]",
    "x[::2]",
    "x[[0, 0, 1]]",
    "x[x > 0]",
    "len(x)",
    "x.item()",
    "x.tolist()",
    "x.sum(dim=7)",
    "torch.autograd.grad(x, x)",
    "torch.autograd.grad(x.sum(), x, create_graph=True)",
    "F.cross_entropy(x, x)",
    "F.mse_loss(x, y)",
    "x.backward()",
    "x.grad.zero_()",
    "print(x, sep=1)",
    "sum(range(10**9))",
    "max(x, y)",
    "torch.Size(x)",
    "x.numel(x)",
    "torch.numel(1)",
    "x.size(9)",
    "x.pow(10**6)",
    "x ** x",
    "2 ** x",
    "x / 0",
    "x.log()",
    "x.sqrt()",
    "torch.exp(x * 1000)",
    "x.max(dim=0).values",
    "x.max(dim=0)[1]",
    "torch.where(x > 0, x, y)",
    "x.clamp(min='a')",
    "x.to(torch.int64)",
    "x.float()",
    "x.double().detach()",
    "x.data",
    "x.grad",
    "x.grad_fn",
    "x.shape[0]",
    "x.T",
    "x.mT",
    "torch.nn.Sigmoid()(x)",
    "torch.nn.Softmax(dim=9)(x)",
    "F.relu(x, inplace=True)",
    "x.requires_grad_()",
    "x.retain_grad()",
    "x.unsqueeze(-9)",
    "x.permute(1, 0)",
    "x.transpose(0, 1)",
    "x.flatten()",
    "x.squeeze()",
    "x.norm(p=0)",
    "x.var(dim=0)",
    "torch.linspace(0, 1, -3)",
    "torch.full((2,), 'a')",
    "torch.manual_seed(-1)",
    "int(x)",
    "float(x)",
    "round(x)",
    "abs(x)",
    "str(x)",
    "list(x)",
    "tuple(x)",
    "zip(x, y)",
    "enumerate(x)",
    "x if x else y",
    "x and y",
    "not x",
    "x < y",
    "x == y",
    "x is None",
    "f(x)",
    "f()",
    "MyFunction.apply(x)",
    "ctx",
    "print",
    "torch",
    "F",
    "torch.nn",
]

_METHOD_NAMES = [
    "sum",
    "mean",
    "max",
    "min",
    "exp",
    "log",
    "view",
    "reshape",
    "backward",
    "grad",
    "data",
    "T",
    "shape",
    "item",
    "zero_",
    "t",
    "expand",
    "numel",
    "size",
    "detach",
    "tolist",
    "softmax",
    "norm",
    "pow",
    "clone",
    "apply",
    "saved_tensors",
    "save_for_backward",
    "values",
    "indices",
    "dtype",
    "foo",
    "requires_grad",
    "retain_grad",
    "is_leaf",
    "grad_fn",
    "name",
    "relu",
]


def _ast_mutate(rng: random.Random, text: str) -> str:
    """A syntactically valid mutation: one expression (or name, attribute, constant, keyword)
    of the program replaced. Falls back to a token insertion if the text does not parse."""
    try:
        return _ast_mutate1(rng, text)
    except (RecursionError, MemoryError):  # a very deep tree: leave it as it is
        return text


def _ast_mutate1(rng: random.Random, text: str) -> str:
    import ast

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _insert_token(rng, text)
    exprs = [n for n in ast.walk(tree) if isinstance(n, ast.expr)]
    if not exprs:
        return _insert_token(rng, text)
    target = rng.choice(exprs)
    choice = rng.random()
    if isinstance(target, ast.Attribute) and choice < 0.4:
        target.attr = rng.choice(_METHOD_NAMES)
    elif isinstance(target, ast.Call) and choice < 0.4:
        if target.args and rng.random() < 0.5:
            target.args.pop(rng.randrange(len(target.args)))
        else:
            target.keywords.append(
                ast.keyword(
                    arg=rng.choice(
                        [
                            "dim",
                            "keepdim",
                            "retain_graph",
                            "create_graph",
                            "gradient",
                            "inputs",
                            "requires_grad",
                            "dtype",
                            "file",
                            "sep",
                            "out",
                            "foo",
                        ]
                    ),
                    value=ast.parse(rng.choice(EXPRESSIONS), mode="eval").body,
                )
            )
    else:
        try:
            new = ast.parse(
                rng.choice(EXPRESSIONS) if choice < 0.8 else ast.unparse(rng.choice(exprs)),
                mode="eval",
            ).body
        except SyntaxError:  # a piece that is no expression on its own (a slice)
            new = ast.Name(id=rng.choice(["x", "y", "torch"]), ctx=ast.Load())
        for parent in ast.walk(tree):
            for field, value in ast.iter_fields(parent):
                if value is target:
                    setattr(parent, field, new)
                elif isinstance(value, list) and any(v is target for v in value):
                    value[[id(v) for v in value].index(id(target))] = new
    try:
        return ast.unparse(ast.fix_missing_locations(tree))
    except Exception:  # noqa: BLE001 - an odd tree: keep the text as it was
        return text


MUTATORS: list[Callable[[random.Random, str], str]] = [
    _delete,
    _duplicate,
    _insert_token,
    _insert_token,
    _replace_word,
    _replace_word,
    _swap_lines,
    _indent,
    _truncate,
    _nest,
    _ast_mutate,
    _ast_mutate,
    _ast_mutate,
    _ast_mutate,
    _ast_mutate,
    _ast_mutate,
    _ast_mutate,
    _ast_mutate,
    _ast_mutate,
    _ast_mutate,
]


def mutate(text: str, rng: random.Random, count: int | None = None) -> str:
    """`count` (default 1 to 4) random mutations of `text`."""
    for _ in range(count if count is not None else rng.randint(1, 4)):
        text = rng.choice(MUTATORS)(rng, text)
    return text


def token_soup(rng: random.Random, n: int | None = None) -> str:
    """Random tokens joined by spaces and newlines."""
    n = n if n is not None else rng.randint(1, 40)
    return "".join(rng.choice(TOKENS) + rng.choice([" ", " ", "", "\n"]) for _ in range(n))


def make_case(rng: random.Random, pool: list[str]) -> str:
    r = rng.random()
    if r < 0.1:
        return token_soup(rng)
    if r < 0.6:  # syntactically valid: exercises the interpreter rather than the parser
        text = rng.choice(pool)
        for _ in range(rng.randint(1, 3)):
            text = _ast_mutate(rng, text)
        return text
    return mutate(rng.choice(pool), rng)


# --- running one case -------------------------------------------------------------------------

SAFE_ENV = {
    # Each case may not spend more than these, so the run goes on at its pace.
    "GRADCLI_TIME_SECONDS": "3",
    "GRADCLI_MEMORY_MB": "512",
}


class Hang(Exception):
    pass


def _alarm(*_: object) -> None:
    raise Hang()


def check_program(text: str) -> str:
    """Run one case through the library: how far it got ("parse error", "run error", "ran",
    "differentiated"), or "converted: ..." for a user error made from a Python exception (the
    interpreter's safety net: a message that could be better, or a gradcli bug). Raises
    anything but a GradcliError (a finding)."""
    import gradcli
    from gradcli import GradcliError

    stage = "parse error"
    try:
        program = gradcli.parse(text, "<fuzz>")
        stage = "run error"
        run = program.run()
        stage = "ran"
        gradcli.backward(run)
    except GradcliError as e:
        e.format()  # formatting the message must not fail either
        cause = getattr(e, "cause", None)
        if cause is not None:
            tb = traceback.extract_tb(cause.__traceback__)
            where = f"{Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else "?"
            return f"converted: {type(cause).__name__} at {where}"
        return stage
    return "differentiated"


def check_cli(text: str) -> str | None:
    """Run one case through the CLI; a problem as a sentence, or None."""
    from typer.testing import CliRunner

    from gradcli.cli.main import app

    result = CliRunner().invoke(app, ["backward", "-e", text])
    out = result.stdout + result.stderr
    if result.exit_code not in (0, 1):
        return f"exit status {result.exit_code}"
    if "Traceback" in out or "internal error" in out:
        return "traceback or internal error in the output"
    if result.exit_code == 1 and result.stdout:
        return "output on stdout with an error"
    return None


def run_case(
    text: str, timeout: float, cli: bool, outcomes: Counter[str] | None = None
) -> tuple[str, str] | None:
    """(kind, details) of a finding, or None."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        if cli:
            problem = check_cli(text)
            if problem:
                return f"cli: {problem}", ""
            if outcomes is not None:
                outcomes["cli"] += 1
        else:
            outcome = check_program(text)
            if outcomes is not None:
                outcomes[outcome] += 1
                outcomes.last = outcome  # type: ignore[attr-defined]
    except Hang:
        return "hang", f"over {timeout} s"
    except RecursionError:
        return "RecursionError", traceback.format_exc()
    except Exception as e:  # noqa: BLE001 - any other exception is what we look for
        tb = traceback.extract_tb(e.__traceback__)
        where = f"{Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else "?"
        return f"{type(e).__name__} at {where}", traceback.format_exc()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return None


# --- the runners ------------------------------------------------------------------------------


def save_finding(out: Path, kind: str, text: str, details: str) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    name = hashlib.sha1(kind.encode()).hexdigest()[:10]
    path = out / f"{name}.txt"
    if not path.exists():
        path.write_text(
            f"# {kind}\n# {details.strip().splitlines()[-1] if details else ''}\n"
            f"{details}\n# --- program ---\n{text}",
            encoding="utf-8",
            errors="backslashreplace",
        )
    return path


def last_outcome(outcomes: Counter[str]) -> str | None:
    return getattr(outcomes, "last", None)


def random_engine(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    pool = seeds()
    start = time.monotonic()
    deadline = start + args.minutes * 60
    cases = 0
    kinds: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    slowest = 0.0
    last_report = start
    while time.monotonic() < deadline and (not args.cases or cases < args.cases):
        text = make_case(rng, pool)
        cli = rng.random() < args.cli
        t0 = time.monotonic()
        finding = run_case(text, args.timeout, cli, outcomes)
        took = time.monotonic() - t0
        cases += 1
        if finding is None and took > args.slow:
            finding = (f"slow (over {args.slow:g} s)", f"{took:.1f} s")
        slowest = max(slowest, took)
        if finding:
            kind, details = finding
            if kinds[kind] == 0:
                path = save_finding(Path(args.out), kind, text, details)
                print(f"finding: {kind} -> {path}", flush=True)
            kinds[kind] += 1
        elif last_outcome(outcomes) != "parse error" and rng.random() < 0.2 and len(pool) < 5000:
            pool.append(text)  # programs that parsed breed: mutations of mutations
        now = time.monotonic()
        if now - last_report > 30:
            last_report = now
            print(
                f"{cases} cases, {cases / (now - start):.0f}/s, {sum(kinds.values())} findings",
                flush=True,
            )
    elapsed = time.monotonic() - start
    print(
        f"done: {cases} cases in {elapsed:.0f} s ({cases / elapsed:.0f} cases/s), "
        f"{sum(kinds.values())} findings in {len(kinds)} kinds"
    )
    plain = [(k, v) for k, v in outcomes.most_common() if not k.startswith("converted:")]
    print("  outcomes: " + ", ".join(f"{k} {v}" for k, v in plain))
    converted = [(k, v) for k, v in outcomes.most_common() if k.startswith("converted:")]
    if converted:
        print("  user errors made from Python exceptions (messages to improve, or bugs):")
        for k, v in converted[:20]:
            print(f"  {v:6d}  {k[len('converted: ') :]}")
    print(f"  slowest case: {slowest:.2f} s")
    for kind, n in kinds.most_common():
        print(f"  {n:6d}  {kind}")
    return 1 if kinds else 0


def atheris_engine(args: argparse.Namespace) -> int:  # pragma: no cover - optional tool
    try:
        import atheris
    except ImportError:
        print(
            "atheris is not installed (pip install atheris); use --engine random", file=sys.stderr
        )
        return 2
    with atheris.instrument_imports():
        import gradcli.analysis.api  # noqa: F401
        import gradcli.cli.main  # noqa: F401

    corpus = Path(args.out) / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    for i, text in enumerate(seeds()):
        (corpus / f"seed{i}.py").write_text(text, encoding="utf-8")

    def one_input(data: bytes) -> None:
        text = data.decode("utf-8", errors="replace")
        signal.setitimer(signal.ITIMER_REAL, 0)
        check_program(text)

    def custom_mutator(data: bytes, max_size: int, seed: int) -> bytes:
        rng = random.Random(seed)
        text = data.decode("utf-8", errors="replace")
        if not text or rng.random() < 0.05:
            text = token_soup(rng)
        out = mutate(text, rng).encode("utf-8", errors="replace")
        return out[:max_size]

    argv = [
        sys.argv[0],
        str(corpus),
        f"-max_total_time={int(args.minutes * 60)}",
        f"-timeout={int(args.timeout)}",
        "-rss_limit_mb=4096",
        "-print_final_stats=1",
        f"-artifact_prefix={args.out}/",
    ]
    atheris.Setup(argv, one_input, custom_mutator=custom_mutator)
    atheris.Fuzz()
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=5.0, help="how long to run (default 5)")
    ap.add_argument("--cases", type=int, default=0, help="stop after this many cases")
    ap.add_argument("--engine", choices=["random", "atheris"], default="random")
    ap.add_argument("--seed", type=int, default=0, help="random seed (random engine)")
    ap.add_argument(
        "--timeout",
        type=float,
        default=15.0,
        help="seconds one case may take before it counts as a hang",
    )
    ap.add_argument(
        "--slow",
        type=float,
        default=5.0,
        help="a case slower than this (but under --timeout) is a finding too",
    )
    ap.add_argument(
        "--cli", type=float, default=0.0, help="fraction of the cases run through the CLI (slower)"
    )
    ap.add_argument(
        "--out", default=str(ROOT / "fuzz" / "findings"), help="where findings are written"
    )
    args = ap.parse_args(argv)
    for k, v in SAFE_ENV.items():
        os.environ.setdefault(k, v)
    import warnings

    warnings.simplefilter("ignore", SyntaxWarning)  # from the mutators' own ast.parse
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    if args.engine == "atheris":
        return atheris_engine(args)
    return random_engine(args)


if __name__ == "__main__":
    sys.exit(main())
