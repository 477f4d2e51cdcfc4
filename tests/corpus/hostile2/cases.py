"""The cases of the second hostile corpus, as data.

Each `Case` is one command line run as `python -m gradcli ARGV` in a fresh directory holding
`prog.py` (the case's program) and the case's other files. What must happen:

- the exit status is one of `codes` (1 for a wrong input, 2 for command-line usage, 0 where a
  right answer is a right outcome, 3 where `check` disagrees); never 70, never a traceback;
- on an error, one clear message on stderr: its first line (after any warnings) says
  `error:`, and one of `patterns` (regular expressions) is found in the message; where the
  case has a source position (`at`), the message starts with `prog.py:LINE:COL:` and shows
  the line with a caret;
- within `seconds` of wall-clock time and 1 GiB of peak resident memory;
- no file in the directory created, changed or removed except the case's `outputs`, and those
  only when the command succeeds (an error must not leave half a file);
- what `gradcli export` writes (`export`) is valid, inert Python.

Many constructs are "not supported yet" today (f-strings, lambda, while, try, comprehensions,
classes other than `torch.autograd.Function`). Their cases accept either today's
"not supported" refusal or the limit that must stop them once the language grows, so the
corpus holds in both worlds. `xfail` names the family of a case that fails today: when the
cause is fixed, the strict xfail turns the case red and its mark must be removed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# A file to create: text, bytes, or a special entry:
# ("fifo",), ("dir",), ("symlink", target), ("hardlink", existing name),
# ("repeat", chunk, count, head, tail): head + chunk * count + tail, written in pieces,
# ("npy", header dict text, payload): a .npy file with a hand-written header.
FileSpec = str | bytes | tuple

ANY = "any"  # `at`: some `prog.py:LINE:COL:` position with a caret, wherever it points

# Families, most severe first (the order of the report).
CODE = "code in what gradcli writes"
FILES = "loss of the user's data"
NUMPY = "numpy through the back door"
BUDGET = "budgets checked only between operations"
ANALYSIS = "analysis and output not budgeted"
INPUTS = "inputs not bounded"
IO = "I/O errors are environment errors"
TIME = "time limit on every path"
SMALL = "small ones"
ESCAPE = "attempts that must keep failing"
FAMILIES = (CODE, FILES, NUMPY, BUDGET, ANALYSIS, INPUTS, IO, TIME, SMALL, ESCAPE)


@dataclass
class Case:
    id: str
    family: str
    program: FileSpec | None  # written to `prog_name`; None: no program file
    argv: list[str] = field(default_factory=lambda: ["run", "prog.py"])
    codes: frozenset[int] = frozenset({1})
    patterns: tuple[str, ...] = ()  # one must match the message (regular expressions)
    at: tuple[int, int] | str | None = None  # (line, col) 1-based, ANY, or None: not checked
    env: dict[str, str] = field(default_factory=dict)
    files: dict[str, FileSpec] = field(default_factory=dict)
    outputs: tuple[str, ...] = ()  # files the command may create or change when it succeeds
    stdin: str | bytes = "null"  # "null", "closed", "zero", or the bytes to feed
    stdout: str = "file"  # "file" (captured), "full" (/dev/full), "closed", "broken" (a pipe)
    export: str | None = None  # generated Python to verify: "-" (stdout) or an output file
    printed: bool = False  # stdout may hold the program's output even on an error
    stdout_patterns: tuple[str, ...] = ()  # on success, each must match stdout
    seconds: float = 5.0  # wall-clock bound (the default time limit of the harness is 1 s)
    kill_after: float | None = None
    max_stderr: int = 10_000  # bytes: one clear message, not an echo of a huge input
    forbid: tuple[str, ...] = ()  # regular expressions that must not match stderr or stdout
    fsize: int | None = None  # RLIMIT_FSIZE in bytes: a write fails past it (EFBIG)
    prog_name: str = "prog.py"
    xfail: str | None = None  # why it fails today (the family); None: it passes today


# --- patterns ---------------------------------------------------------------------------------

REFUSED = (
    r"not supported",
    r"is not defined",
    r"has no attribute",
    r"is not accessible",
    r"cannot import",
    r"syntax error",
    r"unknown module",
    r"only supported",
    r"holds only",
    r"not callable",
    r"unsupported operand",
    r"cannot set attribute",
    r"Tensor operand",
    r"nested too deeply",
)
LIMIT = (r"over the limit", r"limit of", r"the time limit")
TIME_LIMIT = (r"time limit",)
NOT_SUPPORTED_OR_LIMIT = REFUSED + LIMIT
DTYPE = (r"dtype",)
WRITE_REFUSED = (
    r"input",
    r"would overwrite",
    r"overwrite",
    r"same file",
    r"refus",
)

BASE = """\
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
c = torch.ones(3)
y = x * 2 + c
z = y.sum()
"""

# A program whose Jacobian, Hessian or check takes a minute or more, while running it (a few
# matrix-vector products) takes well under a second.
SLOW = """\
import torch
torch.manual_seed(0)
x = torch.randn(2000, requires_grad=True)
W = torch.randn(2000, 2000) / 45
h = x
for i in range(40):
    h = torch.tanh(W @ h)
y = h
s = (h * h).sum()
"""

SLOW_SMALL = """\
import torch
torch.manual_seed(0)
x = torch.randn(1500, requires_grad=True)
W = torch.randn(1500, 1500) / 40
h = x
for i in range(30):
    h = torch.tanh(W @ h)
y = h
s = (h * h).sum()
"""

# Elementwise on 3100 elements: a 3100 x 3100 Jacobian, 9,610,000 entries (under the
# jacobian_entries limit and, for the batched methods, the tensor_elements limit).
BIG_ELEMENTWISE = """\
import torch
x = torch.linspace(-1, 1, 3100, requires_grad=True)
y = torch.tanh(x) * 2 + x * x
s = (y * y).sum()
"""

# Linear on 5000 elements: a 5000 x 5000 Jacobian (and Hessian), exactly the
# jacobian_entries limit; one row at a time (`rows`) it stays under tensor_elements.
BIG_LINEAR = """\
import torch
x = torch.linspace(-1, 1, 5000, requires_grad=True)
y = x * 2 + 1
s = (y * y).sum()
"""

cases: list[Case] = []


def add(*new: Case) -> None:
    cases.extend(new)


def prog_case(id: str, family: str, program: FileSpec, patterns: tuple[str, ...], **kw) -> Case:  # noqa: A002
    kw.setdefault("at", ANY)
    return Case(id, family, program, patterns=patterns, **kw)


# === code in what gradcli writes ============================================================

EXPORT_PROG = """\
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = (x * 2).sum()
"""


def export_name(id: str, name: str, **kw) -> Case:  # noqa: A002
    """`gradcli export` of a program whose file name is hostile: the header of the script
    must not turn the name into code."""
    return Case(
        id,
        CODE,
        EXPORT_PROG,
        argv=["export", name],
        codes=frozenset({0}),
        prog_name=name,
        export="-",
        **kw,
    )


INJECT = "import os\nos.system('touch PWNED')\n"
add(
    export_name("export_name_newline", "p\n" + INJECT + "#.py"),
    export_name("export_name_cr", "p\rimport os\ros.system('touch PWNED')\r#.py"),
    export_name("export_name_crlf", "p\r\nimport os\r\nos.system('touch PWNED')\r\n#.py"),
    export_name("export_name_line_separator", "p\u2028import os\u2028#.py"),
    export_name("export_name_paragraph_separator", "p\u2029import os\u2029#.py"),
    export_name("export_name_nel", "p\u0085import os\u0085#.py"),
    export_name("export_name_form_feed", "p\x0cimport os\x0c#.py"),
    export_name("export_name_vertical_tab", "p\x0bimport os.py"),
    export_name("export_name_quotes", "p'\"\"\"'''`.py"),
    export_name("export_name_backslash", "p\\"),
    export_name("export_name_braces", "{x}{0}%s%(a)s.py"),
    export_name("export_name_bidi_override", "p\u202e.py\u202c#\u2066x\u2069"),
    export_name("export_name_escape_sequence", "p\x1b[2J\x1b]0;owned\x07.py"),
    export_name("export_name_unicode", "程序_ﬁ_ｐｒｏｇ_🙂.py"),
    export_name("export_name_long", "p" * 240 + ".py"),
    export_name("export_name_dir_newline", "d\n" + INJECT + "x/prog.py"),
    export_name("export_name_surrogate", "p\udcff\udc80.py"),
    Case(
        "export_stdin",
        CODE,
        None,
        argv=["export", "-"],
        codes=frozenset({0}),
        stdin=EXPORT_PROG.encode(),
        export="-",
    ),
    Case(
        "export_output_file_name_newline",
        CODE,
        EXPORT_PROG,
        argv=["export", "prog.py", "--output", "out\nimport os.py"],
        codes=frozenset({0}),
        outputs=("out\nimport os.py",),
        export="out\nimport os.py",
    ),
)


def export_prog(id: str, program: str, argv: tuple[str, ...] = (), **kw) -> Case:  # noqa: A002
    """`gradcli export` of a program with hostile tensor names, strings or numbers: the script
    must parse and define every name it uses (a bare `inf` is a NameError)."""
    kw.setdefault("codes", frozenset({0}))
    return Case(id, CODE, program, argv=["export", "prog.py", *argv], export="-", **kw)


P = "import torch\nx = torch.tensor([1., 2., 3.], requires_grad=True)\n"
add(
    export_prog(
        "export_inf_leaf", P + "c = torch.tensor([float('inf'), 1., 2.])\ny = (x * c).sum()"
    ),
    export_prog(
        "export_nan_leaf", P + "c = torch.tensor([float('nan'), 1., 2.])\ny = (x * c).sum()"
    ),
    export_prog(
        "export_neg_inf_leaf", P + "c = torch.full((3,), -float('inf'))\ny = (x + c).sum()"
    ),
    export_prog(
        "export_inf_requires_grad",
        "import torch\nx = torch.tensor([1., float('inf')], requires_grad=True)\ny = x.sum()",
    ),
    export_prog("export_inf_scalar", P + "y = (x * float('inf')).sum()"),
    export_prog("export_nan_scalar", P + "y = (x + float('nan')).sum()"),
    export_prog("export_torch_inf", P + "y = (x * torch.inf).sum()"),
    export_prog("export_math_nan", P + "import math\ny = (x - math.nan).sum()"),
    export_prog("export_clamp_inf", P + "y = x.clamp(min=-float('inf'), max=float('inf')).sum()"),
    export_prog("export_pow_inf", P + "y = (x ** float('inf')).sum()"),
    export_prog("export_rpow_inf", P + "y = (float('inf') ** x).sum()"),
    export_prog(
        "export_leaky_nan", P + "y = torch.nn.functional.leaky_relu(x, float('nan')).sum()"
    ),
    export_prog(
        "export_softplus_inf", P + "y = torch.nn.functional.softplus(x, beta=float('inf')).sum()"
    ),
    export_prog("export_huge_float", P + "y = (x * 1.7976931348623157e308).sum()"),
    export_prog("export_tiny_float", P + "y = (x * 5e-324).sum()"),
    export_prog("export_huge_int", P + "y = (x * 2**200).sum()"),
    export_prog("export_huge_int_pow", P + "y = (x ** (2**100)).sum()", codes=frozenset({0, 1})),
    export_prog("export_item_scalar", P + "y = x.clamp(min=x[0].item()).sum()"),
    export_prog("export_numpy_float", P + "import numpy as np\ny = (x * np.pi).sum()"),
    export_prog(
        "export_shadow_torch",
        "import torch\ntorch = torch.ones(3, requires_grad=True)\ny = torch.sum()",
    ),
    export_prog(
        "export_shadow_F",
        "import torch\nF = torch.ones(3, requires_grad=True)\n"
        "y = torch.nn.functional.leaky_relu(F).sum()",
    ),
    export_prog(
        "export_shadow_print",
        "import torch\nprint = torch.ones(3, requires_grad=True)\ny = print.sum()",
    ),
    export_prog(
        "export_unicode_names",
        "import torch\nｘ = torch.ones(3, requires_grad=True)\n変数 = ｘ * 2\nÿ = 変数.sum()",
    ),
    export_prog(
        "export_long_name",
        "import torch\n" + "n" * 50_000 + " = torch.ones(3, requires_grad=True)\n"
        "y = (" + "n" * 50_000 + " * 2).sum()",
    ),
    export_prog(
        "export_gelu_string",
        P + "y = torch.nn.functional.gelu(x, approximate='tanh\\nimport os').sum()",
        codes=frozenset({0, 1}),
    ),
    export_prog(
        "export_reduction_string",
        P + "y = torch.nn.functional.mse_loss(x, x * 0, reduction='sum\"\\nimport os\\n#')",
        codes=frozenset({0, 1}),
    ),
    export_prog(
        "export_index_tensor",
        P + "i = torch.tensor([2, 0])\ny = x[i].sum() + x[1:].sum() + x[None, ..., ::2].sum()",
    ),
    export_prog("export_grad_huge", P + "y = x * 3", argv=("--grad", "1e308,-1e308,5e-324")),
    export_prog("export_set_values", P + "y = (x * 3).sum()", argv=("--set", "x=1e308,0,-0")),
    export_prog(
        "export_int_leaf",
        P + "k = torch.tensor([2**62, -(2**62), 7])\ny = (x * k).sum()",
    ),
    export_prog("export_float32", P + "y = (x.float() * 2).sum()", argv=("--dtype", "float32")),
    export_prog(
        "export_wrt_intermediate",
        P + "h = x * 2\nh2 = h * h\ny = h2.sum()",
        argv=("--wrt", "h", "--wrt", "x", "--wrt", "h"),
        codes=frozenset({0, 1}),
    ),
)


# === loss of the user's data ================================================================


def overwrite(id: str, argv: list[str], files: dict | None = None, **kw) -> Case:  # noqa: A002
    """`--output` onto an input of the command: refused (exit 1 or 2), the input untouched."""
    kw.setdefault("codes", frozenset({1, 2}))
    return Case(id, FILES, BASE, argv=argv, patterns=WRITE_REFUSED, files=files or {}, **kw)


G3 = "[1, 1, 1]"
add(
    overwrite("output_onto_program", ["backward", "prog.py", "--of", "z", "--output", "prog.py"]),
    overwrite("output_onto_program_dot", ["backward", "prog.py", "--output", "./prog.py"]),
    overwrite(
        "output_onto_program_dotdot",
        ["backward", "prog.py", "-o", "sub/../prog.py"],
        files={"sub": ("dir",)},
    ),
    overwrite("output_onto_program_absolute", ["backward", "prog.py", "-o", "{cwd}/prog.py"]),
    overwrite("output_onto_program_double_slash", ["backward", "prog.py", "-o", ".//prog.py"]),
    overwrite(
        "output_onto_program_symlink",
        ["backward", "prog.py", "-o", "link.py"],
        files={"link.py": ("symlink", "prog.py")},
    ),
    overwrite(
        "output_onto_program_hardlink",
        ["backward", "prog.py", "-o", "hard.py"],
        files={"hard.py": ("hardlink", "prog.py")},
    ),
    overwrite(
        "program_via_symlink",
        ["backward", "link.py", "-o", "prog.py"],
        files={"link.py": ("symlink", "prog.py")},
    ),
    overwrite(
        "program_via_dir_symlink",
        ["backward", "d/prog.py", "-o", "prog.py"],
        files={"d": ("symlink", ".")},
    ),
    overwrite("export_onto_program", ["export", "prog.py", "--output", "prog.py"]),
    overwrite("export_onto_program_dot", ["export", "./prog.py", "--output", "prog.py"]),
    overwrite("forward_onto_program", ["forward", "prog.py", "--output", "prog.py"]),
    overwrite("graph_onto_program", ["graph", "prog.py", "--output", "prog.py"]),
    overwrite("graph_dot_onto_program", ["graph", "prog.py", "--dot", "--output", "prog.py"]),
    overwrite("jacobian_onto_program", ["jacobian", "prog.py", "--of", "y", "-o", "prog.py"]),
    overwrite(
        "jacobian_csv_onto_program",
        ["jacobian", "prog.py", "--of", "y", "-f", "csv", "-o", "prog.py"],
    ),
    overwrite("hessian_onto_program", ["hessian", "prog.py", "-o", "prog.py"]),
    overwrite("hvp_onto_program", ["hvp", "prog.py", "--v", "1,1,1", "-o", "prog.py"]),
    overwrite(
        "check_onto_program",
        ["check", "prog.py", "--no-sympy", "-o", "prog.py"],
        codes=frozenset({1, 2}),
    ),
    overwrite("symbolic_onto_program", ["symbolic", "prog.py", "-o", "prog.py"]),
    overwrite(
        "output_onto_grad_file",
        ["backward", "prog.py", "--of", "y", "--grad", "@g.json", "-o", "g.json"],
        files={"g.json": G3},
    ),
    overwrite(
        "output_onto_grad_file_dot",
        ["backward", "prog.py", "--of", "y", "--grad", "@./g.json", "-o", "g.json"],
        files={"g.json": G3},
    ),
    overwrite(
        "output_onto_grad_file_symlink",
        ["backward", "prog.py", "--of", "y", "--grad", "@g.json", "-o", "gl.json"],
        files={"g.json": G3, "gl.json": ("symlink", "g.json")},
    ),
    overwrite(
        "output_onto_grad_file_hardlink",
        ["backward", "prog.py", "--of", "y", "--grad", "@g.json", "-o", "gh.json"],
        files={"g.json": G3, "gh.json": ("hardlink", "g.json")},
    ),
    overwrite(
        "output_onto_grad_csv",
        ["backward", "prog.py", "--of", "y", "--grad", "@g.csv", "-o", "g.csv"],
        files={"g.csv": "1,1,1\n"},
    ),
    overwrite(
        "export_onto_grad_file",
        ["export", "prog.py", "--of", "y", "--grad", "@g.json", "-o", "g.json"],
        files={"g.json": G3},
    ),
    overwrite(
        "output_onto_set_file",
        ["backward", "prog.py", "--set", "x=@s.json", "-o", "s.json"],
        files={"s.json": G3},
    ),
    overwrite(
        "output_onto_set_file_absolute",
        ["forward", "prog.py", "--set", "x=@{cwd}/s.json", "-o", "./s.json"],
        files={"s.json": G3},
    ),
    overwrite(
        "jacobian_onto_set_file",
        ["jacobian", "prog.py", "--of", "y", "--set", "x=@s.csv", "-f", "csv", "-o", "s.csv"],
        files={"s.csv": "1,2,3\n"},
    ),
    overwrite(
        "hvp_onto_v_file",
        ["hvp", "prog.py", "--v", "@v.json", "-o", "v.json"],
        files={"v.json": G3},
    ),
    overwrite(
        "jacobian_npy_onto_set_file",
        ["jacobian", "prog.py", "--of", "y", "--set", "x=@s.npy", "-f", "npy", "-o", "s.npy"],
        files={
            "s.npy": (
                "npy",
                "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }",
                b"\x00" * 16 + b"\x00\x00\x00\x00\x00\x00\xf0?",
            )
        },
    ),
)

# An error while writing must not leave half a file: the old file stays as it was, and no
# temporary file is left behind. RLIMIT_FSIZE makes the write fail half-way (EFBIG).
OLD = "precious data\n" * 10
for cmd, extra in (
    ("jacobian", ["--of", "y", "-f", "plain"]),
    ("jacobian", ["--of", "y", "-f", "json"]),
    ("jacobian", ["--of", "y", "-f", "csv"]),
    ("forward", ["-f", "json"]),
    ("export", []),
):
    add(
        Case(
            f"half_write_{cmd}_{extra[-1] if extra else 'torch'}",
            FILES,
            "import torch\nx = torch.linspace(0, 1, 1000, requires_grad=True)\ny = x * x\n"
            "s = y.sum()\n",
            argv=[cmd, "prog.py", *extra, "--output", "out.txt"],
            files={"out.txt": OLD},
            patterns=(r"cannot write", r"too large", r"File too large", r"write"),
            fsize=8192,
        )
    )
add(
    Case(
        "failed_command_writes_nothing",
        FILES,
        "import torch\nx = torch.ones(3, requires_grad=True)\ny = x.sum()\nz = undefined\n",
        argv=["backward", "prog.py", "--output", "out.txt"],
        files={"out.txt": OLD},
        patterns=(r"not defined",),
        at=(4, 5),
    ),
    Case(
        "failed_of_writes_nothing",
        FILES,
        BASE,
        argv=["backward", "prog.py", "--of", "nope", "--output", "new.txt"],
        patterns=(r"no tensor named",),
    ),
    Case(
        "output_fifo",
        FILES,
        BASE,
        argv=["backward", "prog.py", "--output", "out.fifo"],
        files={"out.fifo": ("fifo",)},
        patterns=(r"not a regular file", r"cannot write", r"FIFO", r"fifo", r"time limit"),
    ),
    Case(
        "output_missing_dir",
        FILES,
        BASE,
        argv=["backward", "prog.py", "--output", "no/such/dir/out.txt"],
        patterns=(r"cannot write",),
    ),
    Case(
        "output_dir_trailing_slash",
        FILES,
        BASE,
        argv=["backward", "prog.py", "--output", "sub/"],
        files={"sub": ("dir",)},
        patterns=(r"cannot write", r"directory"),
    ),
    Case(
        "output_through_file_as_dir",
        FILES,
        BASE,
        argv=["backward", "prog.py", "--output", "prog.py/out.txt"],
        patterns=(r"cannot write", r"not a directory"),
    ),
)


# === NumPy through the back door ============================================================


def dtype_case(id: str, line: str, patterns: tuple[str, ...] = DTYPE, **kw) -> Case:  # noqa: A002
    """A dtype PyTorch does not have, reached through a string or a NumPy object: refused with
    a message about the dtype."""
    return prog_case(id, NUMPY, "import torch\nimport numpy as np\n" + line, patterns, **kw)


BAD_DTYPES = {
    "object": '"O"',
    "object_word": '"object"',
    "unicode_huge": '"U1000000"',
    "bytes_huge": '"S1000000"',
    "subarray": '"(100000,)f8"',
    "timedelta": '"m8[s]"',
    "datetime": '"M8[D]"',
    "void": '"V4"',
    "half_char": '"e"',
    "float128": '"float128"',
    "longdouble": '"g"',
    "complex": '"c16"',
    "int8": '"i1"',
    "uint64": '"u8"',
    "big_endian": '">f8"',
    "struct": '"i4,f8"',
    "unicode_small": '"U5"',
    "float32_string": '"float32"',
}
for name, text in BAD_DTYPES.items():
    add(dtype_case(f"dtype_{name}_ones", f"x = torch.ones(3, dtype={text})"))

CONSTRUCTORS = {
    "tensor": "torch.tensor([1.0, 2.0], dtype=D)",
    "zeros": "torch.zeros(2, dtype=D)",
    "empty": "torch.empty(2, dtype=D)",
    "full": "torch.full((2,), 1.0, dtype=D)",
    "arange": "torch.arange(0, 3, dtype=D)",
    "linspace": "torch.linspace(0, 1, 3, dtype=D)",
    "eye": "torch.eye(2, dtype=D)",
    "rand": "torch.rand(2, dtype=D)",
    "randn": "torch.randn(2, dtype=D)",
    "zeros_like": "torch.zeros_like(torch.ones(2), dtype=D)",
    "ones_like": "torch.ones_like(torch.ones(2), dtype=D)",
    "full_like": "torch.full_like(torch.ones(2), 7, dtype=D)",
    "as_tensor": "torch.as_tensor([1.0], dtype=D)",
    "new_zeros": "torch.ones(2).new_zeros(2, dtype=D)",
    "new_full": "torch.ones(2).new_full((2,), 3.0, dtype=D)",
    "new_tensor": "torch.ones(2).new_tensor([1.0], dtype=D)",
    "to": "torch.ones(2).to(D)",
    "to_keyword": "torch.ones(2).to(dtype=D)",
    "type": "torch.ones(2).type(D)",
    "np_array": "np.array([1.0], dtype=D)",
    "np_zeros": "np.zeros(2, dtype=D)",
    "sum": "torch.ones(2).sum(dtype=D)",
    "softmax": "torch.softmax(torch.ones(2), 0, dtype=D)",
    "one_hot_to": "torch.nn.functional.one_hot(torch.tensor([1])).to(D)",
}
for name, expr in CONSTRUCTORS.items():
    add(dtype_case(f"dtype_object_{name}", "x = " + expr.replace("D", '"O"')))
add(
    dtype_case(
        "dtype_np_dtype_object", 'x = torch.ones(2, dtype=np.dtype("O"))', patterns=DTYPE + REFUSED
    ),
    dtype_case(
        "dtype_np_object_type", "x = torch.ones(2, dtype=np.object_)", patterns=DTYPE + REFUSED
    ),
    dtype_case("dtype_python_object", "x = torch.ones(2, dtype=object)", patterns=DTYPE + REFUSED),
    dtype_case("dtype_python_str", "x = torch.ones(2, dtype=str)", patterns=DTYPE + REFUSED),
    # PyTorch takes Python's int as torch.int64 (float, bool likewise): a right answer
    dtype_case("dtype_python_int", "x = torch.ones(2, dtype=int)\nprint(x)", codes=frozenset({0})),
    dtype_case("dtype_number", "x = torch.ones(2, dtype=7)"),
    dtype_case("dtype_list", "x = torch.ones(2, dtype=[('a', 'f8')])"),
    dtype_case(
        "set_default_dtype_string",
        'torch.set_default_dtype("O")',
        patterns=DTYPE + (r"floating-point",),
    ),
    # Object arrays hold Python integers: unbounded arithmetic inside one NumPy call.
    dtype_case(
        "object_int_squaring",
        'x = torch.tensor([10**70], dtype="O")\nfor i in range(8):\n    x = x * x',
        patterns=DTYPE + LIMIT,
    ),
    # 300 strings of a million characters, filled: 1.2 GB in one constructor.
    dtype_case("unicode_huge_fill", 'x = torch.ones(300, dtype="U1000000")'),
    # 3000 "elements" of 100,000 float64 each: 2.4 GB behind a tensor of 3000 elements.
    dtype_case("subarray_huge_fill", 'x = torch.ones(3000, dtype="(100000,)f8")'),
)


# === budgets checked only between operations ===============================================


def budget(id: str, program: str, patterns: tuple[str, ...] = LIMIT, **kw) -> Case:  # noqa: A002
    """One operation that would take gigabytes or minutes: refused (or stopped by a named
    limit) before the work, within 1 GiB."""
    return prog_case(id, BUDGET, "import torch\n" + program, patterns, **kw)


MILLION = "x = torch.ones(10**6)\n"
ROW = "r = torch.ones(10**6)\n"
COL = "k = torch.ones(200, 1)\n"
EMPTY = "e = torch.zeros(0, 2 * 10**8)\n"
add(
    budget(
        "print_list_of_ranges",
        "r = list(range(10**6))\nprint(r, r, r, r, r, r, r, r, r, r)",
        printed=True,
    ),
    budget("str_of_many_lists", "r = list(range(10**6))\ns = str([r, r, r, r, r])"),
    budget(
        "zip_of_many_ranges",
        "r = range(10**6)\nz = zip(" + ", ".join(["r"] * 60) + ")",
    ),
    budget(
        "map_of_many_ranges",
        "r = range(10**6)\nm = map(lambda *a: 0, " + ", ".join(["r"] * 60) + ")",
    ),
    budget("zip_of_a_growing_list", "l = [1]\nz = list(map(lambda v: l.append(v), l))"),
    budget(
        "list_of_list_repeat",
        "r = list(range(10**6))\nl = list([r] * 10**6)",
        codes=frozenset({0, 1}),
    ),
    budget(
        "enumerate_of_range",
        "e = enumerate(range(10**6))\nf = enumerate(range(10**6))",
        codes=frozenset({0, 1}),
    ),
    budget(
        "repr_of_many_lists",
        "r = list(range(10**6))\ns = repr([r, r, r, r, r])",
        NOT_SUPPORTED_OR_LIMIT,
    ),
    budget(
        "list_of_string",
        's = "x" * 10**6\nl = list(s + s)',
        NOT_SUPPORTED_OR_LIMIT,
        codes=frozenset({0, 1}),
    ),
    budget(
        "print_deep_tensor_list",
        "l = [torch.ones(10**6)] * 1000\nprint(l)",
        printed=True,
        codes=frozenset({0, 1}),
    ),
    budget("str_of_big_tensor", "s = str(torch.linspace(0, 1, 10**7))", codes=frozenset({0, 1})),
    budget("string_times_billion", 's = "x" * 10**9', NOT_SUPPORTED_OR_LIMIT),
    budget("string_times_billion_reversed", 's = 10**9 * "xy"', NOT_SUPPORTED_OR_LIMIT),
    budget("list_times_billion", "l = [0.5, 1.5] * 10**9"),
    budget("tuple_times_billion", "t = (1,) * 10**9"),
    budget(
        "clamp_inplace_broadcast",
        MILLION + "x.clamp_(min=[[0.0]] * 200)",
        patterns=LIMIT + (r"broadcast",),
    ),
    budget("add_inplace_broadcast", MILLION + COL + "x.add_(k)", patterns=LIMIT + (r"broadcast",)),
    budget("mul_inplace_broadcast", MILLION + COL + "x.mul_(k)", patterns=LIMIT + (r"broadcast",)),
    budget(
        "sub_inplace_broadcast",
        MILLION + COL + "x.sub_(k, alpha=2)",
        patterns=LIMIT + (r"broadcast",),
    ),
    budget("div_inplace_broadcast", MILLION + COL + "x.div_(k)", patterns=LIMIT + (r"broadcast",)),
    budget(
        "copy_inplace_broadcast", MILLION + COL + "x.copy_(k)", patterns=LIMIT + (r"broadcast",)
    ),
    budget("where_broadcast", MILLION + COL + "w = torch.where(k > 0, x, k)"),
    budget("compare_broadcast", "x = torch.ones(10**7)\nk = torch.ones(200, 1)\nb = x > k"),
    budget("masked_fill_broadcast", MILLION + COL + "m = x.masked_fill(k > 0, 0.0)"),
    budget(
        "mse_broadcast", MILLION + COL + "l = torch.nn.functional.mse_loss(x, k, reduction='none')"
    ),
    budget("maximum_broadcast", MILLION + COL + "m = torch.maximum(x, k)"),
    budget("sum_over_empty", EMPTY + "s = e.sum(0)"),
    budget("mean_over_empty", EMPTY + "s = e.mean(0)"),
    budget("prod_over_empty", EMPTY + "s = e.prod(0)"),
    budget("amax_over_empty", EMPTY + "s = e.amax(0)", patterns=LIMIT + (r"empty", r"zero")),
    budget("logsumexp_over_empty", EMPTY + "s = e.logsumexp(0)"),
    budget("norm_over_empty", EMPTY + "s = e.norm(dim=0)"),
    budget("var_over_empty", EMPTY + "s = e.var(0)"),
    budget("cumsum_empty_then_sum", EMPTY + "s = e.cumsum(1).sum(0)"),
    budget("any_over_empty", EMPTY + "s = e.any(0)"),
    budget("matmul_from_empty", "a = torch.zeros(2 * 10**8, 0)\nb = torch.zeros(0, 1)\nc = a @ b"),
    budget(
        "expand_empty_then_sum", "e = torch.zeros(0, 1)\nf = e.expand(0, 2 * 10**8)\ns = f.sum(0)"
    ),
    budget(
        "one_hot_huge_classes",
        "t = torch.zeros(0, dtype=torch.int64)\no = torch.nn.functional.one_hot(t, 2 * 10**8)",
    ),
    budget(
        "one_hot_enormous_classes",
        "t = torch.zeros(0, dtype=torch.int64)\no = torch.nn.functional.one_hot(t, 10**13)",
    ),
    budget("diag_huge", "d = torch.ones(12000).diag()"),
    budget("outer_huge", "a = torch.ones(12000)\no = torch.outer(a, a)"),
    budget("tril_huge_ok", "t = torch.ones(3000, 3000).tril()", codes=frozenset({0, 1})),
    budget("tolist_nested", "l = torch.ones(10**7, 1).tolist()"),
    budget("tolist_flat_print", "l = torch.ones(10**7).tolist()\nprint(l)"),
    budget("numpy_tolist", "l = torch.ones(10**7, 1).numpy().tolist()", patterns=LIMIT + REFUSED),
    # An integer matmul: NumPy has no BLAS for integers (half a minute for 2500 x 2500). With
    # values whose products and sums stay exact in float64 it is computed in float64 (ones:
    # a second); otherwise in pieces, the time limit checked between them.
    budget(
        "int_matmul",
        "a = torch.full((2500, 2500), 2**40, dtype=torch.int64)\nb = a @ a",
        patterns=LIMIT,
        seconds=5.0,
    ),
    budget(
        "int_matmul_bmm",
        "a = torch.full((2, 2000, 2000), 2**40, dtype=torch.int64)\nb = torch.bmm(a, a)",
        patterns=LIMIT,
        seconds=5.0,
    ),
    # Float batched products in PyTorch's order: the plain loop (under 400 multiply-adds a
    # matrix) at the most work the elements limit lets through, and many matrices each given
    # mm's order, the clock read between them.
    budget(
        "bmm_plain_loop_most_work",
        "a = torch.ones(1, 20, 19)\nb = torch.ones(480000, 19, 1)\nc = a @ b\n"
        "d = torch.einsum('bij,bjk->bik', torch.ones(25000, 20, 19), torch.ones(25000, 19, 1))\n"
        "print(c[-1, -1, 0].item(), d[-1, -1, 0].item())",
        patterns=TIME_LIMIT,
        codes=frozenset({0, 1}),
        stdout_patterns=(r"^19\.0 19\.0\n$",),
        seconds=10.0,
    ),
    budget(
        "bmm_broadcast_batches_not_copied",
        "x = torch.ones(2, 1, 1000, 1000)\ny = torch.ones(1, 2048, 1000, 2)\nz = x @ y\n"
        "print(z[1, 2047, 999, 1].item())",
        patterns=TIME_LIMIT,
        codes=frozenset({0, 1}),
        stdout_patterns=(r"^1000\.0\n$",),
        seconds=20.0,
    ),
    budget(
        "bmm_many_matrices",
        "a = torch.ones(4096, 2, 1200)\nb = torch.ones(4096, 1200, 2)\nc = torch.bmm(a, b)\n"
        "print(c[-1].sum().item())",
        patterns=TIME_LIMIT,
        codes=frozenset({0, 1}),
        stdout_patterns=(r"^4800\.0\n$",),
        seconds=15.0,
    ),
    # Batched products of one row or column in MKL's batched order (a kernel's emulation a
    # matrix), as many matrices as bmm mirrors, and einsum's way to them; float64 products
    # emulated step by step in a loop; float64 values outside the emulation's exact range
    budget(
        "bmm_many_narrow_matrices",
        "a = torch.ones(4096, 1, 120)\nb = torch.ones(4096, 120, 20)\nc = torch.bmm(a, b)\n"
        "d = torch.einsum('bi,bij->bj', torch.ones(4096, 120), torch.ones(4096, 120, 20))\n"
        "e = torch.ones(4096, 20, 120) @ torch.ones(4096, 120, 1)\n"
        "print(c[-1, 0, -1].item(), d[-1, -1].item(), e[-1, -1, 0].item())",
        patterns=TIME_LIMIT,
        codes=frozenset({0, 1}),
        stdout_patterns=(r"^120\.0 120\.0 120\.0\n$",),
        seconds=15.0,
    ),
    budget(
        "float64_chain_in_a_loop",
        "x = torch.ones(2, 8000, dtype=torch.float64)\n"
        "y = torch.ones(8000, 2, dtype=torch.float64)\n"
        "for i in range(10**6):\n    z = x @ y\nprint(z[0, 0].item())",
        patterns=TIME_LIMIT,
        seconds=15.0,
    ),
    budget(
        "float64_outside_exact_range",
        "x = torch.ones(3, 4, dtype=torch.float64)\nx[0, 1] = float('inf')\nx[1, 2] = 1e300\n"
        "x[2, 3] = float('nan')\ny = x @ torch.ones(4, 2, dtype=torch.float64)\n"
        "print(y[0, 0].item(), y[1, 1].item() > 1e299, y[2, 0].item())",
        codes=frozenset({0}),
        stdout_patterns=(r"^inf True nan\n$",),
    ),
    budget(
        "int_matmul_exact_in_float",
        "a = torch.ones(2500, 2500, dtype=torch.int64)\nb = a @ a\nprint(b[0, 0].item())",
        patterns=TIME_LIMIT,  # on a loaded machine; the right answer otherwise
        codes=frozenset({0, 1}),
        stdout_patterns=(r"^2500\n$",),
        seconds=5.0,
    ),
    budget("arange_float_huge", "x = torch.arange(0, 1e12)"),
    budget("arange_tiny_step", "x = torch.arange(0, 1, 1e-12)"),
    budget("linspace_huge", "x = torch.linspace(0, 1, 10**12)"),
    budget(
        "numpy_linspace_retstep_huge",
        "import numpy as np\nx = np.linspace(0, 1, 10**12, endpoint=False, retstep=True)",
    ),
    budget(
        "numpy_logical_and_broadcast_huge",
        "import numpy as np\na = np.zeros((10**5, 1)) == 0\nb = np.zeros((1, 10**5)) == 0\n"
        "c = np.logical_and(a, b)",
    ),
    budget(
        "list_index_as_tuple_huge",
        "x = torch.ones(10**4)\ny = x[[range(10**4)] + [None] * 30]\nz = y.expand(10**5, 10**4)",
        patterns=LIMIT + (r"not supported", r"too many indices", r"index"),
    ),
    budget("expand_then_sum_ok", "x = torch.ones(1).expand(10**7).sum()", codes=frozenset({0, 1})),
    budget("repeat_huge", "x = torch.ones(1000).repeat(10**5, 10**3)"),
    budget(
        "repeat_empty_dims", "x = torch.ones(0).repeat(10**12, 10**12)", codes=frozenset({0, 1})
    ),
    budget(
        "cat_of_many",
        "x = torch.ones(1, requires_grad=True)\ny = torch.cat([x] * 10**6).sum()\ny.backward()",
        codes=frozenset({0, 1}),
    ),
    budget("stack_of_many", "x = torch.ones(20)\ny = torch.stack([x] * 10**6)"),
    budget(
        "index_huge_result",
        "x = torch.ones(1, 3000)\ni = torch.zeros(3000, 3000, dtype=torch.int64)\ny = x[i]",
    ),
    budget(
        "gather_broadcast",
        "x = torch.ones(3000, 3000)\n"
        "i = torch.zeros(3000, 3000, dtype=torch.int64)\ny = x.gather(1, i)",
        codes=frozenset({0, 1}),
    ),
    budget("for_range_huge_break", "for i in range(10**18):\n    break", codes=frozenset({0, 1})),
    budget(
        "listcomp_range_huge", "l = [i for i in range(10**18)]", patterns=NOT_SUPPORTED_OR_LIMIT
    ),
    budget("setcomp_range_huge", "l = {i for i in range(10**18)}", patterns=NOT_SUPPORTED_OR_LIMIT),
    budget(
        "dictcomp_range_huge", "l = {i: i for i in range(10**18)}", patterns=NOT_SUPPORTED_OR_LIMIT
    ),
    budget("genexp_sum_huge", "s = sum(i for i in range(10**18))", patterns=NOT_SUPPORTED_OR_LIMIT),
    budget(
        "nested_listcomp",
        "l = [[j for j in range(10**5)] for i in range(10**5)]",
        patterns=NOT_SUPPORTED_OR_LIMIT,
    ),
    budget("sum_range_huge", "s = sum(range(10**18))"),
    budget("list_range_huge", "s = list(range(10**18))"),
    budget("fstring_width", 'x = 1\ns = f"{x:>1000000000}"', patterns=NOT_SUPPORTED_OR_LIMIT),
    budget(
        "fstring_nested_width", 'x = 1\nw = 10**9\ns = f"{x:>{w}}"', patterns=NOT_SUPPORTED_OR_LIMIT
    ),
    budget("fstring_precision", 'x = 1.0\ns = f"{x:.999999999f}"', patterns=NOT_SUPPORTED_OR_LIMIT),
    budget("percent_star", 's = "%*d" % (10**9, 1)', patterns=NOT_SUPPORTED_OR_LIMIT),
    budget("percent_width", 's = "%1000000000d" % 1', patterns=NOT_SUPPORTED_OR_LIMIT),
    budget("format_width", 's = "{:>1000000000}".format(1)', patterns=NOT_SUPPORTED_OR_LIMIT),
    budget("format_builtin_width", 's = format(1, ">1000000000")', patterns=NOT_SUPPORTED_OR_LIMIT),
    budget("str_center", 's = "a".center(10**9)', patterns=NOT_SUPPORTED_OR_LIMIT),
    budget("str_ljust", 's = "a".ljust(10**9)', patterns=NOT_SUPPORTED_OR_LIMIT),
    budget("str_zfill", 's = "1".zfill(10**9)', patterns=NOT_SUPPORTED_OR_LIMIT),
    budget("str_expandtabs", 's = "\\t\\t".expandtabs(10**9)', patterns=NOT_SUPPORTED_OR_LIMIT),
    budget(
        "str_join", 's = "x" * 1000\nt = s.join(["y"] * 10**6)', patterns=NOT_SUPPORTED_OR_LIMIT
    ),
    budget(
        "str_replace",
        's = "x" * 10**6\nt = s.replace("x", "y" * 1000)',
        patterns=NOT_SUPPORTED_OR_LIMIT,
    ),
    budget(
        "math_factorial", "import math\nn = math.factorial(10**6)", patterns=NOT_SUPPORTED_OR_LIMIT
    ),
    budget(
        "math_comb", "import math\nn = math.comb(10**6, 5 * 10**5)", patterns=NOT_SUPPORTED_OR_LIMIT
    ),
    budget("pow_builtin", "n = pow(10, 10**9)", patterns=NOT_SUPPORTED_OR_LIMIT),
    budget("pow_tower", "n = 10**10**10", patterns=NOT_SUPPORTED_OR_LIMIT),
    budget("pow_step", "n = 2**(10**6)", patterns=NOT_SUPPORTED_OR_LIMIT),
    budget("shift_huge", "n = 1 << 10**10", patterns=NOT_SUPPORTED_OR_LIMIT),
    budget(
        "int_of_long_string",
        "n = int('9' * 100000)",
        patterns=NOT_SUPPORTED_OR_LIMIT + (r"could not convert", r"digits"),
    ),
    budget(
        "int_of_long_string_4000",
        "n = int('9' * 4000)",
        patterns=NOT_SUPPORTED_OR_LIMIT + (r"could not convert", r"digits"),
    ),
    budget(
        "float_of_long_string",
        "n = float('9' * 900000)",
        patterns=NOT_SUPPORTED_OR_LIMIT + (r"could not convert",),
        codes=frozenset({0, 1}),
    ),
    budget(
        "memory_growth_to_budget",
        "xs = []\nfor i in range(30):\n    xs = xs + [torch.ones(10**7)]",
        patterns=(r"memory",) + LIMIT,
        env={"GRADCLI_TIME_SECONDS": "10"},
        seconds=11.0,
        kill_after=13.0,
    ),
    budget(
        "ones_like_list_repeat",
        "l = [[1.0] * 1000] * 1000\nt = torch.tensor(l)",
        codes=frozenset({0, 1}),
    ),
    budget("tensor_of_shared_lists", "r = [1.0] * 10**6\nt = torch.tensor([r] * 100)"),
)


# === analysis and output not budgeted =====================================================
# Sizes the entry limit allows (a 5000 x 5000 Jacobian is exactly 25,000,000 entries): the
# answer, written as text, is hundreds of megabytes to gigabytes. Either it is refused with a
# named limit, or it is written within the time limit and 1 GiB.


def analysis(id: str, program: str, argv: list[str], **kw) -> Case:  # noqa: A002
    kw.setdefault("codes", frozenset({0, 1}))
    kw.setdefault("at", None)
    kw.setdefault("seconds", 5.0)
    return Case(id, ANALYSIS, program, argv=argv, patterns=LIMIT, **kw)


J = ["jacobian", "prog.py", "--of", "y", "--wrt", "x", "-m", "rows"]
H = ["hessian", "prog.py", "--of", "s", "--wrt", "x", "-m", "rows"]
add(
    analysis("jacobian_plain_25M", BIG_LINEAR, J + ["-f", "plain"]),
    analysis("jacobian_json_25M", BIG_LINEAR, J + ["-f", "json"]),
    analysis("jacobian_csv_25M", BIG_LINEAR, J + ["-f", "csv"]),
    analysis("jacobian_table_25M", BIG_LINEAR, J + ["-f", "table"]),
    analysis("jacobian_heat_25M", BIG_LINEAR, J + ["--heat"]),
    analysis("jacobian_npy_25M", BIG_LINEAR, J + ["-f", "npy", "-o", "j.npy"], outputs=("j.npy",)),
    analysis(
        "jacobian_json_to_file_25M",
        BIG_LINEAR,
        J + ["-f", "json", "-o", "j.json"],
        outputs=("j.json",),
    ),
    analysis(
        "jacobian_show_masks_9M",
        BIG_ELEMENTWISE,
        ["jacobian", "prog.py", "--of", "y", "--show-masks", "-f", "plain"],
    ),
    analysis(
        "jacobian_compare_9M",
        BIG_ELEMENTWISE,
        ["jacobian", "prog.py", "--of", "y", "--compare", "-f", "plain"],
    ),
    analysis("hessian_plain_25M", BIG_LINEAR, H + ["-f", "plain"]),
    analysis("hessian_json_25M", BIG_LINEAR, H + ["-f", "json"]),
    analysis("hessian_batched_25M", BIG_LINEAR, ["hessian", "prog.py", "--of", "s", "-f", "plain"]),
    analysis(
        "check_9M",
        BIG_ELEMENTWISE,
        ["check", "prog.py", "--of", "y", "--wrt", "x", "--no-sympy", "-f", "json"],
        codes=frozenset({0, 1, 3}),
    ),
    analysis(
        "check_sum_5000",
        BIG_ELEMENTWISE,
        ["check", "prog.py", "--of", "s", "--wrt", "x", "-f", "plain"],
        codes=frozenset({0, 1, 3}),
    ),
    analysis(
        "forward_json_10M",
        "import torch\nx = torch.linspace(0, 1, 10**7)\ny = x * 3\n",
        ["forward", "prog.py", "-f", "json"],
    ),
    analysis(
        "forward_plain_many_tensors",
        "import torch\n" + "".join(f"t{i} = torch.ones(2500)\n" for i in range(4000)),
        ["forward", "prog.py", "-f", "plain"],
    ),
    analysis(
        "backward_trace_long",
        "import torch\nx = torch.ones(1000, requires_grad=True)\n"
        "h = x\nfor i in range(20000):\n    h = h * 1.0\ns = h.sum()\n",
        ["backward", "prog.py", "--trace", "-f", "plain"],
    ),
    analysis(
        "graph_shared_tree",
        "import torch\nx = torch.ones(1, requires_grad=True)\n"
        "h = x\nfor i in range(64):\n    h = h + h\n",
        ["graph", "prog.py", "-f", "plain"],
    ),
    analysis(
        "graph_shared_json",
        "import torch\nx = torch.ones(1, requires_grad=True)\n"
        "h = x\nfor i in range(64):\n    h = h + h\n",
        ["graph", "prog.py", "-f", "json"],
    ),
    analysis(
        "export_big_leaf",
        "import torch\nx = torch.linspace(0, 1, 10**7, requires_grad=True)\n"
        "w = torch.linspace(0, 1, 10**7)\nv = torch.linspace(0, 1, 10**7)\n"
        "y = (x * w * v).sum()\n",
        ["export", "prog.py"],
    ),
)


# === inputs not bounded =====================================================================

MB99 = 99 * 10**6
GRAD = ["backward", "prog.py", "--of", "y", "--grad"]


def value_file(id: str, name: str, spec: FileSpec, patterns: tuple[str, ...], **kw) -> Case:  # noqa: A002
    kw.setdefault("argv", GRAD + ["@" + name])
    return Case(id, INPUTS, BASE, patterns=patterns, files={name: spec}, **kw)


FILE_PROBLEM = (r"--grad", r"file", r"limit")
add(
    value_file(
        "grad_json_99MB_spaces",
        "g.json",
        ("repeat", b" ", MB99, b"[1, 1, ", b"1]"),
        FILE_PROBLEM,
        codes=frozenset({0, 1}),
    ),
    value_file(
        "grad_json_99MB_empty_lists",
        "g.json",
        ("repeat", b"[],", MB99 // 3, b"[", b"[]]"),
        FILE_PROBLEM,
    ),
    value_file(
        "grad_json_99MB_nested_empty",
        "g.json",
        ("repeat", b"[[[[[[[[]]]]]]]],", MB99 // 17, b"[", b"[]]"),
        FILE_PROBLEM,
    ),
    value_file(
        "grad_json_99MB_numbers", "g.json", ("repeat", b"0,", MB99 // 2, b"[", b"0]"), FILE_PROBLEM
    ),
    value_file("grad_json_99MB_digits", "g.json", ("repeat", b"9", MB99, b"[", b"]"), FILE_PROBLEM),
    value_file(
        "grad_csv_99MB_one_row", "g.csv", ("repeat", b"0,", MB99 // 2, b"", b"0\n"), FILE_PROBLEM
    ),
    value_file(
        "grad_csv_99MB_rows", "g.csv", ("repeat", b"1\n", MB99 // 2, b"", b""), FILE_PROBLEM
    ),
    value_file(
        "grad_csv_99MB_spaces",
        "g.csv",
        ("repeat", b" ", MB99, b"1 ", b"1 1\n"),
        FILE_PROBLEM,
        codes=frozenset({0, 1}),
    ),
    value_file(
        "set_json_99MB_spaces",
        "s.json",
        ("repeat", b" ", MB99, b"[1, ", b"2, 3]"),
        FILE_PROBLEM + (r"--set",),
        argv=["forward", "prog.py", "--set", "x=@s.json"],
        codes=frozenset({0, 1}),
    ),
    value_file(
        "grad_npy_huge_header_shape",
        "g.npy",
        ("npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (10**12,), }", b""),
        FILE_PROBLEM + (r"npy",),
    ),
    value_file(
        "grad_npy_shape_overflow",
        "g.npy",
        (
            "npy",
            "{'descr': '<f8', 'fortran_order': False, "
            "'shape': (4294967296, 4294967296, 4294967296), }",
            b"",
        ),
        FILE_PROBLEM + (r"npy",),
    ),
    value_file(
        "grad_npy_object",
        "g.npy",
        ("npy", "{'descr': '|O', 'fortran_order': False, 'shape': (3,), }", b"\x80" * 24),
        FILE_PROBLEM + (r"npy",),
    ),
    value_file(
        "grad_npy_unicode_huge",
        "g.npy",
        ("npy", "{'descr': '<U100000000', 'fortran_order': False, 'shape': (3,), }", b""),
        FILE_PROBLEM + (r"npy",),
    ),
    value_file("grad_fifo", "g.json", ("fifo",), (r"not a regular file",)),
    value_file("grad_directory", "g.json", ("dir",), (r"directory",)),
    value_file(
        "grad_symlink_dev_zero", "g.json", ("symlink", "/dev/zero"), (r"not a regular file",)
    ),
    value_file("grad_json_nul", "g.json", b"[1,\x00 1, 1]", FILE_PROBLEM),
    value_file("grad_json_invalid_utf8", "g.json", b"[1, 1, \xff1]", FILE_PROBLEM),
    value_file(
        "grad_json_bom", "g.json", b"\xef\xbb\xbf[1, 1, 1]", FILE_PROBLEM, codes=frozenset({0})
    ),
    value_file("grad_json_deep", "g.json", "[" * 100_000 + "]" * 100_000, FILE_PROBLEM),
    value_file("grad_json_binary", "g.json", bytes(range(256)) * 100, FILE_PROBLEM),
    Case(
        "grad_text_deep",
        INPUTS,
        BASE,
        argv=GRAD + ["[" * 60_000 + "1" + "]" * 60_000],
        patterns=(r"--grad",) + LIMIT,
    ),
    Case(
        "grad_onehot_huge_index",
        INPUTS,
        BASE,
        argv=GRAD + ["onehot:" + "9" * 5000],
        patterns=(r"--grad", r"onehot"),
    ),
    Case(
        "set_many_values",
        INPUTS,
        BASE,
        argv=["forward", "prog.py", "--set", "x=" + "1," * 60_000 + "1"],
        patterns=(r"--set",),
    ),
    Case(
        "program_fifo",
        INPUTS,
        None,
        argv=["run", "prog.py"],
        files={"prog.py": ("fifo",)},
        patterns=(r"not a regular file", r"FIFO", r"fifo", r"cannot read"),
        seconds=5.0,
    ),
    Case(
        "program_symlink_fifo",
        INPUTS,
        None,
        argv=["run", "p.py"],
        files={"f": ("fifo",), "p.py": ("symlink", "f")},
        patterns=(r"not a regular file", r"FIFO", r"fifo", r"cannot read"),
        seconds=5.0,
    ),
    Case(
        "program_dev_zero",
        INPUTS,
        None,
        argv=["run", "/dev/zero"],
        patterns=(r"binary", r"limit", r"not a regular file", r"cannot read"),
    ),
    Case(
        "program_dev_urandom",
        INPUTS,
        None,
        argv=["run", "/dev/urandom"],
        patterns=(r"binary", r"limit", r"not a regular file", r"UTF-8", r"cannot read"),
    ),
    Case(
        "program_stdin_dev_zero",
        INPUTS,
        None,
        argv=["run", "-"],
        stdin="zero",
        patterns=(r"binary", r"limit"),
    ),
    Case(
        "program_dev_stdin_closed",
        INPUTS,
        None,
        argv=["run", "/dev/stdin"],
        stdin="closed",
        patterns=(r"cannot read", r"no such file", r"standard input", r"stdin"),
    ),
    Case(
        "program_stdin_closed",
        IO,
        None,
        argv=["run", "-"],
        stdin="closed",
        patterns=(r"cannot read", r"standard input", r"stdin"),
    ),
    Case("program_directory_dot_slash", INPUTS, None, argv=["run", "./"], patterns=(r"directory",)),
    Case(
        "program_binary",
        INPUTS,
        b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 10,
        patterns=(r"binary", r"UTF-8"),
    ),
    Case(
        "program_invalid_utf8_late",
        INPUTS,
        b"x = 1\n" * 1000 + b"y = '\xc3\x28'\n",
        patterns=(r"UTF-8",),
    ),
    Case("program_nul_late", INPUTS, "x = 1\n" * 1000 + "y = 2\x00\n", patterns=(r"binary",)),
    Case(
        "program_bom_ok",
        INPUTS,
        "\ufeffimport torch\nx = torch.ones(2)\nprint(x.sum())\n",
        codes=frozenset({0}),
        stdout_patterns=(r"tensor\(2\.",),
    ),
    Case(
        "program_bom_position",
        INPUTS,
        "\ufeffx = undefined_name\n",
        patterns=(r"not defined",),
        at=(1, 5),
    ),
    Case("program_utf16", INPUTS, "x = 1\n".encode("utf-16"), patterns=(r"UTF-8", r"binary")),
    Case(
        "program_name_too_long",
        INPUTS,
        None,
        argv=["run", "p" * 5000 + ".py"],
        patterns=(r"no such file", r"cannot read", r"too long"),
    ),
    Case(
        "program_over_source_limit",
        INPUTS,
        "x = 1\n" + "#" * 1_200_000 + "\n",
        patterns=(r"over the limit",),
    ),
)


# === I/O errors are environment errors ======================================================

WRITE_FAILED = (r"cannot write", r"No space", r"no space", r"standard output", r"stdout", r"closed")
PRINTS = "import torch\nx = torch.ones(3, requires_grad=True)\ny = (x * 2).sum()\nprint(y)\n"
for cmd, extra in (
    ("backward", []),
    ("forward", []),
    ("graph", []),
    ("export", []),
    ("jacobian", ["--of", "y", "-f", "csv"]),
    ("hessian", []),
    ("hvp", ["--v", "1,1,1"]),
    ("symbolic", []),
):
    # (sympy's import and simplification take about a second: more than the harness's limit)
    slow = {"GRADCLI_TIME_SECONDS": "5"} if cmd == "symbolic" else {}
    add(
        Case(
            f"dev_full_output_{cmd}",
            IO,
            PRINTS,
            argv=[cmd, "prog.py", *extra, "-o", "/dev/full"],
            patterns=WRITE_FAILED,
            env=slow,
        ),
        Case(
            f"dev_full_stdout_{cmd}",
            IO,
            PRINTS,
            argv=[cmd, "prog.py", *extra],
            stdout="full",
            patterns=WRITE_FAILED,
            env=slow,
        ),
    )
add(
    Case(
        "dev_full_output_check",
        IO,
        PRINTS,
        argv=["check", "prog.py", "--no-sympy", "-o", "/dev/full"],
        patterns=WRITE_FAILED,
    ),
    Case("dev_full_stdout_run_print", IO, PRINTS, stdout="full", patterns=WRITE_FAILED),
    Case("closed_stdout_run_print", IO, PRINTS, stdout="closed", patterns=WRITE_FAILED),
    Case(
        "closed_stdout_backward",
        IO,
        PRINTS,
        argv=["backward", "prog.py"],
        stdout="closed",
        patterns=WRITE_FAILED,
    ),
    Case(
        "closed_stdout_export",
        IO,
        PRINTS,
        argv=["export", "prog.py"],
        stdout="closed",
        patterns=WRITE_FAILED,
    ),
    Case(
        "closed_stdout_version",
        IO,
        None,
        argv=["--version"],
        stdout="closed",
        patterns=WRITE_FAILED,
    ),
    Case(
        "broken_pipe_run_print",
        IO,
        PRINTS,
        stdout="broken",
        codes=frozenset({0, 1}),
        patterns=WRITE_FAILED + (r"pipe",),
    ),
    Case(
        "broken_pipe_jacobian",
        IO,
        BIG_ELEMENTWISE.replace("3100", "800"),
        argv=["jacobian", "prog.py", "--of", "y", "-f", "plain"],
        stdout="broken",
        codes=frozenset({0, 1}),
        patterns=WRITE_FAILED + (r"pipe",),
    ),
    Case(
        "dev_full_npy_output",
        IO,
        PRINTS,
        argv=["jacobian", "prog.py", "--of", "y", "-f", "npy", "-o", "/dev/full"],
        patterns=WRITE_FAILED + (r"\.npy",),
    ),
    Case(
        "output_file_too_large",
        IO,
        BIG_ELEMENTWISE.replace("3100", "300"),
        argv=["jacobian", "prog.py", "--of", "y", "-f", "plain", "-o", "j.txt"],
        fsize=4096,
        patterns=WRITE_FAILED + (r"too large", r"write"),
    ),
    Case(
        "stdout_file_too_large",
        IO,
        BIG_ELEMENTWISE.replace("3100", "300"),
        argv=["jacobian", "prog.py", "--of", "y", "-f", "plain"],
        fsize=4096,
        patterns=WRITE_FAILED + (r"too large", r"write"),
    ),
)


# === the time limit on every path ===========================================================
# GRADCLI_TIME_SECONDS=0.5 (the harness's default) and a command that would otherwise take a
# minute or more: each must end within 4 s (start-up, the limit, and the way out) with the
# named limit.


def timed(id: str, program: str, argv: list[str], **kw) -> Case:  # noqa: A002
    kw.setdefault("at", None)
    kw.setdefault("patterns", TIME_LIMIT)
    return Case(id, TIME, program, argv=argv, seconds=4.0, **kw)


add(
    timed(
        "time_jacobian_rows",
        SLOW,
        ["jacobian", "prog.py", "--of", "y", "-m", "rows", "-f", "npy", "-o", "j.npy"],
        outputs=("j.npy",),
    ),
    timed(
        "time_jacobian_batched",
        SLOW,
        ["jacobian", "prog.py", "--of", "y", "-m", "batched", "-f", "npy", "-o", "j.npy"],
        outputs=("j.npy",),
    ),
    timed(
        "time_jacobian_forward",
        SLOW,
        ["jacobian", "prog.py", "--of", "y", "-m", "forward", "-f", "npy", "-o", "j.npy"],
        outputs=("j.npy",),
    ),
    timed(
        "time_jacobian_numeric",
        SLOW,
        ["jacobian", "prog.py", "--of", "y", "-m", "numeric", "-f", "npy", "-o", "j.npy"],
        outputs=("j.npy",),
    ),
    timed(
        "time_jacobian_auto",
        SLOW,
        ["jacobian", "prog.py", "--of", "y", "-m", "auto", "-f", "npy", "-o", "j.npy"],
        outputs=("j.npy",),
    ),
    timed("time_jacobian_compare", SLOW, ["jacobian", "prog.py", "--of", "y", "--compare"]),
    timed(
        "time_hessian_batched",
        SLOW_SMALL,
        ["hessian", "prog.py", "--of", "s", "-f", "npy", "-o", "h.npy"],
        outputs=("h.npy",),
    ),
    timed(
        "time_hessian_rows",
        SLOW_SMALL,
        ["hessian", "prog.py", "--of", "s", "-m", "rows", "-f", "npy", "-o", "h.npy"],
        outputs=("h.npy",),
    ),
    timed(
        "time_hessian_numeric",
        SLOW_SMALL,
        ["hessian", "prog.py", "--of", "s", "-m", "numeric", "-f", "npy", "-o", "h.npy"],
        outputs=("h.npy",),
    ),
    timed(
        "time_hvp",
        "import torch\nx = torch.ones(1800, 1800, requires_grad=True)\n"
        "h = x\nfor i in range(3):\n    h = torch.tanh(h @ x)\ns = h.sum()\n",
        ["hvp", "prog.py", "--of", "s", "--v", "ones"],
    ),
    timed(
        "time_check", SLOW, ["check", "prog.py", "--of", "y", "--no-sympy"], codes=frozenset({1, 3})
    ),
    timed("time_check_sum", SLOW_SMALL, ["check", "prog.py", "--of", "s"], codes=frozenset({1, 3})),
    timed(
        "time_check_then_limit_off",
        SLOW_SMALL,
        ["check", "prog.py", "--of", "s", "--no-sympy", "-f", "json"],
        codes=frozenset({1, 3}),
    ),
    timed(
        "time_symbolic_simplify",
        "import torch\nx = torch.ones(12, requires_grad=True)\nW = torch.ones(12, 12) / 7\n"
        "h = x\nfor i in range(4):\n    h = torch.tanh(W @ h) * torch.sigmoid(h)\ns = h.sum()\n",
        ["symbolic", "prog.py", "--of", "s", "--simplify"],
        patterns=TIME_LIMIT + LIMIT,
    ),
    timed(
        "time_symbolic_at",
        "import torch\nx = torch.ones(20, requires_grad=True)\nW = torch.ones(20, 20) / 7\n"
        "h = x\nfor i in range(3):\n    h = torch.tanh(W @ h)\ny = h\n",
        ["symbolic", "prog.py", "--of", "y", "--at", "--latex"],
        patterns=TIME_LIMIT + LIMIT,
    ),
    timed(
        "time_export_big",
        "import torch\n"
        "x = torch.linspace(0, 1, 10**7, requires_grad=True)\n"
        "w = torch.linspace(0, 1, 10**7)\ny = (x * w + w).sum()\n",
        ["export", "prog.py", "-o", "out.py"],
        # PyTorch's float32 linspace of 10**7 costs gradcli over a second each: the time
        # limit or the export's text limit, whichever binds first on the machine.
        patterns=TIME_LIMIT + LIMIT,
    ),
    timed(
        "time_graph_shared",
        "import torch\nx = torch.ones(1, requires_grad=True)\nh = x\n"
        "for i in range(40):\n    h = h * h + h\n",
        ["graph", "prog.py"],
        codes=frozenset({0, 1}),
    ),
    timed(
        "time_graph_dot_shared",
        "import torch\nx = torch.ones(1, requires_grad=True)\n"
        "h = x\nfor i in range(40):\n    h = h * h + h\n",
        ["graph", "prog.py", "--dot"],
        codes=frozenset({0, 1}),
    ),
    timed(
        "time_graph_long_chain",
        "import torch\nx = torch.ones(1, requires_grad=True)\n"
        "h = x\nfor i in range(30000):\n    h = h * 1.0\n",
        ["graph", "prog.py"],
        codes=frozenset({0, 1}),
        patterns=TIME_LIMIT + LIMIT,
    ),
    timed(
        "time_graph_long_chain_json",
        "import torch\nx = torch.ones(1, requires_grad=True)\n"
        "h = x\nfor i in range(30000):\n    h = h * 1.0\n",
        ["graph", "prog.py", "-f", "json"],
        codes=frozenset({0, 1}),
        patterns=TIME_LIMIT + LIMIT,
    ),
    timed(
        "time_forward_render",
        "import torch\n" + "".join(f"t{i} = torch.linspace(0, 1, 10**6)\n" for i in range(25)),
        ["forward", "prog.py", "-f", "json"],
        codes=frozenset({0, 1}),
        # 25 M numbers as JSON cannot be written within 3 s: the time limit, or the named
        # output limit that refuses them before any is written, both stop it cleanly.
        patterns=TIME_LIMIT + LIMIT,
    ),
    timed(
        "time_backward_int_matmul",
        "import torch\n"
        "x = torch.ones(2500, 2500, requires_grad=True)\n"
        "a = torch.full((2500, 2500), 2**40, dtype=torch.int64)\nb = a @ a\ny = (x * 2).sum()\n",
        ["backward", "prog.py"],
        patterns=TIME_LIMIT + LIMIT,
        at=ANY,
    ),
    # `while` runs (issue 10): 1,000,000 iterations of `pass` end at the loop limit, which no
    # `except` catches either, before the time limit on a fast machine.
    timed(
        "time_try_swallow",
        "try:\n    while True:\n        pass\nexcept:\n    pass\n",
        ["run", "prog.py"],
        patterns=TIME_LIMIT + LIMIT + REFUSED,
        at=ANY,
    ),
    timed(
        "time_try_finally_loop",
        "for i in range(10**6):\n    try:\n        for j in range(10**6):\n            pass\n"
        "    finally:\n        pass\n",
        ["run", "prog.py"],
        patterns=TIME_LIMIT + REFUSED + LIMIT,
        at=ANY,
    ),
    timed(
        "time_except_base",
        "try:\n    while True:\n        pass\nexcept BaseException:\n    pass\n",
        ["run", "prog.py"],
        patterns=TIME_LIMIT + LIMIT + REFUSED,
        at=ANY,
    ),
    timed(
        "time_while_true",
        "while True:\n    pass\n",
        ["run", "prog.py"],
        patterns=TIME_LIMIT + LIMIT + REFUSED,
        at=ANY,
    ),
    timed(
        "time_recursion_tree",
        "def f(n):\n    if n == 0:\n        return 1\n    return f(n - 1) + f(n - 1)\ny = f(45)\n",
        ["run", "prog.py"],
        at=ANY,
    ),
)


# === small ones =============================================================================

# Programs that are slow to run but not hostile in their running time: a generous time limit,
# so that what is judged is the message.
SLOW_OK = {"GRADCLI_TIME_SECONDS": "30"}
INT_TOO_BIG = (r"integer", r"overflow", r"int_bits", r"too large")


def small(id: str, program: str, patterns: tuple[str, ...], **kw) -> Case:  # noqa: A002
    return prog_case(id, SMALL, "import torch\nimport math\n" + program, patterns, **kw)


MANY = (
    "import torch\nx = torch.ones(1, requires_grad=True)\n"
    + "".join(f"tensor_number_{i} = torch.ones(1)\n" for i in range(15_000))
    + "y = x * 2\n"
)
LONG = "n" * 200_000
add(
    small("math_floor_1e308", "n = math.floor(1e308)", INT_TOO_BIG),
    small("math_ceil_1e308", "n = math.ceil(1e308)", INT_TOO_BIG),
    small("math_floor_negative", "n = math.floor(-1.7e308)", INT_TOO_BIG),
    small("math_trunc_1e308", "n = math.trunc(1e308)", INT_TOO_BIG + REFUSED),
    small("round_1e308", "n = round(1e308)", INT_TOO_BIG),
    small("round_ndigits_huge", "n = round(1e308, 0)\nm = int(n)", INT_TOO_BIG),
    small("int_1e308", "n = int(1e308)", INT_TOO_BIG),
    small("int_of_tensor_1e308", "n = int(torch.tensor(1e308))", INT_TOO_BIG),
    small("floor_then_use", "n = math.floor(1e300)\nx = torch.ones(2) * n", INT_TOO_BIG),
    small(
        "tensor_int64_overflow",
        "x = torch.tensor([2**63], dtype=torch.int64)",
        (r"overflow", r"out of range", r"too large"),
    ),
    small(
        "tensor_int64_underflow",
        "x = torch.tensor([-(2**63) - 1], dtype=torch.int64)",
        (r"overflow", r"out of range", r"too large"),
    ),
    small(
        "tensor_int_default_overflow",
        "x = torch.tensor([1, 2**64])",
        (r"overflow", r"out of range", r"too large"),
    ),
    small(
        "tensor_int_scalar_overflow",
        "x = torch.tensor(2**70)",
        (r"overflow", r"out of range", r"too large"),
    ),
    small(
        "full_int64_overflow",
        "x = torch.full((2,), 2**63, dtype=torch.int64)",
        (r"overflow", r"out of range", r"too large"),
    ),
    small(
        "int_times_overflow",
        "x = torch.ones(2, dtype=torch.int64) * 2**64",
        (r"overflow", r"out of range", r"too large"),
    ),
    small(
        "int_negative_power",
        "x = torch.tensor([2]) ** -1",
        (r"negative", r"Integers to negative integer powers"),
    ),
    small("zeros_65_dims", "x = torch.zeros([1] * 65)", (r"dimension", r"64")),
    small("reshape_65_dims", "x = torch.ones(1).reshape([1] * 65)", (r"dimension", r"64")),
    small(
        "unsqueeze_65_dims",
        "x = torch.ones(1)\nfor i in range(70):\n    x = x.unsqueeze(0)",
        (r"dimension", r"64"),
    ),
    small(
        "full_dims_overflow",
        "x = torch.full((0, 10**30), 1.0)",
        (r"dimension", r"too large", r"overflow", r"limit"),
    ),
    small(
        "zeros_dim_2_63",
        "x = torch.zeros(0, 2**63)",
        (r"dimension", r"too large", r"overflow", r"limit"),
    ),
    small("manual_seed_huge", "torch.manual_seed(2**70)", (r"seed", r"overflow", r"range")),
    small(
        "manual_seed_negative_huge", "torch.manual_seed(-(2**70))", (r"seed", r"overflow", r"range")
    ),
    small("arange_zero_step", "x = torch.arange(0, 10, 0)", (r"step", r"zero")),
    small("linspace_negative", "x = torch.linspace(0, 1, -1)", (r"negative", r"steps")),
    small("item_of_empty", "x = torch.zeros(0).item()", (r"elements", r"Scalar")),
    small("max_of_empty", "x = torch.zeros(0).max()", (r"empty", r"numel", r"zero")),
    small("argmax_of_empty", "x = torch.zeros(0, 3).argmax(0)", (r"empty", r"numel", r"zero")),
    small("softmax_empty_dim", "x = torch.zeros(3, 0).softmax(5)", (r"[Dd]imension",)),
    small(
        "int_div_zero",
        "x = torch.tensor([1]) // torch.tensor([0])",
        (r"zero", r"divi") + REFUSED,
        codes=frozenset({0, 1}),
    ),
    small(
        "int_mod_zero",
        "x = torch.tensor([1]) % torch.tensor([0])",
        (r"zero", r"divi") + REFUSED,
        codes=frozenset({0, 1}),
    ),
    Case(
        "seed_option_huge",
        SMALL,
        BASE,
        argv=["backward", "prog.py", "--seed", "9" * 30],
        codes=frozenset({0, 1, 2}),
        patterns=(r"seed",),
    ),
    Case(
        "seed_option_negative",
        SMALL,
        BASE,
        argv=["backward", "prog.py", "--seed", "-1"],
        codes=frozenset({0, 1, 2}),
        patterns=(r"seed",),
    ),
    Case(
        "of_error_15000_tensors",
        SMALL,
        MANY,
        argv=["backward", "prog.py", "--of", "nope"],
        patterns=(r"no tensor named",),
        max_stderr=4000,
        env=SLOW_OK,
        seconds=12.0,
    ),
    Case(
        "wrt_error_15000_tensors",
        SMALL,
        MANY,
        argv=["backward", "prog.py", "--wrt", "nope"],
        patterns=(r"no tensor named",),
        max_stderr=4000,
        env=SLOW_OK,
        seconds=12.0,
    ),
    Case(
        "set_error_15000_tensors",
        SMALL,
        MANY,
        argv=["forward", "prog.py", "--set", "nope=1"],
        patterns=(r"no tensor named",),
        max_stderr=4000,
        env=SLOW_OK,
        seconds=12.0,
    ),
    Case(
        "of_long_name",
        SMALL,
        BASE,
        argv=["backward", "prog.py", "--of", "q" * 100_000],
        patterns=(r"no tensor named",),
        max_stderr=4000,
    ),
    Case(
        "wrt_long_name",
        SMALL,
        BASE,
        argv=["backward", "prog.py", "--wrt", "q" * 100_000],
        patterns=(r"no tensor named",),
        max_stderr=4000,
    ),
    Case(
        "set_long_name",
        SMALL,
        BASE,
        argv=["forward", "prog.py", "--set", "q" * 100_000 + "=1"],
        patterns=(r"no tensor named", r"--set"),
        max_stderr=4000,
    ),
    Case(
        "of_name_with_newline",
        SMALL,
        BASE,
        argv=["backward", "prog.py", "--of", "y\nerror: fake second message"],
        patterns=(r"no tensor named", r"not a name", r"--of"),
        forbid=(r"(?m)^error: fake second message",),
    ),
    Case(
        "program_long_undefined_name",
        SMALL,
        "y = " + LONG + "\n",
        patterns=(r"not defined",),
        at=(1, 5),
        max_stderr=4000,
    ),
    Case(
        "program_long_attribute",
        SMALL,
        "import torch\ny = torch." + LONG + "\n",
        patterns=(r"not supported", r"has no attribute"),
        at=ANY,
        max_stderr=4000,
    ),
    Case(
        "program_long_identifier_ok",
        SMALL,
        "import torch\n" + "v" * 400_000 + " = torch.ones(2)\nprint(" + "v" * 400_000 + ".sum())",
        codes=frozenset({0}),
        stdout_patterns=(r"tensor\(2\.",),
    ),
    Case(
        "program_long_string_error",
        SMALL,
        "x = '" + "s" * 800_000 + "' + 1\n",
        patterns=(r"str", r"unsupported", r"not supported", r"can only"),
        at=ANY,
        max_stderr=4000,
    ),
    Case(
        "program_long_line_error_at_end",
        SMALL,
        "x = [" + "1, " * 100_000 + "undefined_name]\n",
        patterns=(r"not defined",),
        at=ANY,
        max_stderr=4000,
        env=SLOW_OK,
        seconds=12.0,
    ),
    Case(
        "program_many_statements_one_line",
        SMALL,
        "x = 1; " * 30_000 + "y = z\n",
        patterns=(r"not defined",),
        at=ANY,
        max_stderr=4000,
        env=SLOW_OK,
        seconds=12.0,
    ),
    Case(
        "program_long_number",
        SMALL,
        "x = " + "9" * 500_000 + "\n",
        patterns=INT_TOO_BIG + (r"limit", r"digits"),
        at=ANY,
        max_stderr=4000,
    ),
    Case(
        "program_long_float",
        SMALL,
        "x = 1." + "9" * 500_000 + "\n",
        codes=frozenset({0, 1}),
        patterns=LIMIT,
        at=ANY,
        max_stderr=4000,
    ),
    # PyTorch's argument parser's "invalid combination" listing names the type of every
    # element of a list argument, for each overload: its length is budgeted before it is made
    Case(
        "parser_listing_of_a_huge_list",
        SMALL,
        "import torch\ny = torch.squeeze('a', [1.0] * 300_000)\n",
        patterns=LIMIT,
        at=(2, 5),
        max_stderr=4000,
    ),
    Case(
        "parser_listing_caught_in_a_loop",
        SMALL,
        "import torch\nv = [1.0] * 20_000\nn = 0\nwhile True:\n    try:\n"
        "        torch.squeeze('a', v)\n    except TypeError as e:\n        n += len(str(e))\n",
        patterns=LIMIT,
        at=ANY,
        max_stderr=4000,
        # (the clock stops it: 10 s of CPU time stay well inside the harness's kill on a
        # loaded machine, where 30 s of CPU took over 66 s)
        env={"GRADCLI_TIME_SECONDS": "10"},
        seconds=40.0,
    ),
    # the values of the interpreter in a builtin's first place: PyTorch's words name their
    # Python class (`module`, `function`), never one of gradcli's own
    Case(
        "parser_error_of_interpreter_values",
        SMALL,
        "import torch\nimport torch.nn.functional as F\n"
        "for v in (torch, print, lambda: 0, torch.nn.Linear(1, 1), None, {1: 2}):\n"
        "    for f in (torch.digamma, torch.sum, torch.clamp, F.relu, torch.polygamma):\n"
        "        try:\n            f(v)\n        except (TypeError, AttributeError) as e:\n"
        "            print(str(e).splitlines()[0])\n",
        codes=frozenset({0}),
        stdout_patterns=(
            r"digamma\(\): argument 'input' \(position 1\) must be Tensor, not module",
        ),
        forbid=(r"Namespace|Builtin|UserFunction|ModuleInstance",),
    ),
)


# === attempts that gradcli stops today, and must keep stopping as the language grows =========


def esc(id: str, program: str, patterns: tuple[str, ...] = REFUSED, **kw) -> Case:  # noqa: A002
    """An attempt to run code, reach Python's internals or touch files: refused with a message
    at its place; nothing written (the harness checks the directory)."""
    return prog_case(id, ESCAPE, "import torch\n" + program, patterns, **kw)


T = "x = torch.ones(2, requires_grad=True)\n"
add(
    # format strings that walk attributes and items
    esc("format_attr_walk", "s = '{0.__class__}'.format(torch.ones(1))"),
    esc("format_globals_walk", "s = '{0.__init__.__globals__}'.format(torch)"),
    esc("format_item_walk", "s = '{0[0]}'.format([1])"),
    # a nested field in a spec is an argument's text (`'{:{w}}'.format(x, w=8)`): it runs;
    # a nested field that walks, or carries its own spec, is refused.
    esc("format_nested_spec", "s = '{0:{1}}'.format(1, '>10')", codes=frozenset({0, 1})),
    esc("format_nested_spec_walk", "s = '{0:{1.__class__}}'.format(1, 2)"),
    esc("format_nested_spec_item", "s = '{0:{1[0]}}'.format(1, [5])"),
    esc("format_nested_spec_conversion", "s = '{0:{1!r}}'.format(1, 5)"),
    budget("format_nested_width_huge", "s = '{:{}}'.format(1, 10**9)"),
    budget("format_nested_precision_huge", "s = '{:.{}f}'.format(1.5, 10**9)"),
    # `*` widths and precisions in `%` come from the arguments: bounded as written ones.
    budget("percent_star_width_huge", "s = '%*d' % (10**9, 1)"),
    budget("percent_star_precision_huge", "s = '%.*f' % (10**9, 1.5)"),
    budget("percent_star_negative_huge", "s = '%*s' % (-(10**9), 'x')"),
    esc("percent_star_tensor", "s = '%*d' % (torch.tensor(10**6), 1)", (r"\* wants int",)),
    esc("format_map", "s = '{x.__class__}'.format_map({'x': 1})"),
    # format() with a spec formats, as Python's (a tensor with '' is its str): no field names,
    # nothing to walk. It runs; the escapes through format strings are the cases around it.
    esc("format_builtin", "s = format(torch.ones(1), '')", codes=frozenset({0, 1})),
    esc("fstring_class_repr", T + "s = f'{x.__class__.__mro__!r}'"),
    esc("fstring_subclasses", "s = f'{().__class__.__base__.__subclasses__()}'"),
    # `f"{x=}"` is Python tutorials use (issue 10): it shows the name and the value, no more.
    esc("fstring_self_doc", T + "s = f'{x=}'", codes=frozenset({0, 1})),
    esc("fstring_conversion_ascii", T + "s = f'{x!a}'"),
    # `%(name)s` is one item of a plain dict, looked up by its string: it runs, nothing walks.
    esc("percent_dict", "s = '%(a)s' % {'a': 1}", codes=frozenset({0, 1})),
    esc(
        "percent_defaultdict_factory",
        "import collections\ns = '%(a)s' % collections.defaultdict(lambda: torch.ones(1))",
    ),
    # `%r` is the value's repr(), as `f'{x!r}'`: nothing to walk, it runs; `%a` is refused.
    esc("percent_tuple_repr", "s = '%r' % (torch.ones(1),)", codes=frozenset({0, 1})),
    esc("percent_ascii", "s = '%a' % (torch.ones(1),)"),
    esc("string_template", "s = 'a'.__mod__(1)"),
    # frames and generators
    esc("generator_frame", "def g():\n    yield 1\nf = g().gi_frame"),
    esc("genexp_frame", "f = (i for i in [1]).gi_frame.f_back"),
    esc("generator_code", "def g():\n    yield 1\nc = g().gi_code"),
    esc("function_code", "def f():\n    return 1\nc = f.__code__"),
    esc("function_globals_plain", "def f():\n    return 1\nc = f.func_globals"),
    esc("function_closure", "def f():\n    return 1\nc = f.__closure__"),
    esc("grad_fn_walk", T + "y = (x * 2).sum()\nn = y.grad_fn.__class__.__subclasses__()"),
    esc(
        "grad_fn_next_dunder", T + "y = (x * 2).sum()\nn = y.grad_fn.next_functions[0][0].__dict__"
    ),
    esc("method_self", T + "s = x.sum.__self__"),
    esc("builtin_self", "s = len.__self__"),
    # (a function's __module__ is its module's name, a string, as PyTorch's: feat13)
    esc("torch_function_module", "m = torch.ones.__module__.__class__.__mro__"),
    esc("tensor_dict", T + "d = x.__dict__"),
    esc("tensor_reduce", T + "r = x.__reduce_ex__(2)"),
    esc("tensor_private", T + "d = x._data"),
    # `x._version` is PyTorch's (a harmless int: tutorials print it); its internals are not.
    esc("tensor_cdata", T + "d = x._cdata"),
    esc("tensor_data_base", T + "b = x.data.base"),
    esc("tensor_array_interface", T + "a = x.__array_interface__"),
    # PyTorch refuses numpy() on a tensor that requires grad before tofile is reached.
    esc("numpy_method_tofile", T + "x.numpy().tofile('pwned')", REFUSED + (r"Can't call numpy",)),
    esc("numpy_method_dump", T + "x.detach().numpy().dump('pwned')"),
    esc("numpy_method_ctypes", "a = torch.ones(2).numpy().ctypes"),
    # NFKC-normalised names
    esc("nfkc_eval", "ｅｖａｌ('1')"),
    esc("nfkc_exec", "ｅｘｅｃ('import os')"),
    esc("nfkc_import", "__ｉｍｐｏｒｔ__('os')"),
    esc("nfkc_open", "ｏｐｅｎ('pwned', 'w')"),
    esc("nfkc_getattr", "ｇｅｔａｔｔｒ(torch, 'load')('m.pt')", ("No such file",)),
    esc("nfkc_bold_eval", "\U0001d41e\U0001d42f\U0001d41a\U0001d425('1')"),
    esc("nfkc_dunder_class", "c = torch.ones(1).__ｃｌａｓｓ__.__ｄｉｃｔ__"),
    esc("nfkc_dunder_subclasses", "c = ().__ｃｌａｓｓ__.__ｂａｓｅ__.__ｓｕｂｃｌａｓｓｅｓ__()"),
    esc("nfkc_torch_load", "m = torch.ｌｏａｄ('m.pt')", ("No such file",)),
    esc("nfkc_import_os", "import ｏｓ\nｏｓ.system('touch pwned')"),
    esc("nfkc_builtins", "b = __ｂｕｉｌｔｉｎｓ__"),
    esc("nfkc_script_e", "ℯval = 1\nx = eval('1')"),
    # NumPy's file functions
    esc("np_load", "import numpy as np\na = np.load('a.npy')", files={"a.npy": b"x"}),
    esc("np_load_pickle", "import numpy as np\na = np.load('a.npy', allow_pickle=True)"),
    esc("np_save", "import numpy as np\nnp.save('pwned.npy', [1])"),
    esc("np_savetxt", "import numpy as np\nnp.savetxt('pwned.txt', [1])"),
    esc("np_fromfile", "import numpy as np\na = np.fromfile('/etc/passwd')"),
    esc("np_loadtxt", "import numpy as np\na = np.loadtxt('/etc/passwd')"),
    esc("np_genfromtxt", "import numpy as np\na = np.genfromtxt('/etc/passwd')"),
    esc("np_memmap", "import numpy as np\na = np.memmap('pwned', mode='w+', shape=(10,))"),
    esc("np_lib", "import numpy as np\nf = np.lib.format.open_memmap('pwned', mode='w+')"),
    esc("np_frombuffer", "import numpy as np\na = np.frombuffer(b'12345678')"),
    esc("np_dtype_object", "import numpy as np\nd = np.dtype('O')"),
    # (np.testing holds NumPy's five assertions only: its file and build tools stay out)
    esc("np_testing", "import numpy as np\nt = np.testing.tempdir"),
    esc("np_testing_extbuild", "import numpy as np\nt = np.testing.extbuild"),
    esc("np_testing_run_suite", "from numpy.testing import run_module_suite"),
    esc("np_core", "import numpy as np\nc = np.core.multiarray"),
    esc("np_f2py", "import numpy as np\nc = np.f2py"),
    esc("from_numpy_import_load", "from numpy import load"),
    esc("from_numpy_lib_import", "from numpy.lib import format"),
    esc("import_numpy_lib_format", "import numpy.lib.format"),
    esc("from_numpy_star", "from numpy import *\na = load('x')"),
    esc("import_numpy_ctypeslib", "import numpy.ctypeslib as c"),
    # torch's
    esc("torch_save", T + "torch.save(x, 'pwned.pt')", codes=frozenset({0})),
    esc("torch_load_weights_only", "m = torch.load('m.pt', weights_only=False)", ("No such file",)),
    # a file that exists is not read either: torch.load finds only what torch.save kept
    esc(
        "torch_load_existing_file",
        "m = torch.load('m.pt')",
        ("No such file",),
        files={"m.pt": b"x"},
    ),
    esc("torch_hub", "m = torch.hub.load('a/b', 'c')"),
    esc("torch_utils", "e = torch.utils.cpp_extension.load('x', ['x.cpp'])"),
    # torch.utils.data is the data loading tutorials use: the loader's own internals stay shut
    esc("copy_deepcopy_namespace", "import copy\nc = copy.deepcopy(torch)"),
    esc("copy_module_dunder", "import copy\nb = copy.__builtins__"),
    esc(
        "copy_deepcopy_memo_dict",
        "import copy\nc = copy.deepcopy([1], {}).__class__.__init__.__globals__",
    ),
    esc("dataloader_init_dunder", "i = torch.utils.data.DataLoader.__init__"),
    esc("dataloader_private_batches", "d = torch.utils.data.DataLoader([1, 2])\nb = d._batches"),
    esc("dataloader_collate_open", "d = torch.utils.data.DataLoader([1], collate_fn=open)"),
    esc(
        "dataset_class_dict",
        "class D(torch.utils.data.Dataset):\n    pass\ng = D.__dict__",
    ),
    esc("torch_ops", "o = torch.ops.aten.add"),
    esc("torch_C", "c = torch._C._get_tracing_state()"),
    # torch.jit.script / torch.compile give the function back (issue 10): nothing to reach
    esc("torch_jit", "@torch.jit.script\ndef f(x):\n    return x", codes=frozenset({0, 1})),
    esc("torch_compile", "f = torch.compile(torch.sin)", codes=frozenset({0, 1})),
    esc("torch_compile_backend_import", "f = torch.compile(torch.sin, backend=__import__('os'))"),
    esc("torch_jit_script_open", "f = torch.jit.script(open)"),
    esc("torch_from_file", "x = torch.from_file('/etc/passwd', size=10)"),
    esc("torch_classes", "c = torch.classes"),
    esc("torch_dunder_dict", "d = torch.__dict__"),
    esc("torch_builtins", "b = torch.__builtins__"),
    esc("torch_F_builtins", "b = torch.nn.functional.__builtins__"),
    esc("torch_spec", "s = torch.__spec__.loader"),
    # typing_extensions is gradcli's typing table (explore37): nothing of the real module
    esc("typing_extensions_dunder", "import typing_extensions as te\nd = te.__dict__"),
    esc("typing_extensions_loader", "from typing_extensions import __loader__"),
    esc(
        "typing_extensions_assert_type_call",
        "from typing_extensions import assert_type\nf = assert_type(open, type)('x', 'w')",
    ),
    # `torch.torch` is the package itself (as in PyTorch): no way further than `torch`'s own
    esc("torch_torch_dict", "d = torch.torch.__dict__"),
    esc("from_torch_import_torch_spec", "from torch import torch as t\ns = t.torch.__spec__"),
    esc("torch_torch_import", "t = torch.torch.torch\nm = t.__import__('os')"),
    esc("torch_torch_load", "torch.torch.load('m.pt')", ("No such file",)),
    # torch.backends is gradcli's table (cudnn's flags, mps.is_available): naming it runs.
    esc("torch_backends", "b = torch.backends", codes=frozenset({0, 1})),
    esc("torch_backends_cudnn_module", "b = torch.backends.cudnn.__class__.__dict__"),
    esc("torch_multiprocessing", "m = torch.multiprocessing"),
    esc("torch_package", "p = torch.package.PackageImporter('x')"),
    esc(
        "import_torch_utils",
        "import torch.utils.cpp_extension\nm = torch.utils.cpp_extension.load('x', ['x.cpp'])",
    ),
    esc("from_torch_import_load", "from torch import load\nm = load('m.pt')", ("No such file",)),
    esc("from_torch_hub_import", "from torch.hub import load\nm = load('a/b', 'c')"),
    esc(
        "from_torch_import_save",
        "from torch import save\nsave(torch.ones(1), 'pwned')",
        codes=frozenset({0}),  # kept in memory; the harness checks that nothing was written
    ),
    esc("import_torch_as_os", "import torch as os\nos.system('touch pwned')"),
    # type, classes, metaclasses
    esc("type_call", T + "y = type(x)([1.0])"),
    esc("type_subclasses", "s = type.__subclasses__(type)"),
    esc("object_subclasses", "s = object.__subclasses__()"),
    esc("tuple_class_mro", "s = ().__class__.__mro__"),
    esc("list_class_base", "s = [].__class__.__base__.__subclasses__()"),
    # `.__class__` is what type() gives (a class value of the interpreter's): it runs, and every
    # step past it is refused
    esc("int_class", "s = (1).__class__.__bases__"),
    esc("int_class_runs", "s = (1).__class__", codes=frozenset({0})),
    esc("class_called_tensor", "t = torch.ones(1).__class__([1.0])"),
    # (the class's __init__ is the library's constructor, as in PyTorch; behind it, nothing)
    esc(
        "class_called_module_init",
        "m = torch.nn.Linear(1, 1)\nf = m.__class__.__init__.__globals__",
    ),
    esc("class_of_class_call", "c = torch.ones(1).__class__.__class__.__call__"),
    esc("class_mro_method", "c = (1).__class__.mro()", patterns=REFUSED + (r"no attribute",)),
    esc("class_getattr_string", "c = getattr((1).__class__, '__subclasses__')"),
    esc("class_format_spec_walk", "s = '{0.__class__.__base__}'.format(1)"),
    esc("dunder_len_builtin", "n = [1].__len__()"),
    esc("dunder_getitem_dict", "v = {'a': 1}.__getitem__('a')"),
    esc("dunder_init_of_tensor_class", "torch.Tensor.__init__(torch.ones(1))"),
    # `with numpy.printoptions(...)` (feat24): the same bounds as set_printoptions, the same
    # refusals
    esc(
        "numpy_printoptions_block_unsummarized",
        "import numpy as np\nwith np.printoptions(threshold=10**12):\n    s = str(np.zeros(10**7))",
        NOT_SUPPORTED_OR_LIMIT,
    ),
    esc(
        "numpy_printoptions_block_precision",
        "import numpy as np\nwith np.printoptions(precision=10**8, floatmode='fixed'):\n"
        "    print(np.array([1.5]))",
        NOT_SUPPORTED_OR_LIMIT,
    ),
    esc(
        "numpy_printoptions_block_formatter",
        "import numpy as np\nwith np.printoptions(formatter={'float': print}):\n    pass",
    ),
    # a program's class may define __index__ / __int__ / __float__ (feat24): Python and PyTorch
    # call them where a number is wanted, under the same limits as any call
    esc(
        "number_protocol_index_recursion",
        "class A:\n    def __index__(self):\n        return self.__index__()\nx = [1][A()]",
        NOT_SUPPORTED_OR_LIMIT,
    ),
    esc(
        "number_protocol_huge_size",
        "class A:\n    def __index__(self):\n        return 10 ** 9\nx = torch.zeros(A(), A())",
        NOT_SUPPORTED_OR_LIMIT,
    ),
    esc(
        "number_protocol_huge_range",
        "class A:\n    def __index__(self):\n        return 10 ** 9\nfor i in range(A()):\n"
        "    pass",
        NOT_SUPPORTED_OR_LIMIT,
    ),
    esc(
        "number_protocol_float_recursion",
        "class A:\n    def __float__(self):\n        return float(self)\nx = float(A())",
        NOT_SUPPORTED_OR_LIMIT,
    ),
    esc(
        "number_protocol_method_globals",
        "class A:\n    def __int__(self):\n        return 1\nx = A().__int__.__globals__",
    ),
    # hooks on a leaf's AccumulateGrad node run (feat24): a hook that starts a pass stops at
    # the call depth, its tables stay out of reach, what it returns is bounded
    esc(
        "accumulate_node_hook_recursion",
        T + "acc = (x * 1).grad_fn.next_functions[0][0]\ndef h(gi, go):\n"
        "    with torch.enable_grad():\n        (x * 2).sum().backward()\nacc.register_hook(h)\n"
        "(x * 2).sum().backward()",
        NOT_SUPPORTED_OR_LIMIT,
    ),
    esc(
        "accumulate_node_prehook_huge",
        T + "acc = (x * 1).grad_fn.next_functions[0][0]\n"
        "acc.register_prehook(lambda go: (torch.zeros(10 ** 5, 10 ** 5),))\n"
        "(x * 2).sum().backward()",
        NOT_SUPPORTED_OR_LIMIT,
    ),
    esc("accumulate_node_tables", T + "p = (x * 1).grad_fn.next_functions[0][0].pre"),
    esc(
        "accumulate_node_many_hooks",
        T + "acc = (x * 1).grad_fn.next_functions[0][0]\nwhile True:\n    acc.register_hook(print)",
        NOT_SUPPORTED_OR_LIMIT,
    ),
    # operator and protocol methods of tensors and numbers are read (`x.__add__(y)`, feat24):
    # what they are a way to stays refused, and the numbers they make stay bounded
    esc("dunder_tensor_method_self", "s = torch.ones(1).__add__.__self__"),
    esc("dunder_tensor_repr_globals", "s = torch.ones(1).__repr__.__globals__"),
    esc("dunder_int_slot_objclass", "s = int.__add__.__objclass__"),
    esc("dunder_unbound_tensor_class", "s = torch.Tensor.__mul__.__class__.__dict__"),
    esc("dunder_getattr_value_reduce", "s = getattr(torch.ones(1), '__reduce_ex__')(2)"),
    esc("dunder_call_of_method", "s = torch.ones(1).__neg__.__call__()"),
    esc("dunder_str_method", "s = 'a'.__mul__(10 ** 9)"),
    esc("dunder_number_pow_growth", "v = (2).__pow__(10 ** 8)", NOT_SUPPORTED_OR_LIMIT),
    esc("dunder_number_shift_growth", "v = (1).__lshift__(10 ** 9)", NOT_SUPPORTED_OR_LIMIT),
    esc(
        "dunder_format_width",
        "s = torch.tensor(1.0).__format__('>999999999')",
        NOT_SUPPORTED_OR_LIMIT,
    ),
    esc(
        "dunder_iter_loop_budget",
        "x = torch.zeros(10 ** 6)\nfor i in range(10 ** 9):\n"
        "    v = x.__getitem__(i % 3).__add__(i)",
        NOT_SUPPORTED_OR_LIMIT,
    ),
    esc("dunder_call_function", "def f():\n    return 1\nv = f.__call__()"),
    esc(
        "dunder_own_method_code",
        "class A:\n    def __len__(self):\n        return 1\nc = A().__len__.__code__",
    ),
    # A plain class is a table of the interpreter's (issue 10): it runs; its escapes are the
    # cases around it.
    esc(
        "class_plain_init",
        "class A:\n    def __init__(self):\n        self.x = 1\na = A()",
        codes=frozenset({0, 1}),
    ),
    esc("class_metaclass", "class M(type):\n    pass\nclass A(metaclass=M):\n    pass"),
    esc(
        "class_function_metaclass",
        "class F(torch.autograd.Function, metaclass=type):\n    @staticmethod\n"
        "    def forward(ctx, x):\n        return x\n    @staticmethod\n"
        "    def backward(ctx, g):\n        return g",
    ),
    esc(
        "class_init_subclass",
        "class F(torch.autograd.Function):\n    def __init_subclass__(cls):\n"
        "        open('pwned', 'w')\n"
        "    @staticmethod\n    def forward(ctx, x):\n        return x\n    @staticmethod\n"
        "    def backward(ctx, g):\n        return g\n"
        "class G(F):\n    @staticmethod\n    def forward(ctx, x):\n        return x\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g\n"
        "y = G.apply(torch.ones(1, requires_grad=True))",
        codes=frozenset({0, 1}),
    ),
    esc(
        "class_dunder_getattr",
        "class F(torch.autograd.Function):\n    def __getattr__(self, n):\n"
        "        return open('pwned', 'w')\n"
        "    @staticmethod\n    def forward(ctx, x):\n        return ctx.anything\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g\n"
        "y = F.apply(torch.ones(1, requires_grad=True))\nz = F.whatever",
    ),
    esc(
        "class_body_import",
        "class F(torch.autograd.Function):\n    import os\n    @staticmethod\n"
        "    def forward(ctx, x):\n        return x\n    @staticmethod\n"
        "    def backward(ctx, g):\n        return g",
        REFUSED + (r"a class body holds",),
    ),
    esc(
        "class_body_statement",
        "class F(torch.autograd.Function):\n    k = open('pwned', 'w')\n    @staticmethod\n"
        "    def forward(ctx, x):\n        return x\n    @staticmethod\n"
        "    def backward(ctx, g):\n        return g",
    ),
    esc(
        "class_ctx_dunder",
        "class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
        "        return ctx.__class__.__dict__\n    @staticmethod\n    def backward(ctx, g):\n"
        "        return g\ny = F.apply(torch.ones(1, requires_grad=True))",
    ),
    esc("class_function_subclasses", "s = torch.autograd.Function.__subclasses__()"),
    esc(
        "class_apply_self",
        "class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
        "        return x\n    @staticmethod\n    def backward(ctx, g):\n        return g\n"
        "s = F.apply.__self__",
    ),
    esc(
        "class_forward_globals",
        "class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
        "        return x\n    @staticmethod\n    def backward(ctx, g):\n        return g\n"
        "s = F.forward.__globals__",
    ),
    esc(
        "class_property_decorator",
        "class F(torch.autograd.Function):\n    @property\n    def forward(ctx):\n"
        "        return 1\n    @staticmethod\n    def backward(ctx, g):\n        return g",
        REFUSED + (r"has no static `forward`",),
    ),
    esc(
        "class_del_method",
        "class A(torch.autograd.Function):\n    def __del__(self):\n        open('pwned', 'w')\n"
        "    @staticmethod\n    def forward(ctx, x):\n        return x\n    @staticmethod\n"
        "    def backward(ctx, g):\n        return g\n"
        "y = A.apply(torch.ones(1, requires_grad=True))\ny = 1",
        codes=frozenset({0, 1}),
    ),
    esc("class_keyword", "class A(object, x=__import__('os')):\n    pass"),
    # lambdas
    esc("lambda_default_import", "f = lambda m=__import__('os'): m\ng = f()"),
    esc("lambda_default_open", "f = lambda h=open('pwned', 'w'): h"),
    esc("lambda_code", "c = (lambda: 0).__code__"),
    esc("lambda_recursion", "f = lambda: f()\ny = f()", NOT_SUPPORTED_OR_LIMIT),
    esc("lambda_y_combinator", "y = (lambda f: f(f))(lambda f: f(f))", NOT_SUPPORTED_OR_LIMIT),
    esc("def_default_import", "def f(m=__import__('os')):\n    return m"),
    esc(
        "def_annotation_open",
        "def f(x: open('pwned', 'w')) -> open('pwned2', 'w'):\n    return x\ny = f(1)",
        codes=frozenset({0, 1}),
    ),
    esc("def_kwdefaults", "def f(*, a=1):\n    return a\nk = f.__kwdefaults__"),
    # names that must stay undefined
    *[
        esc(f"name_{n.strip('_')}", f"v = {n}")
        for n in (
            "globals",
            "locals",
            "__builtins__",
            "__import__",
            "open",
            "exec",
            "eval",
            "compile",
            "breakpoint",
            "input",
            "help",
            "object",
            "type",
            "__loader__",
            "__spec__",
            "__build_class__",
        )
    ],
    esc("call_getattr", "f = getattr(torch, 'lo' + 'ad')('/etc/passwd')", ("No such file",)),
    # getattr is the written attribute's twin: the same tables, the same dunder audit
    esc("getattr_dunder_built", "n = '__dic' + 't__'\nc = getattr(torch.ones(1), n)"),
    # getattr(x, '__class__') is x.__class__, type(x): the audited class value, nothing more
    esc(
        "getattr_class_built",
        "n = '__cla' + 'ss__'\nc = getattr(torch.ones(1), n)\nprint(c, c.__name__)",
        codes=frozenset({0}),
    ),
    esc(
        "getattr_class_then_built",
        "c = getattr(torch.ones(1), '__class__')\ns = getattr(c, '__subcl' + 'asses__')",
    ),
    esc("getattr_self_of_builtin", "s = getattr(getattr, '__self__')"),
    esc("getattr_reduce", "r = getattr(torch.ones(1), '__reduce_ex__')(2)"),
    esc("getattr_default_swallows_no_audit", "v = getattr(print, '__globals__', None)"),
    esc("getattr_module_dict", "d = getattr(torch, 'nn').__dict__"),
    esc("getattr_str_subclass", "class S(str):\n    pass\nv = getattr(torch, S('__spec__'))"),
    # matplotlib draws nothing, writes nothing, and its drawings are as closed as the rest
    esc(
        "plt_savefig_writes_nothing",
        "import matplotlib.pyplot as plt\nplt.savefig('pwned')",
        codes=frozenset({0}),
    ),
    esc("plt_dict", "import matplotlib.pyplot as plt\nd = plt.__dict__"),
    esc("plt_drawing_class", "import matplotlib.pyplot as plt\nc = plt.figure().__class__.__mro__"),
    esc(
        "plt_getattr_dunder", "import matplotlib.pyplot as plt\nc = getattr(plt.gca(), '__init__')"
    ),
    esc("plt_from_import_dunder", "from matplotlib.pyplot import __loader__"),
    esc("plt_setattr", "import matplotlib.pyplot as plt\nsetattr(plt, 'show', exec)"),
    esc(
        "plt_subplots_grid_blowup",
        "import matplotlib.pyplot as plt\nf, a = plt.subplots(10**6, 10**6)",
        ("from 1 to 64",),
    ),
    # torch.save / torch.load keep checkpoints in memory: no file is written or read
    esc("torch_save_writes_nothing", "torch.save(torch.ones(1), 'pwned')", codes=frozenset({0})),
    esc("torch_load_reads_nothing", "x = torch.load('/etc/passwd')", ("No such file",)),
    esc("torch_save_file_object", "torch.save(torch.ones(1), print)", ("path string",)),
    esc("torch_save_function", "torch.save(lambda: 1, 'f')", ("is not supported",)),
    # torch.distributions: objects of the surface, reached through their tables only
    esc("dist_class", "d = torch.distributions.Normal(0.0, 1.0)\nc = d.__class__.__init__"),
    esc(
        "dist_getattr_init", "d = torch.distributions.Normal(0.0, 1.0)\nf = getattr(d, '__init__')"
    ),
    esc("dist_private_method", "d = torch.distributions.Normal(0.0, 1.0)\nf = d._check"),
    esc("dist_setattr", "d = torch.distributions.Normal(0.0, 1.0)\nsetattr(d, 'sample', exec)"),
    # conv_transpose: sized before any work
    esc(
        "conv_transpose_huge_output",
        "import torch.nn.functional as F\n"
        "y = F.conv_transpose2d(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 3, 3), stride=10**6)",
        ("over the limit",),
    ),
    esc(
        "conv_transpose_module_huge",
        "m = torch.nn.ConvTranspose2d(10**5, 10**5, 9)",
        ("over the limit",),
    ),
    esc(
        "interpolate_huge",
        "import torch.nn.functional as F\n"
        "y = F.interpolate(torch.ones(1, 1, 4, 4), scale_factor=10**5)",
        ("over the limit",),
    ),
    esc(
        "interpolate_bicubic_huge",
        "import torch.nn.functional as F\n"
        "y = F.interpolate(torch.ones(1, 1, 4, 4), size=(10**5, 10**5), mode='bicubic')",
        ("over the limit",),
    ),
    esc(
        "interpolate_linear_long",
        "import torch.nn.functional as F\n"
        "y = F.interpolate(torch.ones(1, 1, 3), size=10**9, mode='linear')",
        ("over the limit",),
    ),
    esc(
        "interpolate_trilinear_scale_inf",
        "import torch.nn.functional as F\n"
        "y = F.interpolate(torch.ones(1, 1, 2, 2, 2), scale_factor=float('inf'), "
        "mode='trilinear')",
        ("without overflow",),
    ),
    esc(
        "lazy_conv_huge_kernel",
        "m = torch.nn.LazyConv2d(10**4, 10**3)\ny = m(torch.ones(1, 10**3, 2, 2))",
        ("over the limit",),
    ),
    esc("torch_range_huge", "r = torch.range(0, 1e12)", ("over the limit",)),
    esc(
        "matmul_precision_medium",
        "torch.set_float32_matmul_precision('medium')",
        ("not supported",),
    ),
    esc(
        "grid_sample_huge_grid",
        "import torch.nn.functional as F\n"
        "y = F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 10**4, 10**4, 2))",
        ("over the limit",),
    ),
    esc(
        "grid_sample_inf_nan_grid",
        "import torch.nn.functional as F\n"
        "g = torch.tensor([[[[float('inf'), float('nan')], [1e30, -1e30]]]])\n"
        "for pad in ('zeros', 'border', 'reflection'):\n"
        "    y = F.grid_sample(torch.ones(1, 1, 2, 2), g, padding_mode=pad, align_corners=True)\n"
        "    print(y)",
        (),
        codes=frozenset({0}),
        at=None,
    ),
    esc(
        "affine_grid_huge",
        "import torch.nn.functional as F\n"
        "g = F.affine_grid(torch.zeros(1, 2, 3), (1, 1, 10**5, 10**5), align_corners=False)",
        ("over the limit",),
    ),
    esc(
        "interpolate_area_scale_huge",
        "import torch.nn.functional as F\n"
        "y = F.interpolate(torch.ones(1, 1, 2, 2), scale_factor=1e300, mode='area')",
        ("adaptive_avg_pool2d output is",),
    ),
    # setattr is the written assignment's twin: the same tables, the same dunder audit
    esc("call_setattr", "setattr(torch, 'x', 1)"),
    esc("setattr_dunder_built", "class A:\n    pass\nsetattr(A, '__ini' + 't__', print)"),
    esc("setattr_instance_class", "class A:\n    pass\nsetattr(A(), '__class__', int)"),
    esc("setattr_builtin_attr", "setattr(print, '__call__', exec)"),
    esc("setattr_module_attr", "import math\nsetattr(math, 'sqrt', open)"),
    esc("setattr_tensor_method", "x = torch.ones(1)\nsetattr(x, 'backward', exec)"),
    esc("setattr_held", "s = setattr\ns(torch.nn, 'Linear', open)"),
    esc("call_open_write", "f = open('pwned', 'w')"),
    esc("call_exec", 'exec(\'open("pwned", "w")\')'),
    esc("call_eval", "v = eval('__import__(\"os\")')"),
    esc("call_compile", "c = compile('1', 'f', 'exec')"),
    esc("call_breakpoint", "breakpoint()"),
    esc("call_input", "s = input()"),
    esc("call_help", "help(torch)"),
    esc("print_file_keyword", "print('x', file=open('pwned', 'w'))"),
    esc("print_flush_end", "print('x', end=open)"),
    esc("import_os", "import os\nos.system('touch pwned')"),
    esc("import_builtins", "import builtins\nbuiltins.open('pwned', 'w')"),
    esc("import_importlib", "import importlib\nm = importlib.import_module('os')"),
    esc("import_sys_frame", "import sys\nf = sys._getframe()"),
    esc("import_gc", "import gc\no = gc.get_objects()"),
    esc("import_inspect", "import inspect\nf = inspect.currentframe()"),
    esc("import_ctypes", "import ctypes"),
    # an inert import: the module's every use is refused
    esc("import_pickle", "import pickle\nd = pickle.loads(b'cos\\nsystem\\n(S\\'ls\\'\\ntR.')"),
    esc("import_pickle_from", "from pickle import loads\nd = loads('x')"),
    esc("import_shutil_use", "import shutil\nshutil.rmtree('/')"),
    esc("import_urllib_use", "import urllib.request\nurllib.request.urlopen('http://x')"),
    esc("import_subprocess", "import subprocess"),
    esc("import_relative", "from . import x"),
    esc(
        "import_math_as_torch",
        "import math as torch\nx = torch.factorial(10**6)",
        REFUSED + (r"over the limit",),  # (math.factorial's result, bounded before it is made)
    ),
    # decorators that are not torch's: a call of what they name on the function (`f = d(f)`),
    # as any call of the program (explore27); what they reach is what a call reaches
    esc("decorator_print", "@print\ndef f():\n    pass", codes=frozenset({0})),
    esc("decorator_call", "def d(f):\n    return f\n@d\ndef g():\n    pass", codes=frozenset({0})),
    esc("decorator_dunder_lambda", "@(lambda f: f.__globals__)\ndef g():\n    pass"),
    esc("decorator_returns_open", "@(lambda f: open)\ndef g():\n    pass\ng('pwned', 'w')"),
    esc(
        "decorator_wraps_builtin",
        "import functools\n@functools.wraps(torch.relu)\ndef g():\n    pass",
        codes=frozenset({0}),
    ),
    esc(
        "decorator_wraps_assigned",
        "import functools\ndef f():\n    pass\n"
        "@functools.wraps(f, assigned=('__globals__',))\ndef g():\n    pass",
    ),
    esc(
        "module_call_dunder",
        # (a module's __dict__ is readable, a snapshot, as PyTorch's; a change to it is refused)
        "class M(torch.nn.Module):\n    def __call__(self, x):\n"
        "        self.__dict__['forward'] = print\nM()(1)",
    ),
    esc("decorator_lru_cache", "@functools.lru_cache\ndef f():\n    pass"),
    esc(
        "decorator_reaches_globals",
        "def d(f):\n    return getattr(f, '__globals__')\n@d\ndef g():\n    pass",
    ),
    esc(
        "decorator_reaches_code",
        "def d(f):\n    return f.__code__\n@d\ndef g():\n    pass",
    ),
    esc("decorator_open", "@open\ndef g():\n    pass"),
    esc("decorator_eval_string", "@eval\ndef g():\n    pass"),
    esc(
        "decorator_endless_recursion",
        "def d(f):\n    return d(f)\n@d\ndef g():\n    pass",
        LIMIT + (r"depth", r"recursi"),
    ),
    esc(
        "decorator_endless_loop",
        "def d(f):\n    while True:\n        pass\n@d\ndef g():\n    pass",
        LIMIT,
        seconds=90,
    ),
    esc(
        "decorator_factory_endless",
        "def d(n):\n    return d(n + 1)\n@d(0)\ndef g():\n    pass",
        LIMIT + (r"depth", r"recursi"),
    ),
    # MixtureSameFamily (explore27): its draws bounded as its parts' are
    small(
        "mixture_huge_sample",
        "import torch.distributions as D\n"
        "m = D.MixtureSameFamily(D.Categorical(torch.ones(3)), "
        "D.Normal(torch.zeros(3), torch.ones(3)))\ns = m.sample((10**9,))",
        LIMIT,
        seconds=90,
    ),
    small(
        "mixture_many_components",
        "import torch.distributions as D\n"
        "m = D.MixtureSameFamily(D.Categorical(torch.ones(10**6)), "
        "D.Normal(torch.zeros(10**6), torch.ones(10**6)))\ns = m.sample((10**4,))",
        LIMIT,
        seconds=90,
    ),
    esc(
        "mixture_internals",
        "import torch.distributions as D\n"
        "m = D.MixtureSameFamily(D.Categorical(torch.ones(2)), "
        "D.Normal(torch.zeros(2), torch.ones(2)))\nf = m._pad.__func__.__globals__",
    ),
    # TransformedDistribution and its transforms (explore32): reached through their tables
    small(
        "transformed_huge_sample",
        "import torch.distributions as D\n"
        "d = D.TransformedDistribution(D.Normal(0.0, 1.0), [D.ExpTransform()])\n"
        "s = d.sample((10**9,))",
        LIMIT,
        seconds=90,
    ),
    esc(
        "transform_internals",
        "import torch.distributions as D\n"
        "t = D.ExpTransform(cache_size=1)\nf = t._call.__func__.__globals__",
    ),
    esc("transform_cache", "import torch.distributions as D\nc = D.ExpTransform()._cached_x_y"),
    esc(
        "transformed_class_walk",
        "import torch.distributions as D\n"
        "d = D.TransformedDistribution(D.Normal(0.0, 1.0), D.TanhTransform())\n"
        "c = d.transforms[0].__class__.__init__",
    ),
    esc(
        "transform_setattr",
        "import torch.distributions as D\nsetattr(D.ExpTransform(), '_call', exec)",
    ),
    esc(
        "transformed_not_transforms",
        "import torch.distributions as D\n"
        "d = D.TransformedDistribution(D.Normal(0.0, 1.0), [print])",
        ("must be a Transform",),
    ),
    # forward hooks with_kwargs (explore34): what a pre-hook returns is checked before forward
    small(
        "hook_kwargs_not_a_mapping",
        "lin = torch.nn.Linear(2, 2)\n"
        "lin.register_forward_pre_hook(lambda m, a, k: (a, [1]), with_kwargs=True)\n"
        "y = lin(torch.ones(1, 2))",
        ("must be a mapping",),
    ),
    small(
        "hook_kwargs_args_a_tensor",
        "lin = torch.nn.Linear(2, 2)\n"
        "lin.register_forward_pre_hook(lambda m, a, k: (torch.ones(10**6), {}), "
        "with_kwargs=True)\ny = lin(torch.ones(1, 2))",
        ("not supported",),
    ),
    small(
        "hook_kwargs_dunder_keys",
        "class M(torch.nn.Module):\n    def forward(self, x, **kw):\n        return kw\n"
        "m = M()\n"
        "m.register_forward_pre_hook(lambda mod, a, k: (a, {'__class__': 1}), with_kwargs=True)\n"
        "d = m(torch.ones(1))\nprint(sorted(d))",
        (),
        codes=frozenset({0}),
    ),
    esc(
        "hook_kwargs_entry_internals",
        "lin = torch.nn.Linear(2, 2)\n"
        "h = lin.register_forward_pre_hook(lambda m, a, k: None, with_kwargs=True)\n"
        "t = lin._forward_pre_hooks_with_kwargs\nf = lin._forward_pre_hooks[0].__globals__",
    ),
    # enum: members only; nothing of Python's class machinery (explore27)
    esc(
        "enum_members_dunder", "from enum import Enum\nclass M(Enum):\n    A = 1\nx = M.__members__"
    ),
    esc(
        "enum_member_dict",
        "from enum import Enum\nclass M(Enum):\n    A = 1\nx = M.A.__class__.__mro__",
    ),
    esc(
        "enum_method",
        "from enum import Enum\nclass M(Enum):\n    A = 1\n    def f(self):\n"
        "        return open('pwned', 'w')\nM.A.f()",
    ),
    esc("enum_functional", "from enum import Enum\nM = Enum('M', 'A B')"),
    esc("enum_other_kinds", "from enum import Flag\nclass F(Flag):\n    A = 1"),
    esc(
        "enum_subclassed",
        "from enum import Enum\nclass M(Enum):\n    A = 1\nclass N(M):\n    B = 2",
    ),
    small(
        "enum_many_members",
        "from enum import Enum\nclass M(Enum):\n"
        + "".join(f"    A{i} = {i}\n" for i in range(3000))
        + "print(len(M), M(2999))",
        (r".",),
        codes=frozenset({0, 1}),
        seconds=90,
    ),
    # __doc__: the program's own docstrings only, read, never assigned or walked (explore27)
    esc("doc_of_torch_function", "d = torch.sin.__doc__"),
    esc("doc_of_torch_module", "d = torch.nn.Linear(1, 1).__doc__"),
    esc("doc_assigned", "def f():\n    'x'\nf.__doc__ = 'y'"),
    esc("doc_walked", "def f():\n    'x'\nd = f.__doc__.__class__.__mro__"),
    esc("doc_of_module_namespace", "d = torch.__doc__"),
    esc(
        "functools_wraps_assigned_dunders",
        "import functools\ndef f():\n    pass\n"
        "d = functools.wraps(f, assigned=('__globals__', '__code__'))",
    ),
    esc(
        "functools_wraps_onto_builtin",
        "import functools\ndef f():\n    pass\ng = functools.wraps(f)(open)",
    ),
    esc(
        "functools_wraps_onto_torch_function",
        "import functools\ndef f():\n    pass\ng = functools.wraps(f)(torch.sin)",
        (r"not writable",),
    ),
    esc(
        "decorator_on_method_dunder",
        "def d(f):\n    return f.__self__\n"
        "class M(torch.nn.Module):\n    @d\n    def forward(self, x):\n        return x",
    ),
    esc(
        "decorator_staticmethod_top",
        "@staticmethod\ndef f():\n    return open('pwned', 'w')\ny = f()",
        codes=frozenset({0, 1}),
    ),
    esc("decorator_expression", "@(lambda f: f)\ndef g():\n    pass", codes=frozenset({0})),
    # private names (`__x` in a class is `_Class__x`, explore27): never a dunder
    esc(
        "private_name_in_underscore_class",
        "class _:\n    def f(self):\n        return self.__globals\n_().f()",
    ),
    esc(
        # (not mangled: a dunder; a plain instance's __dict__ is its own attribute table, the
        # program's values, as vars(self) gives it: a right outcome)
        "private_name_not_dunder",
        "class A:\n    def f(self):\n        return self.__dict__\nA().f()",
        codes=frozenset({0}),
    ),
    esc(
        "private_name_class_dunder_suffix",
        "class A__:\n    def f(self):\n        return self.__init__.__globals__\nA__().f()",
    ),
    esc(
        "private_method_reaches_class",
        "class A:\n    def __g(self):\n        return self.__class__.__subclasses__()\n"
        "    def f(self):\n        return self.__g()\nA().f()",
    ),
    esc(
        "private_name_outside_class",
        "class A:\n    def __init__(self):\n        self.__x = 1\nprint(A().__x)",
    ),
    # zip, map, filter, enumerate, reversed: iterators as Python's (explore27), bounded
    small(
        "zip_of_huge_ranges_listed",
        "z = list(zip(range(10**9), range(10**9)))",
        LIMIT,
    ),
    small(
        "map_endless_consumed",
        "import itertools\nfor v in map(abs, itertools.count()):\n    pass",
        LIMIT,
        seconds=90,
    ),
    small(
        "enumerate_of_itself",
        "x = [1]\nfor i, v in enumerate(x):\n    x.append(v)",
        LIMIT,
        seconds=90,
    ),
    small(
        "filter_sorted_huge",
        "s = sorted(filter(None, range(10**9)))",
        LIMIT,
        seconds=90,
    ),
    esc("zip_object_internals", "z = zip([1], [2])\nf = z.__reduce__()"),
    esc("reversed_object_internals", "r = reversed([1, 2])\nf = r.__setstate__(0)"),
    # statements
    esc("walrus_to_a_builtin_then_call", "(g := getattr)(print, '__globals__')"),
    budget("walrus_growing_in_while", "x = [1]\nwhile (x := x + x):\n    pass"),
    esc("walrus_escape", "if (f := open):\n    pass"),
    # `global` / `nonlocal` (issue 10) bind the program's own names: what they bind is the
    # program's values; Python's internals stay out of reach through them.
    esc(
        "global_rebinds_only_the_programs_torch",
        "def f():\n    global torch\n    torch = 1\nf()\ny = torch.ones(1)",
    ),
    esc(
        "global_dunder_import", "def f():\n    global __import__\n    return __import__('os')\nf()"
    ),
    esc("global_dunder_class", "def f():\n    global __class__\n    return __class__\nf()"),
    esc("global_open", "def f():\n    global open\n    return open('x', 'w')\nf()"),
    esc(
        "nonlocal_to_open",
        "def f():\n    a = 1\n    def g():\n        nonlocal a\n        a = open\n    g()\n"
        "    return a\nf()",
    ),
    esc("nonlocal_at_module_level", "nonlocal torch"),
    esc("nonlocal_without_binding", "def f():\n    nonlocal torch\n    torch = 1\nf()"),
    budget(
        "global_growing_in_a_loop",
        "def f():\n    global xs\n    xs = xs + xs\nxs = [1]\nwhile True:\n    f()",
    ),
    budget(
        "nonlocal_growing_in_a_loop",
        "def f():\n    a = [1]\n    def g():\n        nonlocal a\n        a = a + a\n"
        "    while True:\n        g()\nf()",
    ),
    # Generator functions run (issue 10); what they yield is the program's own values.
    esc("yield_statement", "def f():\n    yield torch\nv = f()", codes=frozenset({0, 1})),
    esc("yield_from", "def f():\n    yield from [1]\nv = f()", codes=frozenset({0, 1})),
    esc("async_def", "async def f():\n    return 1"),
    esc("await_outside", "async def f():\n    await f()"),
    esc("async_for", "async def f():\n    async for i in x:\n        pass"),
    esc("async_with", "async def f():\n    async with x:\n        pass"),
    esc("del_builtin", "del print\nprint = 1"),
    # `del` of a name, a list or dict item and x.grad runs (issue 10): nothing it reaches is
    # Python's own.
    esc("del_torch", "del torch", codes=frozenset({0, 1})),
    esc("del_attribute", T + "del x.grad", codes=frozenset({0, 1})),
    esc("del_subscript", "l = [1]\ndel l[0]", codes=frozenset({0, 1})),
    esc("del_tensor_dunder", T + "del x.__class__"),
    # The host modules notebooks import (gc, time, warnings, random, numpy.random) and
    # torch.backends: their members are gradcli's tables, none of Python's own.
    esc("time_sleep", "import time\ntime.sleep(30)"),
    esc("gc_referrers", "import gc\nr = gc.get_referrers(torch)"),
    esc("gc_objects", "from gc import get_objects"),
    esc("warnings_module_internals", "import warnings\nw = warnings.sys"),
    esc("random_module_internals", "import random\nr = random._os"),
    esc("random_class_instance", "import random\nr = random.Random"),
    esc("numpy_random_bitgen", "import numpy as np\nb = np.random.bit_generator"),
    esc("cudnn_dunder", "d = torch.backends.cudnn.__dict__"),
    esc("cudnn_set_unknown", "torch.backends.cudnn.allow_fp32 = print"),
    esc("cudnn_set_function", "torch.backends.cudnn.allow_tf32 = print", ("expects a bool",)),
    esc(
        "cuda_matmul_set_function",
        "torch.backends.cuda.matmul.allow_tf32 = print",
        ("expects a bool",),
    ),
    esc("cuda_matmul_dunder", "d = torch.backends.cuda.matmul.__dict__"),
    esc("mps_dunder", "d = torch.backends.mps.is_built.__globals__"),
    esc("time_dunder", "import time\nb = time.__builtins__"),
    esc("with_open", "with open('pwned', 'w') as f:\n    pass"),
    # (match runs; a class pattern on attributes stays refused)
    esc("match_statement", "match 1:\n    case int(real=r):\n        pass"),
    esc("star_assign_dunder", "a, *b = ().__class__.__mro__"),
    esc("augassign_attribute", T + "x.__class__ += 1"),
    esc("assign_attribute_torch", "torch.load = 1"),
    esc("assign_tensor_dunder", T + "x.__class__ = int"),
    esc("assign_tensor_attribute", T + "x.foo = open"),
    # a tensor takes attributes of the program's own (`x.tag = 1`), never a name with an
    # underscore, and what it holds is reached no further than the value itself
    esc("assign_tensor_underscore_attribute", T + "x._foo = 1"),
    esc("assign_tensor_attribute_setattr_dunder", T + "setattr(x, '__dict__', {})"),
    esc("tensor_attribute_getattr_walk", T + "x.f = getattr\nv = x.f(x, '__class__').__mro__"),
    esc("tensor_attribute_self_dunder", T + "x.f = x\nv = x.f.f.__dict__"),
    esc("tensor_attribute_delete_slot", T + "x.tag = 1\ndel x._attrs"),
    esc("subscript_builtins", "b = __builtins__['open']"),
    # exceptions that carry objects
    esc("except_traceback", "try:\n    v = 1 / 0\nexcept Exception as e:\n    t = e.__traceback__"),
    # e.args is Python's tuple of the message (strings and the program's own values)
    esc(
        "except_args",
        "try:\n    v = 1 / 0\nexcept ZeroDivisionError as e:\n"
        "    t = e.args[0].__class__.__subclasses__()",
    ),
    # `raise E from cause` runs (issue 10); what its cause may reach is refused as anywhere
    esc("raise_from", "raise Exception('x') from __import__('os')"),
    esc("raise_from_cause_walk", "raise Exception('x') from ().__class__.__base__"),
    esc("try_star", "try:\n    pass\nexcept* ValueError:\n    pass"),
    esc("assert_message", "assert False, __import__('os')"),
    # recursion bombs
    esc(
        "recursion_mutual",
        "def a(n):\n    return b(n)\ndef b(n):\n    return a(n)\ny = a(1)",
        NOT_SUPPORTED_OR_LIMIT + (r"depth", r"recursi"),
    ),
    esc(
        "recursion_default_arg",
        "def f(n, g=None):\n    return f(n + 1)\ny = f(0)",
        NOT_SUPPORTED_OR_LIMIT + (r"depth", r"recursi"),
    ),
    esc(
        "recursion_in_custom_backward",
        "def f(x):\n    return x * 2\n"
        "def f_backward(x, g):\n    y = f(x).sum()\n    y.backward()\n    return g\n"
        "x = torch.ones(2, requires_grad=True)\ny = f(x).sum()\ny.backward()",
        NOT_SUPPORTED_OR_LIMIT + (r"depth", r"recursi", r"backward", r"graph"),
        at=None,
    ),
    esc(
        "recursion_in_function_class",
        "class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
        "        return F.apply(x)\n    @staticmethod\n    def backward(ctx, g):\n"
        "        return g\n"
        "y = F.apply(torch.ones(1, requires_grad=True))",
        NOT_SUPPORTED_OR_LIMIT + (r"depth", r"recursi"),
    ),
    esc(
        "recursion_lambda_default",
        "f = lambda n, g=(lambda: 0): f(n)\ny = f(1)",
        NOT_SUPPORTED_OR_LIMIT,
    ),
    # deep nesting and long inputs
    esc("deep_list_literal", "l = " + "[" * 150 + "]" * 150, NOT_SUPPORTED_OR_LIMIT + (r"nested",)),
    esc(
        "deep_list_literal_parser",
        "l = " + "[" * 5000 + "]" * 5000,
        NOT_SUPPORTED_OR_LIMIT + (r"nested",),
        at=None,
    ),
    esc(
        "deep_attribute_chain",
        "v = torch" + ".a" * 100_000,
        NOT_SUPPORTED_OR_LIMIT + (r"nested",),
        at=None,
    ),
    esc(
        "deep_call_chain",
        "v = torch.ones" + "()" * 100_000,
        NOT_SUPPORTED_OR_LIMIT + (r"nested",),
        at=None,
    ),
    esc(
        "deep_subscript_chain",
        "v = torch.ones(1)" + "[0]" * 100_000,
        NOT_SUPPORTED_OR_LIMIT + (r"nested",),
        at=None,
    ),
    esc(
        "deep_not_chain",
        "v = " + "not " * 100_000 + "1",
        NOT_SUPPORTED_OR_LIMIT + (r"nested",),
        at=None,
    ),
    esc(
        "deep_ternary_chain",
        "v = " + "1 if 1 else " * 50_000 + "1",
        NOT_SUPPORTED_OR_LIMIT + (r"nested",),
        at=None,
    ),
    esc(
        "deep_lambda_chain",
        "v = " + "lambda: " * 10_000 + "1",
        NOT_SUPPORTED_OR_LIMIT + (r"nested",),
        at=None,
    ),
    esc(
        "deep_compare_chain",
        "v = 1" + " < 1" * 100_000,
        NOT_SUPPORTED_OR_LIMIT + (r"nested",),
        codes=frozenset({0, 1}),
        at=None,
    ),
    esc(
        "deep_bool_chain",
        "v = 1" + " and 1" * 100_000,
        NOT_SUPPORTED_OR_LIMIT + (r"nested",),
        codes=frozenset({0, 1}),
        at=None,
    ),
    esc(
        "deep_def_nesting",
        "".join("    " * i + f"def f{i}():\n" for i in range(99)) + "    " * 99 + "pass\n",
        NOT_SUPPORTED_OR_LIMIT + (r"nested", r"indentation"),
        codes=frozenset({0, 1}),
    ),
    esc(
        "identifier_million",
        "v" * 999_000 + " = 1",
        NOT_SUPPORTED_OR_LIMIT,
        codes=frozenset({0, 1}),
    ),
    esc(
        "identifier_million_dunder",
        "x = torch.ones(1).__" + "c" * 900_000 + "__",
        NOT_SUPPORTED_OR_LIMIT,
        max_stderr=4000,
    ),
)

# === the language as it grew (issue 10): hostile variants of each new construct ==============

add(
    budget("lang_fstring_width", "s = f'{1:>{10**9}}'"),
    budget("lang_percent_width", "s = '%1000000000d' % 1"),
    budget("lang_fstring_precision", "s = f'{1e308:.1000000f}'"),
    budget("lang_str_center", "s = 'x'.center(10**9)"),
    budget("lang_str_of_big_list", "s = str([1.5] * 10**6)"),
    budget("lang_repr_of_big_string", "s = repr('x' * 10**6)"),
    budget("lang_star_args", "print(*range(10**7))"),
    budget("lang_sorted_huge", "l = sorted(range(10**7))"),
    budget("lang_dictcomp_huge", "d = {i: i for i in range(10**12)}"),
    budget("lang_genexp_sum_huge", "s = sum(i for i in range(10**12))"),
    budget(
        "lang_while_true_except", "while True:\n    try:\n        pass\n    except:\n        pass"
    ),
    budget(
        "lang_recursion_swallowed",
        "def f():\n    try:\n        return f()\n    except Exception:\n        return f()\nf()",
        patterns=LIMIT + (r"depth",),
    ),
    budget(
        "lang_module_calls_itself",
        "class M(torch.nn.Module):\n    def forward(self, x):\n        return self(x)\ny = M()(1)",
        patterns=LIMIT + (r"depth",),
    ),
    budget("lang_finally_after_limit", "try:\n    x = torch.zeros(10**9)\nfinally:\n    x = 1"),
    esc("lang_format_attribute", "s = '{0.grad}'.format(torch.ones(1))"),
    esc("lang_percent_mapping", "s = '%(a)s' % {'a': 1}", codes=frozenset({0, 1})),
    esc("lang_type_of_type", "t = type(torch.ones(1))\nu = t([1.0])"),
    esc(
        "lang_hasattr_then_getattr",
        "h = hasattr(torch, 'load')\nf = getattr(torch, 'load')('m.pt')",
        ("No such file",),
    ),
    # (a program's module's __dict__ reads as a snapshot since fixmisc40: writing is refused)
    esc(
        "lang_self_dict",
        "class M(torch.nn.Module):\n    def f(self):\n        self.__dict__['x'] = 1\nM().f()",
    ),
    # (a module's hook tables are PyTorch's, read as snapshots of the program's own hooks)
    esc(
        "lang_module_private",
        "class M(torch.nn.Module):\n    pass\np = M()._forward_hooks",
        codes=frozenset({0, 1}),
    ),
    esc("lang_super_outside", "def f():\n    return super()\ny = f()", (r"only supported",)),
    esc(
        "lang_exception_traceback",
        "try:\n    1 / 0\nexcept Exception as e:\n    t = e.with_traceback",
    ),
    esc("lang_generator_send", "g = (i for i in [1])\ng.send(None)"),
    # (a number written into x.numpy() is PyTorch's shared memory: allowed; anything else not)
    esc("lang_numpy_view_write", "a = torch.ones(2).numpy()\na[0] = 'x'", (r"cannot assign",)),
    esc("lang_numpy_view_tofile", "torch.ones(2).numpy().tofile('pwned')"),
    esc("lang_dict_type_attribute", "d = dict.mro()", (r"has no attribute",)),
    esc("lang_str_format_map", "s = '{x}'.format_map({'x': 1})"),
    esc("lang_typing_origin", "import typing\nx = typing.List.__origin__"),
    esc("lang_typing_attribute", "from typing import List\nx = List[int].copy_with((str,))"),
    esc("lang_typing_import_module", "from typing import io"),
)

# A program's own optimizer and scheduler (`class MySGD(torch.optim.Optimizer)`, `class
# Warmup(LRScheduler)`): the base's machinery with the program's methods, no way further in.
OPT = (
    "w = torch.ones(3, requires_grad=True)\n"
    "class O(torch.optim.Optimizer):\n"
    "    def __init__(self, params, lr=0.1):\n"
    "        super().__init__(params, dict(lr=lr))\n"
)
add(
    esc("optim_subclass_repr_dunder", OPT + "    def __repr__(self):\n        return 'x'\n"),
    esc("optim_subclass_getattr_dunder", OPT + "    def __getattr__(self, n):\n        return 1\n"),
    esc(
        "optim_subclass_setstate_plain", "class A:\n    def __setstate__(self, s):\n        pass\n"
    ),
    esc("optim_subclass_dict", OPT + "o = O([w])\nd = o.__dict__"),
    esc("optim_subclass_class_mro", OPT + "o = O([w])\nm = o.__class__.__mro__"),
    esc("optim_base_subclasses", "s = torch.optim.Optimizer.__subclasses__()"),
    esc("optim_base_dict", "s = torch.optim.Optimizer.__dict__"),
    esc("optim_base_method_globals", "s = torch.optim.Optimizer.step.__globals__"),
    esc(
        "optim_super_getattribute",
        OPT + "    def f(self):\n        return super().__getattribute__('x')\nO([w]).f()",
    ),
    esc(
        "optim_private_state",
        OPT + "o = O([w])\ns = o._state",
        patterns=REFUSED,
        codes=frozenset({0, 1}),
    ),
    esc("optim_setstate_outside_super", OPT + "o = O([w])\no.__setstate__({})"),
    esc(
        "optim_step_recursion",
        OPT + "    def step(self, closure=None):\n        return self.step(closure)\nO([w]).step()",
        LIMIT + (r"depth", r"recursi"),
    ),
    esc(
        "optim_state_huge_tensor",
        OPT
        + "    def step(self, closure=None):\n"
        + "        self.state[w]['buf'] = torch.zeros(10**6, 10**6)\nO([w]).step()",
        LIMIT + (r"elements",),
    ),
    esc(
        "optim_state_many_entries",
        OPT
        + "    def step(self, closure=None):\n"
        + "        for i in range(10**9):\n            self.state[i] = i\nO([w]).step()",
        TIME_LIMIT + LIMIT,
    ),
    esc(
        "optim_param_groups_growth",
        OPT + "o = O([w])\nwhile True:\n"
        "    o.add_param_group({'params': [torch.ones(1, requires_grad=True)]})",
        TIME_LIMIT + LIMIT,
    ),
    esc("optim_state_assigned", OPT + "o = O([w])\no.state = 5"),
    # a dict the program assigns is its state: a hostile key stays a key, never code
    esc(
        "optim_state_assigned_dict",
        OPT + "o = O([w])\no.state = {'__class__': w, 1: print}\nprint(o.state_dict())",
        REFUSED,
        codes=frozenset({0, 1}),
    ),
    esc(
        "optim_scheduler_get_lr_recursion",
        "from torch.optim.lr_scheduler import LRScheduler\n"
        "w = torch.ones(3, requires_grad=True)\n"
        "class S(LRScheduler):\n    def get_lr(self):\n        self.step()\n        return [0.1]\n"
        "S(torch.optim.SGD([w], lr=0.1))",
        LIMIT + (r"depth", r"recursi"),
    ),
    esc(
        "optim_scheduler_get_lr_not_list",
        "from torch.optim.lr_scheduler import LRScheduler\n"
        "w = torch.ones(3, requires_grad=True)\n"
        "class S(LRScheduler):\n    def get_lr(self):\n        return 0.1\n"
        "S(torch.optim.SGD([w], lr=0.1))",
        (r"must return a list",),
    ),
    esc(
        "optim_scheduler_private_set",
        "from torch.optim.lr_scheduler import LRScheduler\n"
        "w = torch.ones(3, requires_grad=True)\n"
        "class S(LRScheduler):\n    def get_lr(self):\n        self._step_count = -5\n"
        "        return [0.1]\n"
        "S(torch.optim.SGD([w], lr=0.1))",
    ),
)

# A module's internals as programs read them (`m._forward_hooks`, `m._version`): snapshots
# and settings; PyTorch's other private names refused; nothing written through.
MOD = "m = torch.nn.Linear(2, 2)\n"
add(
    esc("module_private_apply_call", MOD + "m._apply(lambda t: t)"),
    esc("module_private_call_impl", MOD + "m._call_impl(torch.ones(2))"),
    esc("module_private_unknown", MOD + "f = m._slow_forward"),
    esc("module_private_load", MOD + "m._load_from_state_dict({}, '', {}, True, [], [], [])"),
    esc(
        "module_hook_table_write",
        MOD + "m._forward_hooks[0] = print\nprint(m(torch.ones(2)))",
        codes=frozenset({0, 1}),
    ),
    esc("module_parameters_write", MOD + "m._parameters['weight'] = torch.ones(2, 2)"),
    esc(
        "module_hook_walk", MOD + "m.register_forward_hook(print)\nf = m._forward_hooks[0].__self__"
    ),
    esc(
        "module_to_empty",
        MOD + "m.to_empty(device='cpu')\nprint(type(m.weight), m.weight.shape)",
        (),
        codes=frozenset({0}),
        stdout_patterns=(r"^<class 'torch.nn.parameter.Parameter'> torch.Size\(\[",),
    ),
    esc("module_cuda", MOD + "m.cuda()", (r"not compiled with CUDA",)),
)

# === the surface as it grew (issue "Trust"): einsum, linalg, torch.func, conv/pool, scatter,
# printing options, NumPy arrays, nn modules, optimizers, format(), f-strings, while, lambdas,
# classes, try/except. Each new way in, the way it must end.

X2 = "import torch\nx = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n"
X3 = "import torch\nx = torch.tensor([1., 2., 3.], requires_grad=True)\n"
IMG = "import torch\nx = torch.ones(1, 1, 6, 6, requires_grad=True)\n"
NP = "import numpy as np\n"
SHARED_TUPLE = "a = ()\nfor i in range(60):\n    a = (a, a)\n"
SHARED_LIST = "a = [0.0]\nfor i in range(60):\n    a = [a, a]\n"
INF_PRINT = "torch.set_printoptions(threshold=float('inf'))\nx = torch.linspace(0, 1, 10**7)\n"
CONTAINS_ITSELF = (r"contains itself",) + REFUSED + LIMIT + (r"depth", r"recursi")
DEPTH = LIMIT + (r"depth", r"recursi")
TIME_OR_LIMIT = TIME_LIMIT + LIMIT

# -- code in what gradcli writes: exports of programs that use each new op --------------------
add(
    export_prog(
        "new_export_linalg_every_op",
        X2 + "A = x @ x.T + torch.eye(2)\n"
        "y = torch.linalg.inv(A).sum() + torch.det(A) + torch.logdet(A)"
        " + torch.linalg.slogdet(A)[1] + torch.linalg.cholesky(A).sum()"
        " + torch.linalg.solve(A, x).sum() + torch.linalg.eigh(A)[0].sum()"
        " + torch.linalg.svd(A)[1].sum() + torch.linalg.pinv(A).sum()"
        " + torch.linalg.matrix_power(A, 3).sum() + torch.linalg.multi_dot([A, A, A]).sum()"
        " + torch.linalg.qr(A)[1].sum() + torch.trace(A) + torch.kron(A, A).sum()"
        " + torch.cdist(A, A).sum() + torch.tensordot(A, A, dims=1).sum()"
        " + torch.addmm(A, A, A).sum()",
    ),
    export_prog(
        "new_export_pool_ceil_and_padding",
        IMG + "y = torch.nn.functional.max_pool2d(x, 2, padding=1).sum()"
        " + torch.nn.functional.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True).sum()"
        " + torch.nn.functional.max_pool2d(x, 3, stride=2, ceil_mode=True).sum()"
        " + torch.nn.functional.unfold(x, 2).sum()",
    ),
    export_prog(
        "new_export_conv_same_dilated",
        IMG + "w = torch.ones(2, 1, 3, 3)\n"
        "y = torch.nn.functional.conv2d(x, w, padding='same', dilation=2).sum()"
        " + torch.nn.functional.conv1d(x[0, :, 0], torch.ones(1, 1, 2), stride=3).sum()",
    ),
    export_prog(
        "new_export_einsum_forms",
        X2 + "y = torch.einsum('...j,...j->...', x, x).sum() + torch.einsum(x, [0, 1], x, [1, 2],"
        " [0, 2]).sum() + torch.einsum(' i j , j k -> i k ', x, x).sum()"
        " + torch.einsum('ii', x)",
    ),
    export_prog(
        "new_export_norms_inf",
        X2
        + "y = torch.linalg.norm(x, ord=float('inf')) + torch.linalg.vector_norm(x, ord=-torch.inf)"
        " + torch.linalg.norm(x, 'fro') + torch.linalg.matrix_norm(x, 'nuc')"
        " + torch.nn.functional.normalize(x, p=float('inf')).sum()",
    ),
    export_prog(
        "new_export_scatter_family",
        "import torch\nx = torch.ones(5, requires_grad=True)\ni = torch.tensor([0, 1, 1])\n"
        "y = torch.zeros(3).scatter_add(0, i, x[:3]).sum() + x.scatter(0, i, 2.0).sum()"
        " + torch.zeros(3).index_add(0, i, x[:3]).sum() + x.gather(0, i).sum()",
    ),
    export_prog(
        "new_export_nn_sequential",
        "import torch\ntorch.manual_seed(0)\nm = torch.nn.Sequential(torch.nn.Linear(3, 4),"
        " torch.nn.ReLU(), torch.nn.Linear(4, 1))\nx = torch.ones(3, requires_grad=True)\n"
        "y = m(x).sum()",
    ),
    export_prog(
        "new_export_class_module",
        "import torch\nclass Net(torch.nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.fc = torch.nn.Linear(3, 1)\n"
        "    def forward(self, x):\n        return torch.tanh(self.fc(x))\n"
        "torch.manual_seed(0)\nnet = Net()\nx = torch.ones(3, requires_grad=True)\n"
        "y = net(x).sum()",
    ),
    export_prog(
        "new_export_module_dict_key_newline",
        "import torch\ntorch.manual_seed(0)\n"
        "m = torch.nn.ModuleDict({'a\\nimport os\\n#': torch.nn.Linear(3, 2)})\n"
        "x = torch.ones(3, requires_grad=True)\ny = m['a\\nimport os\\n#'](x).sum()",
    ),
    export_prog(
        "new_export_dict_key_newline",
        "import torch\nd = {'k\\nimport os': torch.ones(3, requires_grad=True)}\n"
        "y = (d['k\\nimport os'] * 2).sum()",
        codes=frozenset({0, 1}),
    ),
    export_prog(
        "new_export_func_transforms",
        "import torch\nfrom torch.func import vmap, grad\n"
        "x = torch.ones(3, 2, requires_grad=True)\n"
        "g = grad(lambda v: (v ** 3).sum())(x)\n"
        "J = torch.autograd.functional.jacobian(lambda v: v ** 2, x[0], create_graph=True)\n"
        "y = vmap(lambda r: (r * r).sum())(x).sum() + (g * x).sum() + J.sum()",
    ),
    export_prog(
        "new_export_optimizer_steps",
        X3 + "opt = torch.optim.Adam([x], lr=0.1)\nfor i in range(3):\n    opt.zero_grad()\n"
        "    l = (x ** 2).sum()\n    l.backward()\n    opt.step()\ny = (x ** 2).sum()",
    ),
    export_prog(
        "new_export_numpy_dtypes",
        "import torch\nimport numpy as np\nx = torch.tensor(np.array([1.0, 2.0, 3.0]),"
        " requires_grad=True)\nk = torch.tensor([1, 2, 3], dtype=torch.int8)\n"
        "u = torch.tensor([1, 0, 1], dtype=torch.uint8)\nh = torch.ones(3, dtype=torch.float16)\n"
        "y = (x * k).sum() + (x * u).sum() + (x * h.double()).sum()"
        " + (x * torch.from_numpy(np.ones(3))).sum()",
    ),
    export_prog(
        "new_export_language_constructs",
        X3 + "f = lambda v: torch.sin(v) * 2\nh = x\ni = 0\nwhile i < 3:\n    try:\n"
        "        h = f(h) + float(f'{i:.1f}')\n    except RuntimeError as e:\n        pass\n"
        "    i += 1\ntorch.set_printoptions(precision=10, threshold=1)\nprint(h)\ny = h.sum()",
    ),
    export_prog(
        "new_export_activations_nonfinite_args",
        "import torch\nx = torch.linspace(-2, 2, 5, requires_grad=True)\n"
        "y = (torch.nn.functional.elu(x, alpha=float('nan'))"
        " + torch.nn.functional.hardtanh(x, -float('inf'), float('inf'))"
        " + torch.nn.functional.softshrink(x, 0.5) + torch.nn.functional.mish(x)).sum()"
        " + torch.nn.functional.huber_loss(x, x * 0, delta=float('inf'))",
        codes=frozenset({0, 1}),
    ),
    export_prog(
        "new_export_scans_and_statistics",
        "import torch\nx = torch.ones(4, requires_grad=True)\n"
        "y = x.cumsum(0).sum() + x.cumprod(0).sum() + x.flip(0)[0] + x.roll(1)[0]"
        " + torch.diff(x).sum() + x.median() + x.quantile(0.3) + x.logcumsumexp(0).sum()",
    ),
    export_prog(
        "new_export_einsum_equation_injection",
        X2 + "y = torch.einsum('ij,jk->ik\\'\\nimport os#', x, x).sum()",
        codes=frozenset({0, 1}),
    ),
    export_prog(
        "new_export_pad_mode_injection",
        "import torch\nx = torch.ones(1, 1, 5, requires_grad=True)\n"
        "y = torch.nn.functional.pad(x, (2, 2), mode='reflect\\nimport os').sum()",
        codes=frozenset({0, 1}),
    ),
    export_prog(
        "new_export_conv_padding_injection",
        IMG + "y = torch.nn.functional.conv2d(x, torch.ones(1, 1, 3, 3),"
        ' padding="same\'\\nimport os\\n#").sum()',
        codes=frozenset({0, 1}),
    ),
)

# -- loss of the user's data --------------------------------------------------------------
add(
    overwrite(
        "output_onto_program_on_stdin",
        ["backward", "-", "-o", "../side/stdin"],
        stdin=BASE.encode(),
    ),
    overwrite(
        "export_onto_program_on_stdin",
        ["export", "-", "--output", "../side/stdin"],
        stdin=BASE.encode(),
    ),
    overwrite(
        "output_onto_program_symlink_chain",
        ["jacobian", "prog.py", "--of", "y", "-o", "l2"],
        files={"l1": ("symlink", "prog.py"), "l2": ("symlink", "l1")},
    ),
    overwrite(
        "output_onto_program_dotdot_through_symlink",
        ["backward", "d/../prog.py", "-o", "sub/prog.py"],
        files={
            "sub": ("dir",),
            "sub/inner": ("dir",),
            "sub/prog.py": BASE,
            "d": ("symlink", "sub/inner"),
        },
    ),
    overwrite(
        "output_onto_program_proc_cwd",
        ["jacobian", "prog.py", "--of", "y", "--compare", "-o", "/proc/self/cwd/prog.py"],
    ),
    overwrite(
        "hessian_program_hardlink_onto_original",
        ["hessian", "hard.py", "-o", "prog.py"],
        files={"hard.py": ("hardlink", "prog.py")},
    ),
    overwrite(
        "symbolic_onto_program_through_dir_symlinks",
        ["symbolic", "prog.py", "-o", "d/d/d/prog.py"],
        files={"d": ("symlink", ".")},
    ),
    overwrite(
        "export_jax_onto_program_symlink",
        ["export", "prog.py", "--to", "jax", "-o", "l.py"],
        files={"l.py": ("symlink", "prog.py")},
    ),
    overwrite(
        "forward_npy_onto_program_symlink",
        ["forward", "prog.py", "-f", "npy", "-o", "l.npy"],
        files={"l.npy": ("symlink", "prog.py")},
    ),
    overwrite(
        "check_onto_grad_file_hardlink",
        ["check", "prog.py", "--of", "y", "--no-sympy", "--set", "x=@s.json", "-o", "h.json"],
        files={"s.json": G3, "h.json": ("hardlink", "s.json")},
    ),
)

# -- NumPy through the back door: arrays with NumPy's dtypes --------------------------------
add(
    dtype_case(
        "np_array_int_past_int64",
        "a = np.array([10**30])",
        (r"[Oo]verflow", r"too large", r"out of range"),
    ),
    dtype_case(
        "np_array_uint64_range", "a = np.array([2**63])", (r"[Oo]verflow", r"too large", r"range")
    ),
    dtype_case("np_astype_object", "a = np.ones(3).astype(object)", DTYPE + REFUSED),
    dtype_case("np_astype_unicode_huge", "a = np.ones(300).astype('U1000000')", DTYPE + REFUSED),
    dtype_case("np_zeros_unicode_huge", "a = np.zeros(300, dtype='U1000000')", DTYPE + REFUSED),
    dtype_case("np_view_as_object", "a = np.ones(3).view('O')", DTYPE + REFUSED),
    dtype_case("np_view_as_int", "a = np.ones(3).view(np.int64)", DTYPE + REFUSED),
    dtype_case(
        "np_complex_dtype",
        "a = np.array([1.0], dtype=np.complex128)\nt = torch.from_numpy(a)",
        DTYPE + REFUSED,
        codes=frozenset({0, 1}),  # (complex NumPy arrays and tensors: fixnumpy41)
    ),
    dtype_case(
        "np_float16_dtype",
        "a = np.array([1.0], dtype=np.float16)\nt = torch.from_numpy(a)",
        DTYPE + REFUSED,
        codes=frozenset({0, 1}),
    ),
    dtype_case(
        "np_array_ragged", "a = np.array([[1], [1, 2]])", (r"rectangular", r"inhomogeneous")
    ),
    dtype_case(
        "np_array_of_huge_strings",
        "a = np.array(['x' * 10**6] * 100)",
        DTYPE + LIMIT + (r"infer",),
    ),
    # (NumPy reads tensors of one shape as PyTorch lets it: `t.numpy()` each; ragged ones
    # are NumPy's refusal)
    dtype_case(
        "np_array_of_tensors",
        "a = np.array([torch.ones(2), torch.ones(3)])",
        (r"inhomogeneous", r"one element", r"only", r"dtype"),
    ),
    dtype_case("np_int64_scalar_widths", "s = 'x' * np.int64(10**9)", DTYPE + REFUSED + LIMIT),
    # a NumPy integer or a one-element integer tensor repeats a sequence as Python's index:
    # the length is checked before the sequence is made
    dtype_case("np_int64_repeats_a_list", "s = [0] * np.int64(10**9)", LIMIT),
    dtype_case("np_int64_repeats_a_tuple", "s = np.int32(2**30) * (0, 1)", LIMIT),
    dtype_case("tensor_index_repeats_a_string", "s = 'ab' * torch.tensor(10**9)", LIMIT),
    dtype_case("bool_repeats_nothing_huge", "s = 'ab' * True * 10**9", LIMIT),
)

# -- budgets checked only between operations: one new operation that would take gigabytes ---
add(
    budget(
        "einsum_52_labels",
        "a = torch.ones([2] * 20)\nb = torch.ones([2] * 20)\n"
        "c = torch.einsum('abcdefghijklmnopqrst,ABCDEFGHIJKLMNOPQRST->"
        "abcdefghijklmnopqrstABCDEFGHIJKLMNOPQRST', a, b)",
    ),
    budget(
        "einsum_outer_then_sum",
        "a = torch.ones(3000, 3000)\nc = torch.einsum('ij,kl->', a, a)",
        codes=frozenset({0, 1}),
    ),
    budget("einsum_three_outer", "a = torch.ones(1000)\nc = torch.einsum('i,j,k->ijk', a, a, a)"),
    budget(
        "einsum_ellipsis_broadcast",
        "a = torch.ones(1000, 1, 1000)\nb = torch.ones(1, 1000, 1000)\n"
        "c = torch.einsum('...i,...j->...ij', a, b)",
    ),
    budget(
        "einsum_million_label_equation",
        "a = torch.ones(2)\nc = torch.einsum('i' * 10**6 + '->', a)",
    ),
    budget(
        "einsum_200_operands",
        "a = torch.ones(10**6)\nc = torch.einsum(','.join(['i'] * 200) + '->', *([a] * 200))",
        patterns=TIME_OR_LIMIT,
        codes=frozenset({0, 1}),
    ),
    budget("tensordot_outer", "a = torch.ones(5000)\nc = torch.tensordot(a, a, dims=0)"),
    budget("kron_huge", "a = torch.ones(5000)\nc = torch.kron(a, a)"),
    budget("cdist_huge", "a = torch.ones(5000, 3)\nc = torch.cdist(a, a)"),
    budget("svd_3000", "a = torch.ones(3000, 3000)\nc = torch.linalg.svd(a)"),
    budget(
        "matrix_power_2_62",
        "a = torch.eye(1500) * 0.5\nc = torch.linalg.matrix_power(a, 2**62)",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "matrix_power_int_2_62",
        "a = torch.eye(1500, dtype=torch.int64)\nc = torch.linalg.matrix_power(a, 2**62)",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "einsum_int_200_operands",
        "a = torch.ones(10**6, dtype=torch.int32)\n"
        "c = torch.einsum(','.join(['i'] * 200) + '->', *([a] * 200))",
        patterns=TIME_OR_LIMIT,
        codes=frozenset({0, 1}),
    ),
    budget(
        "einsum_int_outer_huge",
        "a = torch.ones(10**5, dtype=torch.int8)\nc = torch.einsum('i,j->ij', a, a)",
    ),
    budget(
        "matrix_power_negative_huge",
        "a = torch.eye(1500) * 0.5\nc = torch.linalg.matrix_power(a, -(2**62))",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "solve_expanded_batch",
        "a = torch.eye(100).expand(2000, 100, 100)\nc = torch.linalg.solve(a, a)",
    ),
    budget(
        "det_million_3x3",
        "a = torch.eye(3).expand(10**6, 3, 3)\nc = torch.det(a)",
        codes=frozenset({0, 1}),
    ),
    budget(
        "conv2d_padding_million",
        "x = torch.ones(1, 1, 1, 1)\n"
        "y = torch.nn.functional.conv2d(x, torch.ones(1, 1, 1, 1), padding=10**6)",
    ),
    budget(
        "conv2d_dilation_and_padding",
        "x = torch.ones(1, 1, 10, 10)\n"
        "y = torch.nn.functional.conv2d(x, torch.ones(1, 1, 3, 3), dilation=10**9, padding=10**9)",
    ),
    budget(
        "conv2d_huge_dilation",
        "x = torch.ones(1, 1, 10, 10)\n"
        "y = torch.nn.functional.conv2d(x, torch.ones(1, 1, 3, 3), dilation=10**9)",
        patterns=LIMIT + (r"Kernel size",),
    ),
    # the float32 gradients in PyTorch's order (depthwise, grouped, several samples of a 1x1
    # kernel, dilated): each a bounded pass, the run's account of mirrored work, the time limit
    budget(
        "conv2d_depthwise_grad_loop",
        "x = torch.ones(16, 256, 32, 32, requires_grad=True)\n"
        "w = torch.ones(256, 1, 3, 3, requires_grad=True)\n"
        "for i in range(10**4):\n"
        "    torch.nn.functional.conv2d(x, w, padding=1, groups=256).sum().backward()",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "conv2d_grouped_dilated_grads",
        "x = torch.ones(8, 512, 40, 40, requires_grad=True)\n"
        "w = torch.ones(512, 128, 3, 3, requires_grad=True)\n"
        "y = torch.nn.functional.conv2d(x, w, padding=1, groups=4)\n"
        "z = torch.nn.functional.conv2d(x[:, :16], w[:16, :16], padding=2, dilation=2)\n"
        "(y.sum() + z.sum()).backward()",
        patterns=TIME_OR_LIMIT,
        codes=frozenset({0, 1}),
    ),
    budget(
        "conv1d_pointwise_many_positions",
        "x = torch.ones(15, 64, 10**5, requires_grad=True)\n"
        "w = torch.ones(64, 64, 1, requires_grad=True)\n"
        "torch.nn.functional.conv1d(x, w).sum().backward()",
        patterns=TIME_OR_LIMIT,
        codes=frozenset({0, 1}),
    ),
    budget(
        "conv2d_kernel_work",
        "x = torch.ones(1, 1, 3000, 3000)\n"
        "y = torch.nn.functional.conv2d(x, torch.ones(1, 1, 300, 300))",
    ),
    budget(
        "unfold_dilation_and_padding",
        "x = torch.ones(1, 1, 10, 10)\n"
        "y = torch.nn.functional.unfold(x, kernel_size=3, dilation=10**9, padding=10**9)",
    ),
    budget(
        "unfold_windows",
        "x = torch.ones(1, 1, 1000, 1000)\ny = torch.nn.functional.unfold(x, kernel_size=500)",
    ),
    budget(
        "fold_huge_output",
        "x = torch.ones(1, 1, 1)\n"
        "y = torch.nn.functional.fold(x, output_size=(10**6, 10**6), kernel_size=1)",
        patterns=LIMIT + (r"sliding blocks",),
    ),
    budget(
        "max_pool_window_work",
        "x = torch.ones(1, 1, 3000, 3000)\ny = torch.nn.functional.max_pool2d(x, 1000, stride=1)",
    ),
    budget(
        "avg_pool_window_work",
        "x = torch.ones(1, 1, 3, 3)\n"
        "y = torch.nn.functional.avg_pool2d(x, 10**6, padding=5 * 10**5, stride=1)",
    ),
    budget("pad_billion", "y = torch.nn.functional.pad(torch.ones(3), (0, 10**9))"),
    budget(
        "pad_reflect_billion",
        "y = torch.nn.functional.pad(torch.ones(1, 3), (10**9, 0), mode='reflect')",
        patterns=LIMIT + (r"[Pp]adding size",),
    ),
    budget(
        "embedding_result",
        "i = torch.zeros(10**6, dtype=torch.int64)\n"
        "y = torch.nn.functional.embedding(i, torch.ones(3, 1000))",
    ),
    budget("repeat_interleave_billion", "y = torch.repeat_interleave(torch.ones(10), 10**9)"),
    budget("repeat_interleave_repeats", "y = torch.repeat_interleave(torch.tensor([10**12]))"),
    budget(
        "cosine_similarity_broadcast",
        "a = torch.ones(10**4, 1, 3)\nb = torch.ones(1, 10**4, 3)\n"
        "c = torch.nn.functional.cosine_similarity(a, b, dim=-1)",
    ),
    budget(
        "cross_broadcast",
        "a = torch.ones(10**4, 1, 3)\nb = torch.ones(1, 10**4, 3)\nc = torch.linalg.cross(a, b)",
    ),
    budget(
        "linspace_float64_repeated",
        "for i in range(20):\n    x = torch.linspace(0, 1, 10**7, dtype=torch.float64)",
        patterns=TIME_OR_LIMIT,
    ),
    budget("np_zeros_trillion", NP + "a = np.zeros(10**12)"),
    budget("np_ones_square_trillion", NP + "a = np.ones((10**6, 10**6))"),
    budget("np_eye_million", NP + "a = np.eye(10**6)"),
    budget("np_arange_tiny_step", NP + "a = np.arange(0, 1, 1e-12)"),
    budget("np_linspace_trillion", NP + "a = np.linspace(0, 1, 10**12)"),
    budget("np_array_shared_rows", NP + "r = [1.0] * 10**6\na = np.array([r] * 100)"),
    budget("np_exp_of_shared_rows", NP + "r = [1.0] * 10**6\na = np.exp([r] * 100)"),
    budget("np_dot_of_shared_rows", NP + "r = [1.0] * 10**6\na = np.dot([r] * 100, r)"),
    budget(
        "np_array_shared_nested",
        NP + SHARED_LIST + "b = np.array(a)",
        patterns=LIMIT + (r"nested",),
    ),
    budget("np_tolist_ten_million", NP + "l = np.zeros((10**7, 1)).tolist()"),
    budget(
        "np_dot_outer_broadcast", NP + "a = np.ones((10**4, 1))\nb = np.dot(a, np.ones((1, 10**4)))"
    ),
    budget("set_printoptions_inf_print", INF_PRINT + "print(x)"),
    budget("set_printoptions_inf_str", INF_PRINT + "s = str(x)"),
    budget("set_printoptions_inf_fstring", INF_PRINT + "s = f'{x}'"),
    budget("set_printoptions_inf_format", INF_PRINT + "s = '{}'.format(x)"),
    budget("set_printoptions_inf_percent", INF_PRINT + "s = '%s' % (x,)"),
    budget("set_printoptions_inf_repr_list", INF_PRINT + "s = repr([x])"),
    budget("set_printoptions_inf_raise", INF_PRINT + "raise RuntimeError(x)"),
    budget("set_printoptions_inf_assert", INF_PRINT + "assert False, x"),
    budget(
        "set_printoptions_inf_grad",
        "torch.set_printoptions(threshold=float('inf'))\n"
        "x = torch.ones(3000, 3000, requires_grad=True)\n(x * 2).sum().backward()\nprint(x.grad)",
    ),
    budget(
        "set_printoptions_precision_billion",
        "torch.set_printoptions(precision=10**9)\nprint(torch.ones(3) / 3)",
    ),
    budget(
        "set_printoptions_edgeitems_billion",
        "torch.set_printoptions(edgeitems=10**9)\nprint(torch.linspace(0, 1, 10**7))",
    ),
    budget(
        "set_printoptions_precision_float64_full",
        "torch.set_printoptions(threshold=float('inf'), precision=80)\n"
        "x = torch.linspace(0, 1, 10**7, dtype=torch.float64)\nprint(x)",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "set_printoptions_inf_deep_tensor",
        "torch.set_printoptions(threshold=float('inf'))\nx = torch.ones([2] * 21)\nprint(x)",
    ),
    budget(
        "set_printoptions_inf_linewidth_one",
        "torch.set_printoptions(threshold=float('inf'), linewidth=1)\nprint(torch.ones(2_400_000))",
    ),
    budget(
        "set_printoptions_inf_str_over_string_limit",
        "torch.set_printoptions(threshold=float('inf'))\ns = str(torch.ones([2] * 18))",
    ),
    budget(
        "set_printoptions_inf_fstring_list_of_tensors",
        "torch.set_printoptions(threshold=float('inf'))\nx = torch.ones(2 * 10**5)\n"
        "s = f'{[x] * 10}'",
    ),
    budget(
        "set_printoptions_inf_print_many",
        "torch.set_printoptions(threshold=float('inf'))\nx = torch.ones(10**6)\nprint(*[x] * 10)",
    ),
    budget("format_precision_over", "s = format(1e308, '.999999f')"),
    budget("format_grouping_over", "s = format(1e308, ',.999990f')"),
    budget("format_tensor_precision", "s = format(torch.tensor(1.0), '.1000000000f')"),
    budget("fstring_repr_width", "x = torch.ones(3)\ns = f'{x!r:>{10**9}}'"),
    budget("fstring_nested_width_precision", "s = f'{1.0:{10**9}.{10**9}}'"),
    budget("percent_precision_billion", "s = '%.1000000000f' % 1.0"),
    budget(
        "str_format_nested_fields",
        "s = '{:{w}.{p}f}'.format(1.0, w=10**9, p=10**9)",
        patterns=NOT_SUPPORTED_OR_LIMIT,
    ),
    budget("percent_star_precision", "s = '%.*f' % (10**9, 1.0)", patterns=NOT_SUPPORTED_OR_LIMIT),
    budget("sum_of_lists_quadratic", "s = sum([[0]] * 10**6, [])", patterns=TIME_OR_LIMIT),
    budget(
        "sum_of_lists_thousand",
        "s = sum([[0] * 1000] * 1000, [])",
        patterns=TIME_OR_LIMIT,
        codes=frozenset({0, 1}),
    ),
    budget(
        "sorted_key_lambda",
        "l = sorted(range(10**6), key=lambda v: -v)",
        patterns=TIME_OR_LIMIT,
        codes=frozenset({0, 1}),
    ),
    budget(
        "max_key_lambda",
        "l = max(range(10**6), key=lambda v: -v)",
        patterns=TIME_OR_LIMIT,
        codes=frozenset({0, 1}),
    ),
    budget(
        "map_lambda_list",
        "l = list(map(lambda v: v * 2, range(10**6)))",
        patterns=TIME_OR_LIMIT,
        codes=frozenset({0, 1}),
    ),
    budget("set_of_shared_tuple", SHARED_TUPLE + "s = {a}"),
    budget("dict_key_shared_tuple", SHARED_TUPLE + "d = {}\nd[a] = 1"),
    budget("dict_lookup_shared_tuple", SHARED_TUPLE + "d = {}\nv = d[a]"),
    budget("in_set_shared_tuple", SHARED_TUPLE + "v = a in {1, 2}"),
    budget("dict_get_shared_tuple", SHARED_TUPLE + "v = {}.get(a)"),
    budget("set_add_shared_tuple", SHARED_TUPLE + "s = set()\ns.add(a)"),
    budget("dict_literal_shared_tuple", SHARED_TUPLE + "d = {a: 1}"),
    budget(
        "str_of_shared_dicts", "a = {}\nfor i in range(60):\n    a = {'k': a, 'j': a}\ns = str(a)"
    ),
    budget(
        "compare_shared_tuples",
        SHARED_TUPLE + "b = ()\nfor i in range(60):\n    b = (b, b)\nv = a == b",
    ),
    budget(
        "list_insert_front",
        "l = []\nfor i in range(10**6):\n    l.insert(0, i)",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "dict_of_long_strings",
        "d = {}\nfor i in range(10**6):\n    d[i] = 'x' * 1000 + str(i)",
        patterns=TIME_OR_LIMIT + (r"memory",),
    ),
)

# -- modules, torch.func, optimizers: each call and each text budgeted -------------------------
SEQ_DAG = "m = torch.nn.Identity()\nfor i in range(60):\n    m = torch.nn.Sequential(m, m)\n"
CYCLE = "class M(torch.nn.Module):\n    pass\nm = M()\nm.sub = m\n"
add(
    budget("module_shared_dag_print", SEQ_DAG + "print(m)"),
    budget("module_shared_dag_str", SEQ_DAG + "s = str(m)"),
    budget("module_shared_dag_call", SEQ_DAG + "y = m(torch.ones(1))", patterns=TIME_OR_LIMIT),
    budget("module_in_itself_print", CYCLE + "print(m)", patterns=CONTAINS_ITSELF),
    budget("module_in_itself_fstring", CYCLE + "s = f'{m}'", patterns=CONTAINS_ITSELF),
    budget(
        "modulelist_in_itself_print",
        "l = torch.nn.ModuleList()\nl.append(l)\nprint(l)",
        patterns=CONTAINS_ITSELF,
    ),
    budget(
        "module_in_itself_traversals",
        CYCLE + "n = len(list(m.parameters())) + len(list(m.named_modules()))\n"
        "d = m.state_dict()\nm.train()\nm.zero_grad()\nm.double()\nm.apply(lambda q: None)",
        codes=frozenset({0, 1}),
        patterns=CONTAINS_ITSELF,
    ),
    budget(
        "module_shared_dag_traversals",
        SEQ_DAG + "n = len(list(m.parameters())) + len(list(m.modules()))\n"
        "d = m.state_dict()\nm.zero_grad()\nm.apply(lambda q: None)",
        codes=frozenset({0, 1}),
    ),
    budget(
        "sequential_million_call",
        "s = torch.nn.Sequential(*[torch.nn.Identity()] * 999999)\ny = s(torch.ones(1))",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "sequential_million_print",
        "s = torch.nn.Sequential(*[torch.nn.ReLU()] * 999999)\nprint(s)",
        patterns=TIME_OR_LIMIT,
    ),
    budget("linear_ten_billion_weights", "l = torch.nn.Linear(10**5, 10**5)"),
    budget("embedding_module_billion", "l = torch.nn.Embedding(10**9, 10)"),
    budget("conv_module_huge", "l = torch.nn.Conv2d(3, 10**6, 3)"),
    budget(
        "many_linear_layers",
        "m = torch.nn.Sequential(*[torch.nn.Linear(3000, 3000) for i in range(100)])",
        patterns=TIME_OR_LIMIT + (r"memory",),
    ),
    budget(
        "orthogonal_init_huge",
        "w = torch.empty(3000, 3000)\ntorch.nn.init.orthogonal_(w)",
        patterns=LIMIT + (r"time limit allows",),
    ),
    budget(
        "module_builds_itself",
        "class M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.m = M()\nm = M()",
        patterns=DEPTH,
    ),
    budget(
        "module_extra_repr_recursion",
        "class M(torch.nn.Module):\n    def extra_repr(self):\n        return str(self)\n"
        "print(M())",
        patterns=DEPTH,
    ),
    budget(
        "module_method_recursion",
        "class M(torch.nn.Module):\n    def f(self, n):\n        return self.f(n + 1)\n"
        "y = M().f(0)",
        patterns=DEPTH,
    ),
    budget(
        "jacrev_10k_outputs",
        "from torch.func import jacrev\nJ = jacrev(lambda v: v * 2)(torch.ones(10**4))",
    ),
    budget(
        # several outputs: every row a pass over all of them (their cotangents zeros)
        "jacrev_many_outputs_joint_rows",
        "from torch.func import jacrev\n"
        "J = jacrev(lambda v: tuple(v * k for k in range(200)))(torch.ones(3000))",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "jacrev_two_outputs_under_time",
        "from torch.func import jacrev\ntorch.manual_seed(0)\nW = torch.randn(2000, 2000) / 50\n"
        "J = jacrev(lambda v: (torch.tanh(W @ v), (W @ v).sin().cumsum(0)))(torch.ones(2000))",
        patterns=TIME_OR_LIMIT,
        codes=frozenset({0, 1}),  # batched rows may finish inside the time limit
    ),
    budget(
        "jacfwd_10k_outputs",
        "from torch.func import jacfwd\nJ = jacfwd(lambda v: v * 2)(torch.ones(10**4))",
    ),
    budget(
        "functional_jacobian_10k",
        "J = torch.autograd.functional.jacobian(lambda v: v * 2, torch.ones(10**4))",
    ),
    budget(
        "hessian_4k_inputs",
        "from torch.func import hessian\nH = hessian(lambda v: (v ** 3).sum())(torch.ones(4000))",
    ),
    budget(
        "jacrev_of_jacrev_of_jacrev",
        "from torch.func import jacrev\n"
        "J = jacrev(jacrev(jacrev(lambda v: (v ** 4).sum())))(torch.ones(300))",
    ),
    budget(
        "functional_hessian_5k",
        "H = torch.autograd.functional.hessian(lambda v: (v ** 3).sum(), torch.ones(5000))",
        patterns=TIME_OR_LIMIT,
        codes=frozenset({0, 1}),  # 25,000,000 entries: at the limit; the time limit decides
    ),
    budget(
        "jacrev_3k_under_time",
        "from torch.func import jacrev\ntorch.manual_seed(0)\nW = torch.randn(3000, 3000) / 50\n"
        "J = jacrev(lambda v: torch.tanh(W @ torch.tanh(W @ v)))(torch.ones(3000))",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "vmap_outer",
        "from torch.func import vmap\n"
        "y = vmap(lambda v: torch.outer(v, v))(torch.ones(1000, 1000))",
    ),
    budget(
        "vmap_of_vmap_expand",
        "from torch.func import vmap\n"
        "y = vmap(vmap(lambda v: v.expand(1000)))(torch.ones(3000, 3000))",
    ),
    budget(
        "vmap_chunk_size_one",
        "from torch.func import vmap\ny = vmap(lambda v: v * 2, chunk_size=1)(torch.ones(10**6))",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "vmap_python_loop",
        "from torch.func import vmap\ndef f(v):\n    s = v\n    for i in range(1000):\n"
        "        s = s + 1\n    return s\ny = vmap(f)(torch.ones(10**6))",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "vmap_einsum_outer",
        "from torch.func import vmap\n"
        "y = vmap(lambda a: torch.einsum('i,j->ij', a, a))(torch.ones(2000, 2000))",
    ),
    budget(
        "vmap_random_different",
        "from torch.func import vmap\n"
        "y = vmap(lambda a: torch.randn(10**4) * a, randomness='different')(torch.ones(10**4))",
    ),
    budget(
        "gradcheck_3000_inputs",
        "x = torch.ones(3000, dtype=torch.float64, requires_grad=True)\n"
        "W = torch.ones(3000, 3000, dtype=torch.float64) / 3000\n"
        "ok = torch.autograd.gradcheck(lambda v: torch.tanh(W @ v), (x,))",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "create_graph_chain_30",
        "x = torch.tensor(1.0, requires_grad=True)\ny = torch.exp(x) * torch.sin(x)\n"
        "for i in range(30):\n    y = torch.autograd.grad(y, x, create_graph=True)[0]",
        patterns=TIME_OR_LIMIT,
    ),
    # the fused backward kernels recorded under create_graph=True (sigmoid_backward, softmax's,
    # mse_loss's...): their own nodes, bounded as every op
    budget(
        "create_graph_chain_sigmoid_40",
        "x = torch.randn(1000, requires_grad=True)\ny = torch.sigmoid(torch.tanh(x)).sum()\n"
        "for i in range(40):\n    y = torch.autograd.grad(y, x, create_graph=True)[0].sum()",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "softmax_double_backward_huge",
        "x = torch.randn(6000, 6000, requires_grad=True)\n"
        "g = torch.autograd.grad(x.softmax(1)[0].sum(), x, create_graph=True)[0]\n"
        "h = torch.autograd.grad((g * g).sum(), x)[0]",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "mse_create_graph_batched_huge",
        "x = torch.randn(4000, 4000, requires_grad=True)\n"
        "loss = torch.nn.functional.mse_loss(x, torch.zeros(4000, 4000))\n"
        "g = torch.autograd.grad(loss, x, torch.ones(500), create_graph=True, "
        "is_grads_batched=True)[0]",
        patterns=TIME_OR_LIMIT,
    ),
    # layer_norm's kernel recorded under create_graph=True (NativeLayerNormBackwardBackward0),
    # differentiated again, and batched
    budget(
        "layer_norm_double_backward_huge",
        "x = torch.randn(3000, 3000, requires_grad=True)\n"
        "w = torch.ones(3000, requires_grad=True)\n"
        "y = torch.nn.functional.layer_norm(x, (3000,), w)\n"
        "g, gw = torch.autograd.grad(y[0].sum(), (x, w), create_graph=True)\n"
        "for i in range(20):\n    h = torch.autograd.grad((g * g).sum() + gw.sum(), x, "
        "retain_graph=True)[0]",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "layer_norm_create_graph_batched_huge",
        "x = torch.randn(2000, 2000, requires_grad=True)\n"
        "y = torch.nn.functional.layer_norm(x, (2000,))\n"
        "g = torch.autograd.grad(y, x, torch.ones(300, 2000, 2000), create_graph=True, "
        "is_grads_batched=True)[0]",
        patterns=TIME_OR_LIMIT,
    ),
    # vmap's batched products (each element's taken from the whole batch's): bounded work
    budget(
        "vmap_batched_products_huge",
        "from torch.func import vmap\nW = torch.randn(1000, 1000)\n"
        "y = vmap(lambda v: torch.tanh(v @ W) @ W)(torch.randn(5000, 1000))",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "sgd_million_parameter_list",
        "w = torch.ones(1, requires_grad=True)\nopt = torch.optim.SGD([w] * 10**6, lr=0.1)\n"
        "(w * 2).sum().backward()\nfor i in range(100):\n    opt.step()",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "zero_grad_million_parameter_list",
        "w = torch.ones(1, requires_grad=True)\nopt = torch.optim.SGD([w] * 10**6, lr=0.1)\n"
        "for i in range(100):\n    opt.zero_grad()",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "clip_grad_million_parameter_list",
        "w = torch.ones(1, requires_grad=True)\n(w * 2).sum().backward()\nfor i in range(100):\n"
        "    torch.nn.utils.clip_grad_norm_([w] * 10**6, 1.0)",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "optimizer_closure_recursion",
        "w = torch.ones(3, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "def closure():\n    return opt.step(closure)\nopt.step(closure)",
        patterns=DEPTH,
    ),
)

# -- exceptions: one clear message, never the program's text as gradcli's own -----------------
add(
    small(
        "raise_huge_message",
        "raise RuntimeError('x' * 999999)",
        (r"RuntimeError",),
        max_stderr=4000,
    ),
    small(
        "raise_message_fakes_an_error",
        "raise RuntimeError('ok\\nerror: fake second message')",
        (r"RuntimeError",),
        forbid=(r"(?m)^error: fake second message",),
    ),
    small(
        "raise_message_terminal_escapes",
        "raise RuntimeError('\\x1b[2J\\x1b]0;owned\\x07')",
        (r"RuntimeError",),
        forbid=("\x1b",),
    ),
    small(
        "raise_many_args",
        "raise ValueError(*range(10**5))",
        (r"ValueError",) + LIMIT,
        max_stderr=4000,
    ),
    small(
        "raise_list_argument",
        "raise ValueError(list(range(10**6)))",
        (r"ValueError",) + LIMIT,
        max_stderr=4000,
    ),
    small("str_of_exception_many_args", "e = ValueError(*range(10**6))\ns = str(e)", LIMIT),
    small("raise_shared_nested_argument", SHARED_LIST + "raise ValueError(a)", LIMIT),
    small("assert_shared_nested_message", SHARED_LIST + "assert False, a", LIMIT),
    small("keyerror_shared_tuple", SHARED_TUPLE + "d = {}\nv = d[a]", LIMIT),
    small(
        "except_does_not_catch_limit",
        "try:\n    x = torch.zeros(10**12)\nexcept Exception as e:\n    x = 1\nprint('after')",
        LIMIT,
    ),
    small(
        "except_base_around_work_loop",
        "while True:\n    try:\n        x = torch.ones(10**6).sum()\n    except BaseException:\n"
        "        pass",
        TIME_OR_LIMIT,
    ),
    small(
        "except_recursion_error_retries",
        "def f(n):\n    try:\n        return f(n + 1)\n    except RecursionError:\n"
        "        return f(n + 1)\nf(0)",
        DEPTH,
    ),
    small(
        "finally_loops_after_limit",
        "try:\n    x = [0] * 10**9\nfinally:\n    while True:\n        pass",
        TIME_OR_LIMIT,
    ),
)

# -- dunders through the new doors ------------------------------------------------------------
add(
    esc(
        "new_module_getattr_method",
        "class M(torch.nn.Module):\n    def __getattr__(self, n):\n"
        "        return open('pwned', 'w')\nm = M()\nx = m.foo",
    ),
    esc(
        "new_module_repr_method",
        "class M(torch.nn.Module):\n    def __repr__(self):\n"
        "        return open('pwned', 'w')\nprint(M())",
    ),
    esc(
        "new_module_class_attribute",
        "class M(torch.nn.Module):\n    k = open('pwned', 'w')\nm = M()",
    ),
    esc(
        "new_module_set_class",
        "class M(torch.nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.__class__ = int\nm = M()",
    ),
    esc(
        "new_module_private_fstring",
        "m = torch.nn.Linear(1, 1)\ns = f'{m._forward_hooks}'",
        codes=frozenset({0, 1}),
    ),
    esc("new_module_format_attribute", "m = torch.nn.Linear(1, 1)\ns = '{0.weight}'.format(m)"),
    esc("new_module_dict", "m = torch.nn.Linear(1, 1)\np = m.__dict__"),
    esc(
        "new_module_init_globals", "m = torch.nn.Linear(1, 1)\np = m.__class__.__init__.__globals__"
    ),
    esc(
        "new_module_forward_hook",
        "m = torch.nn.Linear(1, 1)\n"
        "h = m.register_forward_hook(lambda *a: open('pwned', 'w'))\ny = m(torch.ones(1))",
    ),
    esc(
        "new_exception_traceback_format",
        "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    s = '{0.__traceback__}'.format(e)",
    ),
    esc(
        "new_exception_traceback_fstring",
        "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    s = f'{e.__traceback__}'",
    ),
    esc(
        "new_exception_mro",
        "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    c = e.__class__.__mro__",
    ),
    esc("new_exception_class_subclasses", "t = RuntimeError.__subclasses__()"),
    # (a class's __index__ is used since feat24: the repetition stops at the string limit)
    esc(
        "new_class_plain",
        "class A:\n    def __index__(self):\n        return 10**9\ns = 'x' * A()",
        (r"over the limit",),
    ),
    # (a program's exception class, supported since: raised, it ends the run as Python's)
    esc("new_class_exception", "class E(Exception):\n    pass\nraise E('x')", (r"E: x",)),
    esc(
        "new_classmethod",
        "class M(torch.nn.Module):\n    @classmethod\n    def make(cls):\n"
        "        return cls.__subclasses__()\nm = M.make()",
    ),
    esc(
        "new_functional_call_dunder",
        "from torch.func import functional_call\n"
        "m = torch.nn.Linear(1, 1)\n"
        "y = functional_call(m, {'__class__': torch.ones(1)}, (torch.ones(1),))",
        REFUSED + (r"unexpected key", r"__class__", r"no parameter"),
        codes=frozenset({0, 1}),
    ),
    esc(
        "new_np_lib_stride_tricks",
        "import numpy as np\n"
        "a = np.lib.stride_tricks.as_strided(np.ones(1), shape=(10**9,), strides=(0,))",
    ),
    # (numpy.set_printoptions is supported since: the text of an unsummarized array is bounded)
    small(
        "new_np_set_printoptions",
        "import numpy as np\nnp.set_printoptions(threshold=10**9)\nprint(np.zeros(10**7))",
        LIMIT,
    ),
)

# -- the commands on programs that use the new operations, under the 3 s time limit -----------

EINSUM_SLOW = """\
import torch
torch.manual_seed(0)
x = torch.randn(1500, requires_grad=True)
W = torch.randn(1500, 1500) / 40
h = x
for i in range(20):
    h = torch.tanh(torch.einsum('ij,j->i', W, h))
y = h
s = (h * h).sum()
"""

CONV_SLOW = """\
import torch
torch.manual_seed(0)
x = torch.randn(1, 1, 60, 60, requires_grad=True)
w = torch.randn(4, 1, 5, 5) / 5
w2 = torch.randn(1, 4, 5, 5) / 5
h = x
for i in range(10):
    h = torch.nn.functional.conv2d(torch.nn.functional.conv2d(h, w, padding=2), w2, padding=2)
    h = torch.tanh(h)
y = h
s = (h * h).sum()
"""

VMAP_SLOW = """\
import torch
from torch.func import vmap
torch.manual_seed(0)
x = torch.randn(1500, requires_grad=True)
W = torch.randn(1500, 1500) / 40
h = x
for i in range(20):
    h = torch.tanh(vmap(lambda r: torch.dot(r, h))(W))
y = h
s = (h * h).sum()
"""

NN_SLOW = """\
import torch
torch.manual_seed(0)
m = torch.nn.Sequential(*[torch.nn.Linear(1000, 1000) for i in range(8)])
x = torch.randn(1000, requires_grad=True)
y = torch.tanh(m(x))
s = (y * y).sum()
"""

SCATTER_SLOW = """\
import torch
torch.manual_seed(0)
x = torch.randn(3000, requires_grad=True)
idx = torch.randint(0, 3000, (3000,))
h = x
for i in range(30):
    h = torch.tanh(torch.zeros(3000).scatter_add(0, idx, h) + h)
y = h
s = (h * h).sum()
"""

SYMBOLIC_CONV = """\
import torch
x = torch.ones(1, 1, 20, 20, requires_grad=True)
w = torch.ones(1, 1, 19, 19) / 7
y = torch.tanh(torch.nn.functional.conv2d(torch.tanh(x), w))
s = y.sum()
"""

SYMBOLIC_DET = """\
import torch
x = torch.ones(12, 12, requires_grad=True)
s = torch.det(x + torch.eye(12))
"""

SYMBOLIC_POOL = """\
import torch
x = torch.ones(1, 1, 20, 20, requires_grad=True)
h = torch.nn.functional.max_pool2d(torch.tanh(x), 3, stride=1)
h = torch.nn.functional.max_pool2d(h, 3, stride=1)
s = torch.nn.functional.max_pool2d(h, 3, stride=1).sum()
"""

LINALG_SLOW = """\
import torch
torch.manual_seed(0)
x = torch.randn(40, 40, requires_grad=True)
y = torch.linalg.inv(x @ x.T + torch.eye(40) * 40)
for i in range(5):
    y = torch.linalg.inv(y + torch.eye(40))
s = torch.logdet(y + torch.eye(40) * 40)
"""

NPY = ["-f", "npy", "-o", "out.npy"]
add(
    timed(
        "time_new_check_einsum",
        EINSUM_SLOW,
        ["check", "prog.py", "--of", "y", "--no-sympy"],
        codes=frozenset({1, 3}),
    ),
    timed(
        "time_new_check_einsum_sum",
        EINSUM_SLOW,
        ["check", "prog.py", "--of", "s"],
        codes=frozenset({1, 3}),
    ),
    timed(
        "time_new_jacobian_einsum_compare",
        EINSUM_SLOW,
        ["jacobian", "prog.py", "--of", "y", "--compare"],
    ),
    timed(
        "time_new_hessian_einsum",
        EINSUM_SLOW,
        ["hessian", "prog.py", "--of", "s", *NPY],
        outputs=("out.npy",),
    ),
    timed(
        "time_new_jacobian_conv_rows",
        CONV_SLOW,
        ["jacobian", "prog.py", "--of", "y", "-m", "rows", *NPY],
        outputs=("out.npy",),
    ),
    timed(
        "time_new_jacobian_conv_forward",
        CONV_SLOW,
        ["jacobian", "prog.py", "--of", "y", "-m", "forward", *NPY],
        outputs=("out.npy",),
    ),
    timed(
        "time_new_hessian_conv",
        CONV_SLOW,
        ["hessian", "prog.py", "--of", "s", *NPY],
        outputs=("out.npy",),
    ),
    timed(
        "time_new_check_conv",
        CONV_SLOW,
        ["check", "prog.py", "--of", "y", "--no-sympy"],
        codes=frozenset({1, 3}),
        patterns=TIME_OR_LIMIT,
    ),
    timed(
        "time_new_check_conv_sum",
        CONV_SLOW,
        ["check", "prog.py", "--of", "s"],
        codes=frozenset({1, 3}),
    ),
    timed(
        "time_new_jacobian_vmap",
        VMAP_SLOW,
        ["jacobian", "prog.py", "--of", "y", *NPY],
        outputs=("out.npy",),
        at=ANY,
    ),
    timed(
        "time_new_hessian_vmap",
        VMAP_SLOW,
        ["hessian", "prog.py", "--of", "s", *NPY],
        outputs=("out.npy",),
        at=ANY,
    ),
    timed(
        "time_new_check_vmap",
        VMAP_SLOW,
        ["check", "prog.py", "--of", "s"],
        codes=frozenset({1, 3}),
        at=ANY,
    ),
    timed("time_new_jacobian_nn", NN_SLOW, ["jacobian", "prog.py", "--of", "y", "--compare"]),
    timed(
        "time_new_hessian_nn",
        NN_SLOW,
        ["hessian", "prog.py", "--of", "s", "-m", "rows", *NPY],
        outputs=("out.npy",),
    ),
    timed("time_new_check_nn", NN_SLOW, ["check", "prog.py", "--of", "s"], codes=frozenset({1, 3})),
    timed(
        "time_new_jacobian_scatter_forward",
        SCATTER_SLOW,
        ["jacobian", "prog.py", "--of", "y", "-m", "forward", *NPY],
        outputs=("out.npy",),
    ),
    timed(
        "time_new_hessian_scatter",
        SCATTER_SLOW,
        ["hessian", "prog.py", "--of", "s", *NPY],
        outputs=("out.npy",),
    ),
    timed(
        "time_new_check_scatter",
        SCATTER_SLOW,
        ["check", "prog.py", "--of", "s"],
        codes=frozenset({1, 3}),
    ),
    timed(
        "time_new_symbolic_conv",
        SYMBOLIC_CONV,
        ["symbolic", "prog.py", "--of", "s", "--simplify"],
        patterns=TIME_OR_LIMIT,
    ),
    timed(
        "time_new_symbolic_det",
        SYMBOLIC_DET,
        ["symbolic", "prog.py", "--of", "s", "--at", "--latex"],
        patterns=TIME_OR_LIMIT,
        codes=frozenset({0, 1}),
    ),
    timed(
        "time_new_check_det",
        SYMBOLIC_DET,
        ["check", "prog.py", "--of", "s"],
        patterns=TIME_OR_LIMIT,
        codes=frozenset({0, 1, 3}),
    ),
    timed(
        "time_new_symbolic_pool",
        SYMBOLIC_POOL,
        ["symbolic", "prog.py", "--of", "s", "--simplify"],
        patterns=TIME_OR_LIMIT,
        codes=frozenset({0, 1}),
    ),
    timed(
        "time_new_check_linalg",
        LINALG_SLOW,
        ["check", "prog.py", "--of", "s"],
        patterns=TIME_OR_LIMIT,
        codes=frozenset({0, 1, 3}),
    ),
    timed(
        "time_new_hessian_linalg",
        LINALG_SLOW,
        ["hessian", "prog.py", "--of", "s", *NPY],
        outputs=("out.npy",),
        codes=frozenset({0, 1}),
    ),
)

CASES: list[Case] = cases

# ops2: RMSNorm
add(
    small(
        "h5_rms_norm_huge_shape",
        "import torch.nn as nn\nm = nn.RMSNorm([10**6, 10**6])",
        LIMIT + (r"out of memory",),
    ),
    small(
        "h5_rms_norm_huge_input",
        "import torch.nn.functional as F\nx = torch.ones(1).expand(10**5, 10**5)\n"
        "y = F.rms_norm(x, [10**5])",
        LIMIT + (r"out of memory",),
    ),
    small(
        "h5_rms_norm_shape_of_strings",
        "y = torch.rms_norm(torch.ones(2), ['__class__'])",
        (r"must be tuple of ints",),
    ),
    small(
        "h5_buffer_of_a_string",
        "import torch.nn as nn\nb = nn.Buffer('__class__')",
        (r"has no attribute 'detach'",),
    ),
    small(
        "h5_buffers_made_endlessly",
        "import torch.nn as nn\nx = torch.ones(1000)\nwhile True:\n    b = nn.Buffer(x)",
        TIME_OR_LIMIT,
    ),
    small("h5_diagflat_huge", "y = torch.diagflat(torch.ones(10**6))", LIMIT + (r"out of memory",)),
    small(
        "h5_hsplit_million_sections",
        "x = torch.ones(2, 10**7)\nfor i in range(100):\n    p = torch.hsplit(x, 10**7)",
        TIME_OR_LIMIT,
    ),
    small(
        "h5_sum_to_size_many_ones",
        "y = torch.ones(2, 3).sum_to_size(*([1] * 10**6))",
        (r"is not expandable",),
    ),
    small("h5_layout_dunder", "c = torch.strided.__class__.__subclasses__()", REFUSED),
    small("h5_layout_attribute", "c = torch.ones(1).layout.mro", REFUSED),
    small(
        "h5_storage_offset_loop",
        "x = torch.ones(10**6)\nwhile True:\n    n = x[5:].storage_offset()",
        TIME_OR_LIMIT,
    ),
    small(
        "h5_inplace_activation_on_expanded",
        "import torch.nn.functional as F\nx = torch.ones(1).expand(10, 10)\ny = F.leaky_relu_(x)",
        (r"refers to a single memory location",),
    ),
    small(
        "h5_inplace_module_on_expanded",
        "import torch.nn as nn\nx = torch.ones(1).expand(10, 10)\ny = nn.ReLU(inplace=True)(x)",
        (r"refers to a single memory location",),
    ),
    small(
        "h5_rrelu_inplace_endless",
        "import torch.nn.functional as F\nx = torch.ones(10**6) * -1\nwhile True:\n"
        "    F.rrelu_(x, training=True)",
        TIME_OR_LIMIT,
    ),
    small(
        "h5_bilinear_huge_weight",
        "import torch.nn.functional as F\nw = torch.ones(1).expand(10**4, 10**4, 10**4)\n"
        "y = F.bilinear(torch.ones(2, 10**4), torch.ones(2, 10**4), w)",
        LIMIT + (r"out of memory",),
    ),
    small(
        "h5_upsampling_huge",
        "import torch.nn as nn\nu = nn.UpsamplingNearest2d(scale_factor=10**6)\n"
        "y = u(torch.ones(1, 1, 2, 2))",
        LIMIT + (r"out of memory",),
    ),
    small(
        "h5_unravel_index_many_dims",
        "r = torch.unravel_index(torch.arange(10**6), [2] * 10**6)",
        TIME_OR_LIMIT,
    ),
    small("h5_asarray_huge_list", "a = torch.asarray([0.0] * 10**8)", LIMIT),
    small("h5_asarray_of_a_module", "a = torch.asarray(torch)", REFUSED + (r"Could not infer",)),
    small(
        "h5_cumulative_trapezoid_expanded",
        "y = torch.ones(1).expand(10**5, 10**5)\nc = torch.cumulative_trapezoid(y)",
        LIMIT + (r"out of memory",),
    ),
    small(
        "h5_index_put_accumulate_million",
        "x = torch.zeros(10)\ni = torch.zeros(10**7, dtype=torch.long)\n"
        "for k in range(1000):\n    x = x.index_put((i,), torch.tensor(1.0), accumulate=True)",
        TIME_OR_LIMIT,
    ),
    small(
        "h5_index_put_of_strings",
        "x = torch.zeros(3).index_put(('__class__',), torch.tensor(1.0))",
        (r"must be tuple of Tensors",),
    ),
    small(
        "h5_masked_scatter_expanded_mask",
        "m = torch.ones(1, dtype=torch.bool).expand(10**5, 10**5)\n"
        "y = torch.zeros(1).masked_scatter(m, torch.ones(10))",
        LIMIT + (r"out of memory", r"Number of elements of source"),
    ),
    small("h5_unfold_huge_windows", "w = torch.ones(10**6).unfold(0, 5 * 10**5, 1)", LIMIT),
    small(
        "h5_unfold_of_unfold_chain",
        "w = torch.ones(4)\nfor i in range(70):\n    w = w.unfold(-1, 2, 1)",
        LIMIT + (r"number of dimensions must be within",),
    ),
    small(
        "h5_unfold_write_with_grad",
        # overlapping windows (a step shorter than the window): elements share places
        "x = torch.ones(6, requires_grad=True) * 1\nv = x.unfold(0, 2, 1)\n"
        "v.mul_(torch.ones(5, 2, requires_grad=True))",
        (r"not support", r"in-place"),
    ),
)


# -- hostile3: the data, training and sequence constructs under the time limit ----------------

SAMPLER_HUGE = (
    "from torch.utils.data import RandomSampler\n"
    "s = RandomSampler(range(10), replacement=True, num_samples=10**12)\n"
)
add(
    small("h3_in_huge_sampler", SAMPLER_HUGE + "print(100 in s)", TIME_OR_LIMIT),
    small("h3_list_huge_sampler", SAMPLER_HUGE + "l = list(s)", TIME_OR_LIMIT),
    small("h3_sorted_huge_sampler", SAMPLER_HUGE + "l = sorted(s)", TIME_OR_LIMIT),
    small("h3_extend_huge_sampler", SAMPLER_HUGE + "l = []\nl.extend(s)", TIME_OR_LIMIT),
    small(
        "h3_concat_many_datasets",
        "from torch.utils.data import ConcatDataset\nc = ConcatDataset([range(10**12)] * 10**6)",
        TIME_OR_LIMIT,
    ),
    small(
        "h3_loader_endless_batch_sampler",
        "from torch.utils.data import DataLoader\n"
        "def g():\n    while True:\n        yield [0] * 10**6\n"
        "for b in DataLoader([torch.ones(10)], batch_sampler=g()):\n    pass",
        TIME_OR_LIMIT,
    ),
)

OPT_SGD = "x = torch.ones(2, requires_grad=True)\nopt = torch.optim.SGD([x], lr=0.1)\n"
SHARED_CHAIN = (
    OPT_SGD + "c = torch.optim.lr_scheduler.StepLR(opt, 1)\n"
    "for i in range(60):\n"
    "    c = torch.optim.lr_scheduler.ChainedScheduler([c, c])\n"
)
add(
    small("h3_chained_scheduler_shared_step", SHARED_CHAIN + "c.step()", TIME_OR_LIMIT),
    small("h3_chained_scheduler_shared_state", SHARED_CHAIN + "d = c.state_dict()", TIME_OR_LIMIT),
    small(
        "h3_sequential_lr_of_shared_chains",
        SHARED_CHAIN + "s = torch.optim.lr_scheduler.SequentialLR(opt, [c, c], milestones=[2])",
        TIME_OR_LIMIT,
    ),
    small(
        "h3_chained_scheduler_million",
        OPT_SGD + "a = torch.optim.lr_scheduler.StepLR(opt, 1)\n"
        "s = torch.optim.lr_scheduler.ChainedScheduler([a] * 10**6)\n"
        "for i in range(10):\n    s.step()",
        TIME_OR_LIMIT,
    ),
)

# feat11: stack_module_state, copy.deepcopy of a module, a program's dunder methods by name
ENSEMBLE = "import copy\nimport torch.nn as nn\nfrom torch.func import stack_module_state\n"
add(
    small(
        "h4_stack_module_state_many_modules",
        ENSEMBLE + "p, b = stack_module_state([nn.Linear(1, 1)] * 10**6)",
        TIME_OR_LIMIT,
    ),
    small(
        "h4_stack_module_state_huge_stack",
        ENSEMBLE + "p, b = stack_module_state([nn.Linear(1000, 1000)] * 10**4)",
        TIME_OR_LIMIT,
    ),
    small(
        "h4_stack_module_state_of_strings",
        ENSEMBLE + "p, b = stack_module_state(['__class__', '__init__'])",
        REFUSED + (r"no attribute 'training'",),
    ),
    small(
        "h4_deepcopy_module_chain",
        ENSEMBLE + "m = nn.Linear(1, 1)\nfor i in range(10**6):\n    m = copy.deepcopy(m)",
        TIME_OR_LIMIT,
    ),
    small(
        "h4_deepcopy_module_deep_nesting",
        ENSEMBLE + "m = nn.Sequential()\nfor i in range(5000):\n    m = nn.Sequential(m)\n"
        "c = copy.deepcopy(m)",
        TIME_OR_LIMIT + (r"nested",),
    ),
    small(
        "h4_deepcopy_module_wide",
        ENSEMBLE + "m = nn.ModuleList([nn.Linear(1, 1) for i in range(10**5)])\n"
        "cs = [copy.deepcopy(m) for i in range(100)]",
        TIME_OR_LIMIT,
    ),
    small(
        "h4_own_dunder_recursion",
        "class A:\n    def __getitem__(self, i):\n        return self.__getitem__(i)\n"
        "v = A().__getitem__(0)",
        LIMIT + (r"depth of function calls",),
    ),
    small(
        "h4_dunder_of_deepcopied_class",
        "import copy\nclass A:\n    pass\nc = copy.deepcopy(A).__class__.__subclasses__()",
        REFUSED,
    ),
)

# -- ranges as tensor data (explore16): bounded by the list-items limit, whatever the nesting --
add(
    small("e16_range_data_huge", "x = torch.tensor(range(10**12))", LIMIT),
    small("e16_range_data_nested_many", "x = torch.LongTensor([range(10**6)] * 1000)", LIMIT),
    small(
        "e16_range_data_nested_deep",
        "d = range(2)\nfor i in range(100):\n    d = [d]\nx = torch.tensor(d)",
        LIMIT + (r"nested too deeply",),
    ),
    small("e16_range_data_as_float_huge", "x = torch.Tensor(range(10**9))", LIMIT),
)

# -- what a Function's backward returns (explore16): checked before anything is converted ----
E16_FN = (
    "class F(torch.autograd.Function):\n"
    "    @staticmethod\n"
    "    def forward(ctx, x):\n"
    "        return x * 2\n"
    "    @staticmethod\n"
    "    def backward(ctx, g):\n"
    "        return {}\n"
    "x = torch.ones(3, requires_grad=True)\n"
    "F.apply(x).sum().backward()\n"
)
add(
    small(
        "e16_backward_returns_huge_list",
        E16_FN.format("[0.0] * 10**6"),
        (r"expected Variable or None \(got list\)",) + LIMIT,
    ),
    small(
        "e16_backward_returns_function",
        E16_FN.format("F.backward"),
        (r"expected Variable or None",),
    ),
    small(
        "e16_backward_returns_generator",
        E16_FN.format("(t for t in [g])"),
        (r"expected Variable or None \(got generator\)",),
    ),
    small(
        "e16_backward_returns_nested_tuples",
        E16_FN.format("((((g,),),),)"),
        (r"expected Variable or None \(got tuple\)",),
    ),
)

# -- what is differentiated (explore16): only Tensors; a long list of non-Tensors stops at once --
add(
    small(
        "e16_grad_of_many_nones",
        "x = torch.ones(1, requires_grad=True)\ng = torch.autograd.grad([None] * 10**6, x)",
        (r"Expected output to be a torch\.Tensor",) + LIMIT,
    ),
    small(
        "e16_grad_of_a_long_string",
        "x = torch.ones(1, requires_grad=True)\ng = torch.autograd.grad('a' * 10**7, x)",
        (r"Expected output to be a torch\.Tensor",) + LIMIT,
    ),
    small(
        "e16_backward_of_a_number",
        "torch.autograd.backward(2.0)",
        (r"'float' object is not iterable",),
    ),
)

# -- itertools (explore16): what Python's functions would store is counted first; endless
# iterators are consumed under the loop and list limits --------------------------------------
ITER = "import itertools\n"
add(
    small("e16_itertools_product_huge_pool", ITER + "p = itertools.product(range(10**9))", LIMIT),
    small(
        "e16_itertools_product_huge_repeat",
        ITER + "p = itertools.product([0, 1], repeat=10**8)",
        LIMIT,
    ),
    small(
        "e16_itertools_product_list_explodes",
        ITER + "p = list(itertools.product(range(1000), repeat=3))",
        LIMIT,
    ),
    small(
        "e16_itertools_count_endless_loop",
        ITER + "for i in itertools.count():\n    pass",
        TIME_OR_LIMIT,
    ),
    small("e16_itertools_count_list", ITER + "l = list(itertools.count())", TIME_OR_LIMIT),
    small("e16_itertools_repeat_list", ITER + "l = list(itertools.repeat(1))", TIME_OR_LIMIT),
    small(
        "e16_itertools_count_huge_ints",
        ITER + "for i in itertools.count(2**200, 2**250):\n    pass",
        TIME_OR_LIMIT + (r"integer",),
    ),
    small(
        "e16_itertools_permutations_wide",
        ITER + "p = next(itertools.permutations(range(10**7)))",
        LIMIT,
    ),
    small(
        "e16_itertools_combinations_list",
        ITER + "c = list(itertools.combinations(range(3000), 3))",
        LIMIT,
    ),
    small(
        "e16_itertools_chain_self_nested",
        ITER + "c = [1]\nfor i in range(10**5):\n    c = itertools.chain(c, c)\nl = list(c)",
        TIME_OR_LIMIT + (r"nested", r"depth"),
    ),
    small(
        "e16_itertools_accumulate_endless",
        ITER + "l = list(itertools.accumulate(itertools.count()))",
        TIME_OR_LIMIT,
    ),
    small(
        "e16_itertools_dunder_refused",
        ITER + "c = itertools.chain([1]).__class__.__bases__",
        REFUSED,
    ),
    small(
        "e16_itertools_unsupported_name",
        ITER + "g = itertools.groupby([1, 1, 2])",
        REFUSED,
    ),
    small(
        "e16_iterate_huge_tensor_rows",
        "t = torch.zeros(2_000_000, 1)\nfor r in t:\n    pass",
        TIME_OR_LIMIT,
    ),
)

# -- math.prod and functools.reduce (explore16): each step counted, integers bounded ----------
add(
    small("e16_math_prod_huge_int", "p = math.prod([2**200] * 10)", LIMIT + (r"integer",)),
    small(
        "e16_math_prod_endless",
        "import itertools\np = math.prod(itertools.count(1, 0))",
        TIME_OR_LIMIT,
    ),
    small(
        "e16_reduce_endless",
        "import functools, itertools\nr = functools.reduce(lambda a, b: a, itertools.count())",
        TIME_OR_LIMIT,
    ),
    small(
        "e16_reduce_growing_list",
        "from functools import reduce\nr = reduce(lambda a, b: a + a, range(100), [0])",
        LIMIT,
    ),
    small(
        "e16_reduce_recursion",
        "from functools import reduce\ndef f(a, b):\n    return reduce(f, [a, b])\n"
        "r = reduce(f, [1, 2])",
        LIMIT + (r"recursed", r"depth"),
    ),
)

# -- collections.defaultdict (explore16): its factory is a program call, counted as one ------
DD = "from collections import defaultdict\n"
add(
    small(
        "e16_defaultdict_factory_recursion",
        DD + "d = defaultdict(lambda: d['again'])\nv = d['x']",
        LIMIT + (r"recursed", r"depth"),
    ),
    small(
        "e16_defaultdict_endless_keys",
        DD + "d = defaultdict(list)\ni = 0\nwhile True:\n    d[i].append(i)\n    i += 1",
        TIME_OR_LIMIT + (r"memory",),
    ),
    small(
        "e16_defaultdict_deep_tree_printed",
        DD + "def tree():\n    return defaultdict(tree)\nt = tree()\nx = t\n"
        "for i in range(10**5):\n    x = x['a']\nprint(t)",
        TIME_OR_LIMIT + (r"nested", r"depth", r"recursed"),
    ),
    small(
        "e16_defaultdict_factory_is_a_number",
        DD + "d = defaultdict(3)",
        (r"first argument must be callable or None",),
    ),
    small(
        "e16_defaultdict_dunder_refused",
        DD + "d = defaultdict(list)\nc = d.__class__.__mro__",
        REFUSED,
    ),
    small(
        "e16_defaultdict_factory_dunder_refused",
        DD + "d = defaultdict(list)\nf = d.default_factory.__globals__",
        REFUSED,
    ),
)

# nn.LazyLinear: its parameters are drawn at its first call, from the input's last size.
add(
    budget(
        "lazy_linear_huge_input_width",
        "m = torch.nn.LazyLinear(10**5)\ny = m(torch.zeros(1, 10**5))",
    ),
    budget(
        "lazy_linear_huge_out_features",
        "m = torch.nn.LazyLinear(10**12)\ny = m(torch.zeros(2, 3))",
    ),
    small(
        "lazy_linear_negative_out_features",
        "m = torch.nn.LazyLinear(-3)\ny = m(torch.ones(2, 2))",  # (made as PyTorch: fails on use)
        (r"negative dimension",),
    ),
    small(
        "lazy_linear_scalar_input",
        "m = torch.nn.LazyLinear(3)\ny = m(torch.tensor(1.0))",
        (r"tuple index out of range", r"dimension"),
    ),
    esc(
        "lazy_linear_parameter_dunder",
        "m = torch.nn.LazyLinear(3)\nc = m.weight.__class__.__bases__",
    ),
    small(
        "lazy_linear_called_in_a_loop_of_widths",
        "m = torch.nn.LazyLinear(3)\nfor i in range(1, 10**6):\n    y = m(torch.zeros(1, i))",
        (r"size mismatch", r"shapes cannot be multiplied", r"mat1 and mat2", r"the time limit"),
    ),
)

# NumPy dtypes by name (np.array(rows, dtype='float32')): only the dtypes tensors have.
add(
    small("np_dtype_name_object", "import numpy as np\na = np.array([1], dtype='O')", REFUSED),
    small(
        "np_dtype_name_huge_unicode",
        "import numpy as np\na = np.zeros(300, dtype='U1000000')",
        REFUSED,
    ),
    small(
        "np_dtype_name_subarray",
        "import numpy as np\na = np.ones(3000, dtype='(100000,)f8')",
        REFUSED,
    ),
    small(
        "np_dtype_name_long_text",
        "import numpy as np\na = np.array([1], dtype='f' * 10**6)",
        (r"not understood",) + LIMIT,
    ),
    small(
        "np_astype_name_object",
        "import numpy as np\na = np.array([1.0]).astype('object')",
        REFUSED,
    ),
)

# A tensor's `_base` (the lead, session 19): a tensor or None, nothing of Python's beneath.
add(
    esc("tensor_base_dunder_chain", "x = torch.ones(4)\nc = x[1:]._base.__class__.__mro__"),
    esc(
        "tensor_base_assigned",
        "x = torch.ones(4)\nv = x[1:]\nv._base = torch.zeros(4)",
        (r"not writable",),
    ),
    esc("tensor_base_storage", "x = torch.ones(4)\ns = x[1:]._base.untyped_storage()._cdata"),
)

# Third-party and display modules imported inert (the lead, session 19): every use refused.
add(
    esc("inert_pandas_frame", "import pandas as pd\ndf = pd.read_csv('/etc/passwd')"),
    esc("inert_pil_open", "from PIL import Image\nim = Image.open('/etc/passwd')"),
    esc("inert_pathlib_read", "import pathlib\nt = pathlib.Path('/etc/passwd').read_text()"),
    esc("inert_tempfile", "import tempfile\nd = tempfile.mkdtemp()"),
    esc("inert_inspect_stack", "import inspect\ns = inspect.stack()"),
    esc("inert_types_code", "import types\nc = types.CodeType"),
    esc(
        "inert_torchvision_dataset",
        "from torchvision import datasets\nd = datasets.MNIST('.', download=True)",
    ),
    esc("inert_glob", "import glob\nfs = glob.glob('/*')"),
    esc("inert_module_dunder", "import scipy\nd = scipy.__dict__"),
    esc("inert_module_called", "import tkinter\nw = tkinter()"),
    esc("inert_submodule_attr_chain", "import torchvision.models as m\nx = m.resnet18().__class__"),
)

# os.environ is the program's own empty dict (the lead, session 19): nothing of the process's.
add(
    small("environ_reads_nothing_real", "import os\nh = os.environ['PATH']", (r"KeyError",)),
    esc("environ_is_no_module", "import os\nf = os.environ.__class__.__subclasses__()"),
    small(
        "environ_grows_under_limits",
        "import os\nfor i in range(10**8):\n    os.environ[str(i)] = 'x' * 1000",
        LIMIT,
    ),
)

# grad_fn.metadata is a dict of the program's (the lead, session 28).
add(
    esc(
        "node_metadata_class",
        "x = torch.ones(1, requires_grad=True)\nm = (x * 2).grad_fn.metadata\n"
        "c = m.__class__.__subclasses__()",
    ),
    small(
        "node_metadata_grows_under_limits",
        "x = torch.ones(1, requires_grad=True)\nm = (x * 2).grad_fn.metadata\n"
        "for i in range(10**8):\n    m[i] = 'x' * 1000",
        LIMIT,
    ),
)

# sys.path is the program's own list (the lead, session 28): no import reads it.
add(
    esc(
        "sys_path_then_import",
        "import sys\nsys.path.insert(0, '/tmp')\nsys.path.append('..')\nimport evil_module\n"
        "evil_module.run()",
    ),
    esc("sys_path_is_no_module", "import sys\nf = sys.path.__class__.__subclasses__()"),
    esc("sys_path_replaced", "import sys\nsys.path = ['/tmp']", (r"not supported",)),
    small(
        "sys_path_grows_under_limits",
        "import sys\nfor i in range(10**8):\n    sys.path.append('x' * 1000 + str(i))",
        LIMIT,
    ),
)

# dir(x) / vars(x) alone on a line (a notebook's display): only the arguments run (the lead).
add(
    esc("display_dir_of_import", "dir(__import__('os'))"),
    esc("display_vars_then_used", "vars(torch)\nv = vars(torch)"),
    esc("display_dir_star_args", "dir(*[torch.__dict__])"),
)

# A program's coding line (PEP 263) picks its codec from a fixed list: a name of the program's
# never reaches an import of Python's encodings modules, and bytes the codec refuses are refused.
add(
    prog_case(
        "coding_line_path_like_name",
        ESCAPE,
        b"# -*- coding: ../../os -*-\nimport torch\nprint(1)\n",
        (r"declares the encoding '\.\.', which gradcli does not read",),
        at=None,
    ),
    prog_case(
        "coding_line_dunder_name",
        ESCAPE,
        b"# coding: __builtins__\nimport torch\n",
        (r"declares the encoding '__builtins__'",),
        at=None,
    ),
    prog_case(
        "coding_line_bytes_not_the_declared_codec",
        ESCAPE,
        b"# coding: ascii\nprint('\xc3\xa9')\n",
        (r"syntax error: encoding problem: ascii",),
        at=None,
    ),
    prog_case(
        "coding_line_gbk_runs",
        SMALL,
        "# coding: gbk\nprint('梯度')\n".encode("gbk"),
        (),
        codes=frozenset({0}),
        at=None,
    ),
)

# torch.nn.utils.parametrize (feat13): a parametrization that reads the tensor it computes, a
# chain that grows without end, the context manager's and the functions' insides.
PZ = "import torch.nn as nn\nimport torch.nn.utils.parametrize as P\nm = nn.Linear(2, 2)\n"
add(
    small(
        "parametrize_reads_itself",
        PZ + "class L(nn.Module):\n    def forward(self, X):\n        return m.weight + X\n"
        "P.register_parametrization(m, 'weight', L(), unsafe=True)\ny = m.weight",
        LIMIT,
    ),
    small(
        "parametrize_reads_itself_cached",
        PZ + "class L(nn.Module):\n    def forward(self, X):\n        return m.weight + X\n"
        "P.register_parametrization(m, 'weight', L(), unsafe=True)\n"
        "with P.cached():\n    y = m.weight",
        LIMIT,
    ),
    small(
        "parametrize_chain_without_end",
        PZ + "for i in range(10**6):\n    P.register_parametrization(m, 'weight', nn.Identity())",
        LIMIT,
        env={"GRADCLI_TIME_SECONDS": "3"},
        seconds=8.0,
    ),
    small(
        "parametrize_of_itself",
        PZ + "P.register_parametrization(m, 'weight', m)\nprint(m)",
        (r"contains itself", *LIMIT),
    ),
    esc("parametrize_cached_enter", PZ + "e = P.cached().__enter__"),
    esc("parametrize_function_globals", PZ + "g = P.register_parametrization.__globals__"),
    esc(
        "parametrize_dunder_name",
        PZ + "P.register_parametrization(m, '__class__', nn.Identity())",
        (r"does not have a parameter",),
    ),
    esc(
        "parametrize_list_insides",
        PZ + "P.register_parametrization(m, 'weight', nn.Identity())\n"
        "c = m.parametrizations.weight.__class__.__mro__",
    ),
)

# `del` of attributes (feat13): PyTorch's Module.__delattr__; no dunder, no insides.
add(
    esc("del_module_class", "m = torch.nn.Linear(2, 2)\ndel m.__class__", (r"not supported",)),
    esc("delattr_module_dict", "m = torch.nn.Linear(2, 2)\ndelattr(m, '__dict__')"),
    esc(
        "delattr_module_insides",
        "m = torch.nn.Linear(2, 2)\ndelattr(m, '_parameters')\nprint(m)",
        (r"not supported",),
    ),
    esc(
        "delattr_module_stored_name",
        "m = torch.nn.Linear(2, 2)\nm.foo = 1\ndelattr(m, '_attr_foo')",
        (r"not supported",),
    ),
    esc("del_namespace_function", "del torch.sin", (r"not supported",)),
    esc("del_tensor_data", "x = torch.ones(2)\ndel x.data", (r"not supported",)),
    small(
        "del_builtin_submodule",
        "m = torch.nn.MultiheadAttention(4, 2)\ndel m.out_proj\ny = m",
        (r"not supported",),
    ),
    small(
        "del_weight_then_call",
        "m = torch.nn.Linear(2, 2)\ndel m.weight\ny = m(torch.ones(2))",
        (r"has no attribute 'weight'",),
    ),
    small(
        "del_many_attributes_in_a_loop",
        "m = torch.nn.Linear(2, 2)\nfor i in range(10**8):\n"
        "    setattr(m, 'a' + str(i), i)\n    delattr(m, 'a' + str(i))",
        LIMIT,
        env={"GRADCLI_TIME_SECONDS": "3"},
        seconds=8.0,
    ),
)

# collections.deque / namedtuple / NamedTuple and @dataclass (feat13): growth under the limits,
# self-nesting, recursion through generated methods, no way into Python's classes.
DQ = "from collections import deque, namedtuple\n"
DC = "from dataclasses import dataclass, field\nimport dataclasses\n"
add(
    small("deque_doubles", DQ + "q = deque([1])\nfor i in range(40):\n    q.extend(q)", LIMIT),
    small("deque_holds_itself", DQ + "q = deque()\nq.append(q)\nprint(q)", (r"nested over",)),
    small(
        "deque_shared_nesting",
        DQ + "q = deque([1])\nfor i in range(40):\n    q = deque([q, q])\nprint(q)",
        LIMIT,
    ),
    small("deque_from_huge_range", DQ + "q = deque(range(10**12))", LIMIT),
    small(
        "deque_rotate_huge",
        DQ + "q = deque([1, 2])\nq.rotate(10**18)\nprint(q)",
        (),
        codes=frozenset({0}),
    ),
    small(
        "deque_mutated_in_loop",
        DQ + "q = deque([1])\nfor v in q:\n    q.append(v)",
        (r"deque mutated during iteration",),
    ),
    small(
        "dict_changed_in_loop",
        "d = {1: 1}\nfor k in d:\n    d[k + 1] = 1",
        (r"dictionary changed size during iteration",),
    ),
    esc("deque_insides", DQ + "q = deque()\nc = q.__class__.__subclasses__()"),
    esc("namedtuple_dunder_field", DQ + "P = namedtuple('P', ['__class__'])", (r"underscore",)),
    esc("namedtuple_insides", DQ + "P = namedtuple('P', 'x')\nc = P(1).__class__.__mro__"),
    esc("namedtuple_class_globals", DQ + "P = namedtuple('P', 'x')\ng = P.__new__.__globals__"),
    small(
        "namedtuple_huge_fields",
        DQ + "P = namedtuple('P', ['f' + str(i) for i in range(10**7)])",
        LIMIT,
    ),
    small(
        "dataclass_factory_recursion",
        DC + "@dataclass\nclass C:\n    x: list = field(default_factory=lambda: C())\nc = C()",
        LIMIT,
    ),
    small(
        "dataclass_post_init_recursion",
        DC + "@dataclass\nclass C:\n    x: int = 0\n"
        "    def __post_init__(self):\n        C()\nc = C()",
        LIMIT,
    ),
    esc("dataclass_module_dict", DC + "d = dataclasses.__dict__"),
    # (a plain instance's __dict__ is its attribute table, as vars(): a right outcome)
    esc(
        "dataclass_instance_dict",
        DC + "@dataclass\nclass C:\n    x: int = 0\nd = C().__dict__",
        codes=frozenset({0}),
    ),
    esc(
        "dataclass_slots_attribute",
        DC + "@dataclass\nclass C:\n    __slots__: tuple = ()",
        (r"not supported",),
    ),
    esc("dataclass_other_decorator", DC + "@print\nclass C:\n    x: int = 0", (r"not supported",)),
    esc("dataclass_field_insides", DC + "f = field(default=1)\nc = f.__class__.__mro__"),
    small(
        "dataclass_asdict_self_nesting",
        DC + "@dataclass\nclass C:\n    x: list\nl = []\nl.append(l)\nd = dataclasses.asdict(C(l))",
        (r"recursed too deeply", *LIMIT),
    ),
)

# __module__ / __qualname__ of functions and classes (feat13): strings, read only.
add(
    esc("module_name_assigned", "torch.sin.__module__ = 'os'"),
    esc("qualname_walked", "m = torch.sin.__qualname__.__class__.__mro__"),
    esc("module_name_setattr", "setattr(torch.sin, '__module__', 'os')"),
    esc("module_name_getattr", "g = getattr(torch.sin, '__module__')"),
)

# A lazy module's parameter before its first call (feat13): refused uses, under the limits.
add(
    small(
        "uninitialized_refusals_in_a_loop",
        "m = torch.nn.LazyLinear(2)\nfor i in range(10**8):\n    try:\n"
        "        m.weight.sum()\n    except ValueError:\n        pass",
        LIMIT,
    ),
    esc("uninitialized_insides", "w = torch.nn.LazyLinear(2).weight\nc = w.__class__.__mro__"),
    small(
        "uninitialized_uncaught",
        "w = torch.nn.LazyLinear(2).weight\ny = w * 2",
        (r"uninitialized parameter",),
    ),
)

# parametrizations.weight_norm (feat13)
WN = "from torch.nn.utils.parametrizations import weight_norm\nm = torch.nn.Linear(2, 2)\n"
add(
    small("weight_norm_dim_out_of_range", WN + "weight_norm(m, dim=10**18)", (r"out of range",)),
    small("weight_norm_dunder_name", WN + "weight_norm(m, name='__class__')", (r"does not have",)),
    small(
        "weight_norm_again_and_again",
        WN + "for i in range(10**6):\n    weight_norm(m)\ny = m.weight",
        (r"forward\(\)", *LIMIT),
        env={"GRADCLI_TIME_SECONDS": "3"},
        seconds=8.0,
    ),
)

# Module methods read by name (feat14): get_submodule / get_parameter / get_buffer walk only
# the names a program may read of a module; private names beyond the audited few stay out of
# reach; a reset in a loop stays under the time limit.
add(
    esc(
        "module_get_submodule_dunder", "m = torch.nn.Linear(2, 2)\ns = m.get_submodule('__class__')"
    ),
    esc(
        "module_get_parameter_private_walk",
        "m = torch.nn.Sequential(torch.nn.ReLU())\np = m.get_parameter('0.fn.__globals__')",
    ),
    esc("module_get_buffer_dict", "m = torch.nn.BatchNorm1d(2)\nb = m.get_buffer('__dict__')"),
    esc("module_private_apply", "m = torch.nn.Linear(2, 2)\nm._apply(print)"),
    esc("module_private_settings", "r = torch.nn.ReLU()\ns = r._given"),
    esc("module_function_of_activation", "r = torch.nn.ReLU()\nf = r.fn"),
    esc("module_settings_table", "r = torch.nn.ReLU()\nf = r.settings"),
    esc("module_type_to_a_function", "m = torch.nn.Linear(2, 2)\nm.type(print)"),
    esc(
        "module_reset_replaced_by_program",
        "m = torch.nn.Linear(2, 2)\nm.reset_parameters = print\nm.reset_parameters('x')",
    ),
    small(
        "module_reset_in_a_long_loop",
        "m = torch.nn.Linear(64, 64)\nfor i in range(10**9):\n    m.reset_parameters()",
        LIMIT,
    ),
    small(
        "module_get_submodule_long_path",
        "m = torch.nn.Sequential()\nm.add_module('a', m)\n"
        "s = m.get_submodule('.'.join(['a'] * 10**7))",
        LIMIT + (r"contains itself", r"has no attribute", r"string"),
        codes=frozenset({0, 1}),
    ),
)
add(
    esc(
        "module_set_submodule_over_a_method",
        "m = torch.nn.Sequential(torch.nn.ReLU())\nm.set_submodule('forward', torch.nn.Tanh())",
        (r"is not an nn\.Module",),  # PyTorch's words: forward is a method
    ),
    esc(
        "module_set_submodule_dunder_then_read",
        "m = torch.nn.Sequential(torch.nn.ReLU())\nm.set_submodule('__class__', torch.nn.Tanh())\n"
        "c = m.__class__.__subclasses__()",
    ),
    esc(
        "module_parameterdict_get_dunder",
        "d = torch.nn.ParameterDict()\ng = d.get('__class__', 1).__subclasses__()",
    ),
)
add(
    # as_strided reads memory by the program's own steps: every place must be an element of
    # the tensor, the result under the element limit, the numbers plain ints
    small(
        "as_strided_past_the_storage",
        "x = torch.arange(6.)\ny = x.as_strided((4, 4), (3, 3))",
        (r"out of bounds for storage of size 24",),
    ),
    small(
        "as_strided_huge_stride_of_one_place",
        "x = torch.arange(6.)\ny = x.as_strided((1, 2), (2**70, 1))",
        (r"too large to convert",),
    ),
    small(
        "as_strided_huge_offset",
        "x = torch.arange(6.)\ny = x.as_strided((2,), (1,), 2**80)",
        (r"out of bounds",),
    ),
    small(
        "as_strided_zero_strides_past_the_limit",
        "x = torch.arange(6.)\ny = x.as_strided((10**6, 10**6), (0, 0))",
        LIMIT,
    ),
    small(
        "as_strided_outside_a_views_elements",
        "x = torch.arange(12.)\nv = x[2:4]\ny = v.as_strided((6,), (1,), 0)",
        (r"not elements of the tensor itself",),
    ),
    small(
        "as_strided_negative_stride",
        "x = torch.arange(6.)\ny = x.as_strided((3,), (-1,), 5)",
        (r"Negative strides",),
    ),
    small(
        "fill_diagonal_wrap_on_a_large_matrix_in_a_loop",
        "m = torch.zeros(3000, 3)\nfor i in range(10**9):\n    m.fill_diagonal_(i, wrap=True)",
        LIMIT,
    ),
)
add(
    # modules a script may import and never use: inert, every use refused at its place
    esc("unused_pdb_set_trace", "import pdb\npdb.set_trace()"),
    esc("unused_einops_dunder", "import einops\nd = einops.__dict__"),
    esc("unused_unittest_mock_patch", "from unittest import mock\nmock.patch('os.system')"),
    esc("unused_hashlib_loader", "import hashlib as h\nl = h.__loader__.load_module('os')"),
    esc("unused_module_call_itself", "import yaml\nyaml('x')"),
    esc("unused_module_as_base_class", "import pdb\nclass T(pdb.Pdb):\n    pass"),
)
add(
    esc("typed_storage_internals", "x = torch.ones(4)\ns = x.storage()._cdata"),
    esc("typed_storage_class", "x = torch.ones(4)\nc = x.storage().__class__.__subclasses__()"),
    esc("typed_storage_root_reach", "x = torch.ones(4)\nr = x.storage().root"),
    small(
        "typed_storage_printed_endlessly",
        "x = torch.zeros(10**6)\nwhile True:\n    s = str(x.storage())",
        LIMIT,
    ),
)
add(
    esc(
        "legacy_weight_norm_dunder_name",
        "m = torch.nn.Linear(2, 2)\ntorch.nn.utils.weight_norm(m, name='__class__')",
        (r"has no attribute",),
    ),
    esc(
        "legacy_weight_norm_hook_reached",
        "m = torch.nn.utils.weight_norm(torch.nn.Linear(2, 2))\n"
        "h = m._forward_pre_hooks\nf = list(h.values())[0].__call__.__globals__",
    ),
    small(
        "legacy_weight_norm_applied_endlessly",
        "m = torch.nn.Linear(64, 64)\nfor i in range(10**9):\n"
        "    torch.nn.utils.weight_norm(m, name='weight')\n"
        "    torch.nn.utils.remove_weight_norm(m)",
        LIMIT,
    ),
)
add(
    small(
        "spectral_norm_many_power_iterations",
        "m = torch.nn.utils.spectral_norm(torch.nn.Linear(64, 64), n_power_iterations=10**9)\n"
        "y = m(torch.ones(1, 64))",
        LIMIT,
    ),
    esc(
        "spectral_norm_private_buffer_dunder",
        "m = torch.nn.utils.parametrizations.spectral_norm(torch.nn.Linear(2, 2))\n"
        "p = m.parametrizations.weight[0]\nc = p.__class__.__subclasses__()",
    ),
    esc(
        "module_private_name_not_registered",
        "m = torch.nn.Linear(2, 2)\nc = m._apply.__globals__",
    ),
)
# nn.Unfold / nn.Fold, the 3-d paddings, InstanceNorm3d and the lazy instance norms (ops4):
# sizes checked before any work, attributes are settings (no function or table reachable).
add(
    small(
        "unfold_module_huge_columns",
        "x = torch.ones(1, 64, 400, 400)\ny = torch.nn.Unfold(kernel_size=50)(x)",
        LIMIT,
    ),
    small(
        "fold_module_huge_canvas",
        "c = torch.ones(1, 4, 1)\ny = torch.nn.Fold(output_size=10**6, kernel_size=10**6 - 1)(c)",
        LIMIT + (r"sliding blocks", r"divisible"),
    ),
    small("zero_pad3d_huge", "y = torch.nn.ZeroPad3d(10**4)(torch.ones(1, 1, 1, 1))", LIMIT),
    small(
        "circular_pad3d_huge",
        "y = torch.nn.CircularPad3d((1, 1, 1, 1, 10**9, 10**9))(torch.ones(1, 1, 2, 2, 2))",
        LIMIT + (r"wrapping around",),
    ),
    small(
        "lazy_instance_norm_huge_channels",
        "m = torch.nn.LazyInstanceNorm1d()\ny = m(torch.ones(1, 10**9, 0).expand(1, 10**9, 2))",
        LIMIT + (r"expand", r"size", r"elements"),
        codes=frozenset({1}),
    ),
    esc("unfold_module_function", "u = torch.nn.Unfold(2)\nf = u.fn"),
    esc("pad3d_module_dunder", "p = torch.nn.ZeroPad3d(1)\nd = p.__dict__"),
)
add(
    small(
        "data_parallel_nested_deeply",
        "m = torch.nn.Linear(2, 2)\nfor i in range(10**6):\n    m = torch.nn.DataParallel(m)\n"
        "y = m(torch.ones(2))",
        LIMIT + (r"call depth", r"recursion"),
    ),
    small(
        "data_parallel_of_itself",
        "m = torch.nn.DataParallel(torch.nn.Identity())\nm.module = m\nprint(m)",
        LIMIT + (r"contains itself",),
    ),
    esc(
        "data_parallel_forward_of_a_function",
        "m = torch.nn.DataParallel(print)",
        (r"is not a Module subclass",),
    ),
)
add(
    small(
        "lazy_conv_transpose_huge_in_channels",
        "m = torch.nn.LazyConvTranspose2d(10**5, 50)\ny = m(torch.ones(1, 10**4, 1, 1))",
        LIMIT,
    ),
)
add(
    small(
        "adaptive_max_pool3d_many_windows",
        "y = torch.nn.functional.adaptive_max_pool3d(torch.ones(1, 1, 200, 200, 200), 200)",
        LIMIT + (r"pools at most",),
    ),
    small(
        "max_unpool3d_huge_output",
        "x = torch.ones(1, 1, 1, 1, 1)\ni = torch.zeros(1, 1, 1, 1, 1, dtype=torch.long)\n"
        "y = torch.nn.functional.max_unpool3d(x, i, 10**4)",
        LIMIT,
    ),
    small(
        "lp_pool_in_a_long_loop",
        "x = torch.ones(1, 1, 64, 64)\nfor i in range(10**9):\n"
        "    x = torch.nn.functional.lp_pool2d(x, 2, 1)",
        LIMIT,
    ),
    esc("lp_pool_module_globals", "m = torch.nn.LPPool2d(2, 2)\nd = m.forward.__globals__"),
)
add(
    small("pdist_many_rows", "y = torch.pdist(torch.ones(10**5, 3))", LIMIT),
    small(
        "triplet_distance_function_recursing",
        "def d(x, y):\n    return torch.nn.functional.triplet_margin_with_distance_loss("
        "x, y, y, distance_function=d)\n"
        "a = torch.ones(2, 2)\nl = torch.nn.functional.triplet_margin_with_distance_loss("
        "a, a, a, distance_function=d)",
        LIMIT + (r"call depth", r"recursion", r"nested too deeply"),
    ),
    esc(
        "triplet_distance_function_is_print",
        "a = torch.ones(2, 2)\nl = torch.nn.TripletMarginWithDistanceLoss(distance_function=eval)"
        "(a, a, a)",
    ),
    esc("rnn_base_made_directly", "m = torch.nn.RNNBase('LSTM', 2, 3)"),
)
add(
    small(
        "adaptive_softmax_many_clusters",
        "m = torch.nn.AdaptiveLogSoftmaxWithLoss(4, 10**6 + 1, list(range(1, 10**6 + 1)), 1.0)",
        LIMIT,
    ),
    small(
        "adaptive_softmax_huge_head",
        "m = torch.nn.AdaptiveLogSoftmaxWithLoss(10**5, 10**5, [10**4])",
        LIMIT,
    ),
    esc(
        "adaptive_softmax_output_class",
        "m = torch.nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2])\n"
        "o = m(torch.ones(1, 4), torch.tensor([1]))\nc = o.__class__.__init__",
    ),
)
# A legacy autograd.Function's own __init__ runs on its instance (explore21): its attributes
# are bounded, its recursion is bounded, and the instance gives no way to Python's internals.
LEGACY = (
    "class F(torch.autograd.Function):\n"
    "    def __init__(self, n):\n"
    "{body}"
    "    def forward(self, x):\n"
    "        return x\n"
)
add(
    small(
        "legacy_function_init_many_attributes",
        LEGACY.format(
            body="        for i in range(n):\n            setattr(self, 'a' + str(i), i)\n"
        )
        + "f = F(10**7)",
        LIMIT + (r"not supported", r"setattr"),
    ),
    small(
        "legacy_function_init_recursion",
        LEGACY.format(body="        self.inner = F(n + 1)\n") + "f = F(0)",
        LIMIT + (r"recursion", r"depth"),
    ),
    esc(
        "legacy_function_init_dunder_attribute",
        LEGACY.format(body="        self.__class__ = n\n") + "f = F(1)",
    ),
    esc(
        "legacy_function_instance_dunder_read",
        LEGACY.format(body="        self.n = n\n") + "g = F(1).__dict__",
    ),
    esc(
        "legacy_function_instance_call_refused",
        LEGACY.format(body="        self.n = n\n") + "y = F(1)(torch.ones(2))",
        (r"Legacy autograd function",),
    ),
)
add(
    small(
        "global_module_hook_calls_a_module",
        "from torch.nn.modules.module import register_module_forward_pre_hook\n"
        "m = torch.nn.Linear(2, 2)\n"
        "register_module_forward_pre_hook(lambda mod, args: m(torch.ones(2)))\n"
        "m(torch.ones(2))",
        (r"recursion", r"depth", r"limit"),
    ),
    small(
        "global_module_hooks_registered_endlessly",
        "from torch.nn.modules.module import register_module_forward_hook\n"
        "while True:\n    register_module_forward_hook(lambda m, a, o: None)",
        LIMIT,
    ),
    esc(
        "global_module_hook_handle_internals",
        "from torch.nn.modules.module import register_module_forward_hook\n"
        "h = register_module_forward_hook(print)\nd = h.hooks_dict_ref",
        (r"no attribute", r"not supported", r"not accessible"),
    ),
)
add(
    # exit() ends a run as its last line does: no except catches it, finally blocks run once
    small(
        "exit_in_a_finally_loop",
        "while True:\n    try:\n        exit(0)\n    finally:\n        x = 1",
        (),
        codes=frozenset({0}),
    ),
    small(
        "exit_caught_by_a_bare_handler",
        "while True:\n    try:\n        exit()\n    except Exception:\n        pass",
        (),
        codes=frozenset({0}),
    ),
    esc("exit_value_internals", "e = exit.__self__.__class__.__subclasses__()"),
    small("exit_with_a_huge_status", "exit(10**400)", (r"integer", r"limit")),
)
add(
    small(
        "function_subclass_chain",
        "class A(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
        "        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g\n"
        + "".join(f"class A{i}({'A' if i == 0 else f'A{i - 1}'}):\n    pass\n" for i in range(300))
        + "y = A299.apply(torch.ones(1, requires_grad=True))\ny.backward()\nprint(y)",
        (),
        codes=frozenset({0}),
    ),
    esc(
        "function_subclass_dunder_reach",
        "class A(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
        "        return x\nclass B(A):\n    pass\nc = B.__mro__",
    ),
)
# A built-in module takes a plain attribute of the program's under a name with underscores
# (`layer.__name__ = name`, as hook tutorials write), stored as the program's value: never its
# own tables nor Python's names of the object, and what it holds is audited as any value.
add(
    esc("module_set_parameters_table", "m = torch.nn.Linear(2, 2)\nm._parameters = {}"),
    esc("module_set_hooks_table", "m = torch.nn.Linear(2, 2)\nm._forward_hooks = {1: print}"),
    esc("module_set_class_by_setattr", "m = torch.nn.Linear(2, 2)\nsetattr(m, '__class__', m)"),
    esc(
        "module_name_attribute_reach",
        "m = torch.nn.Linear(2, 2)\nm.__name__ = 'fc'\nc = m.__name__.__class__.__mro__",
    ),
    esc("module_set_dunder_method", "m = torch.nn.Linear(2, 2)\nm.__call__ = print\nm(1)"),
)
# A program's function keeps attributes of the program's (`f.vjp = ...`): the names with
# dunders stay Python's and refused, what it holds is audited as any value, their number is
# bounded.
add(
    esc("function_set_code", "def f(x):\n    return x\nf.__code__ = None"),
    esc("function_set_name", "def f(x):\n    return x\nf.__name__ = 'g'"),
    esc("function_set_globals", "def f(x):\n    return x\nsetattr(f, '__globals__', {})"),
    esc("function_attr_reach", "def f(x):\n    return x\nf.a = 1\nc = f.a.__class__.__mro__"),
    small(
        "function_attributes_endless",
        "def f(x):\n    return x\ni = 0\nwhile True:\n    setattr(f, 'a' + str(i), i)\n    i += 1",
        LIMIT,
    ),
)
# numpy.einsum: the result's size and the work bounded before NumPy runs.
add(
    budget(
        "numpy_einsum_work",
        "import numpy as np\na = np.ones((2000, 2000))\nnp.einsum('ij,jk,kl->il', a, a, a)",
    ),
    budget(
        "numpy_einsum_result",
        "import numpy as np\na = np.ones(3000)\nnp.einsum('i,j,k->ijk', a, a, a)",
    ),
    budget(
        "numpy_einsum_ellipsis_work",
        "import numpy as np\na = np.ones((3000, 1, 1000))\nb = np.ones((1, 3000, 1000))\n"
        "np.einsum('...i,...i->...', a, b)",
    ),
)
# sys.stdout: text written to the program's output, under the output limit; nothing else of
# the stream or of `sys` is reached.
add(
    small(
        "stdout_write_endlessly",
        "import sys\nwhile True:\n    sys.stdout.write('x' * 1000)",
        LIMIT,
        printed=True,
    ),
    esc("stdout_write_internals", "import sys\nc = sys.stdout.write.__self__"),
    esc("stdout_class_reach", "import sys\nc = sys.stdout.__class__.__mro__"),
    esc("stdout_buffer", "import sys\nsys.stdout.buffer.write(b'x')"),
    esc("stderr_buffer", "import sys\nsys.stderr.buffer.write(b'x')"),
)
add(
    small(
        "print_inside_grad_endlessly",
        "from torch.func import grad\n"
        "def f(x):\n    while True:\n        s = str(x * 2)\n    return x.sum()\n"
        "grad(f)(torch.ones(1000))",
        LIMIT,
    ),
    small(
        "print_inside_nested_grad",
        "from torch.func import grad\n"
        "print(grad(grad(lambda x: (print(x), x ** 3)[1]))(torch.tensor(2.)))",
        (r"not supported",),
        codes=frozenset({0}),  # (feat17: PyTorch's nested GradTrackingTensors, corpus 537)
    ),
)

# -- ctc_loss: its alignment table is bounded before any work, its scalar loop ticks, labels
# outside the classes (PyTorch reads outside its tensor) are refused ---------------------------
add(
    small(
        "h5_ctc_loss_long_table",
        "import torch.nn.functional as F\nlp = torch.zeros(2000, 10, 3, requires_grad=True)\n"
        "t = torch.ones(10, 200, dtype=torch.long)\n"
        "l = F.ctc_loss(lp, t, [2000] * 10, [200] * 10)\nl.backward()",
        TIME_OR_LIMIT,
    ),
    small(
        "h5_ctc_loss_huge_table",
        "import torch.nn.functional as F\nlp = torch.zeros(1, 2).expand(10**5, 100, 2)\n"
        "t = torch.ones(100, 10**4, dtype=torch.long)\n"
        "l = F.ctc_loss(lp, t, [10**5] * 100, [10**4] * 100)",
        LIMIT,
    ),
    small(
        "h5_ctc_loss_label_outside_the_classes",
        "import torch.nn.functional as F\nlp = torch.zeros(5, 1, 3)\n"
        "l = F.ctc_loss(lp, torch.tensor([[1, 10**9]]), [5], [2])",
        (r"out of range for 3 classes",),
    ),
    small(
        "h5_ctc_loss_lengths_not_ints",
        "import torch.nn.functional as F\nlp = torch.zeros(5, 1, 3)\n"
        "l = F.ctc_loss(lp, torch.tensor([[1]]), [torch], [1])",
        (r"invalid combination of arguments",),
    ),
)

# -- torch.gradient and the window functions: sizes bounded before any work, long loops tick --
add(
    small(
        "h5_gradient_of_an_expanded_giant",
        "y = torch.ones(1).expand(10**5, 10**5)\ng = torch.gradient(y)",
        LIMIT + (r"out of memory",),
    ),
    small(
        "h5_gradient_spacing_a_module",
        "g = torch.gradient(torch.ones(3), spacing=torch)",
        (r"invalid combination",),
    ),
    small("h5_hann_window_huge", "w = torch.hann_window(10**12)", LIMIT),
    small(
        "h5_kaiser_window_long",
        "w = torch.kaiser_window(9_000_000, dtype=torch.float64)\nprint(w.sum())",
        TIME_OR_LIMIT + (r"out of memory",),
    ),
    small(
        "h5_window_length_a_string", "w = torch.bartlett_window('8')", (r"must be int, not str",)
    ),
)

# -- global backward module hooks: a hook that calls a module (and its own backward) in
# backward, endless registration, the handle's internals -----------------------------------
add(
    small(
        "h5_global_backward_hook_calls_backward",
        "from torch.nn.modules.module import register_module_full_backward_hook\n"
        "m = torch.nn.Linear(2, 2)\n"
        "register_module_full_backward_hook(\n"
        "    lambda mod, gi, go: m(torch.ones(2, requires_grad=True)).sum().backward()\n"
        ")\n"
        "m(torch.ones(2, requires_grad=True)).sum().backward()",
        # in backward nothing is recorded (as PyTorch): the inner backward has no graph
        (r"does not require grad", r"recursion", r"depth", r"limit"),
    ),
    small(
        "h5_global_backward_pre_hooks_registered_endlessly",
        "from torch.nn.modules.module import register_module_full_backward_pre_hook\n"
        "while True:\n    register_module_full_backward_pre_hook(lambda m, g: None)",
        LIMIT,
    ),
    small(
        "h5_global_backward_pre_hook_returns_too_many",
        "from torch.nn.modules.module import register_module_full_backward_pre_hook\n"
        "register_module_full_backward_pre_hook(lambda m, g: (g[0], g[0]))\n"
        "torch.nn.Tanh()(torch.ones(2, requires_grad=True)).sum().backward()",
        (r"Backward pre hook returned an invalid number of grad_output, got 2, but expected 1",),
    ),
    esc(
        "h5_global_backward_hook_handle_internals",
        "from torch.nn.modules.module import register_module_full_backward_hook\n"
        "h = register_module_full_backward_hook(print)\nd = h.hooks_dict_ref",
        (r"no attribute", r"not supported", r"not accessible"),
    ),
)

# -- UninitializedParameter / UninitializedBuffer: made by name, every use refused -----------
add(
    small(
        "h5_uninitialized_buffer_used",
        "b = torch.nn.UninitializedBuffer()\ny = torch.exp(b)",
        (r"Attempted to use an uninitialized parameter in .*UninitializedBuffer",),
    ),
    small(
        "h5_uninitialized_buffer_shape",
        "b = torch.nn.parameter.UninitializedBuffer()\nprint(b.shape)",
        (r"Can't access the shape of an uninitialized parameter or buffer",),
    ),
    esc(
        "h5_uninitialized_buffer_class_internals",
        "t = torch.nn.UninitializedBuffer\nprint(t.__mro__)",
        (r"no attribute", r"not supported", r"not accessible", r"dunder", r"__mro__"),
    ),
)

# -- torch.signal.windows: lengths and coefficient lists bounded, odd arguments refused ------
add(
    small("h5_signal_window_huge", "w = torch.signal.windows.gaussian(10**12)", LIMIT),
    small(
        "h5_signal_general_cosine_many_coefficients",
        "w = torch.signal.windows.general_cosine(10**5, a=[0.5] * 10**5)",
        LIMIT + (r"out of memory",),
    ),
    small(
        "h5_signal_window_length_a_module",
        "w = torch.signal.windows.hann(torch)",
        (r"not supported between instances",),
    ),
    esc(
        "h5_signal_windows_module_internals",
        "from torch.signal import windows\nprint(windows.__dict__)",
        (r"no attribute", r"not supported", r"not accessible", r"__dict__"),
    ),
)

add(
    # torch.no_grad()(f): the decorator applied by hand
    small(
        "grad_mode_wrapping_itself_endlessly",
        "def f(x):\n    return x\nwhile True:\n    f = torch.no_grad()(f)",
        LIMIT,
    ),
    small(
        "grad_mode_wrapped_recursion",
        "def f(x):\n    return g(x)\ng = torch.no_grad()(f)\ng(torch.ones(1))",
        LIMIT + (r"recursion", r"depth"),
    ),
    small("grad_mode_wraps_a_number", "torch.enable_grad()(3)", (r"decorates functions",)),
    small(
        "grad_mode_wraps_two",
        "def f(x):\n    return x\ntorch.no_grad()(f, f)",
        (r"takes one argument",),
    ),
    esc("grad_mode_wraps_a_dunder", "g = torch.no_grad()(torch.no_grad().__enter__)"),
    esc(
        "grad_mode_wrapper_internals",
        "def f(x):\n    return x\ng = torch.no_grad()(f)\nc = g.__code__",
    ),
    esc(
        "grad_mode_module_wrapper_internals",
        "g = torch.no_grad()(torch.nn.Linear(2, 1))\nc = g.__wrapped__",
    ),
    small(
        "grad_mode_module_wrapper_fields",
        "g = torch.no_grad()(torch.nn.Linear(2, 1))\nc = g.fn",
        (r"has no attribute",),
    ),
    small(
        "grad_mode_module_wrapping_endlessly",
        "m = torch.nn.Linear(2, 1)\nwhile True:\n    m = torch.inference_mode()(m)",
        LIMIT,
    ),
    small(
        "grad_mode_wrapped_builtin_recursion",
        "class M(torch.nn.Module):\n    def forward(self, x):\n        return w(x)\n"
        "w = torch.no_grad()(M())\nw(torch.ones(1))",
        LIMIT + (r"recursion", r"depth"),
    ),
)

add(
    # feat16: Python's number and string methods, bounded before they compute
    small("math_comb_huge", "print(math.comb(2**200, 2**199))", LIMIT),
    small("math_perm_huge", "print(math.perm(10**9))", LIMIT),
    small("math_factorial_huge", "print(math.factorial(10**7))", LIMIT),
    small("math_lcm_huge", "print(math.lcm(*[2**250 - i for i in range(50)]))", LIMIT),
    small("math_fsum_endless", "import itertools\nprint(math.fsum(itertools.count()))", LIMIT),
    small("str_expandtabs_huge", "s = '\\t' * 1000\nprint(len(s.expandtabs(10**9)))", LIMIT),
    small("int_base_huge", "print(int('1' * 100000, 2))", LIMIT),
    small("int_base_decimal_digits", "print(int('9' * 5000, 10))", (r"4300", r"limit")),
    small("dict_fromkeys_endless", "import itertools\nd = dict.fromkeys(itertools.count())", LIMIT),
    small("set_union_growing", "s = {0}\nwhile True:\n    s = s | {len(s)}", LIMIT),
    small("dict_merge_growing", "d = {}\nwhile True:\n    d |= {len(d): d}", LIMIT),
    esc("unbound_method_internals", "f = str.join.__self__"),
    esc("unbound_method_dunder", "f = str.__dict__"),
    esc("number_attribute_dunder", "f = (1.5).real.__class__.__subclasses__()"),
    small("str_translate_refused", "b = 'abc'.translate({97: 98})", (r"not supported",)),
)
_FN = (
    "class A(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
    "        return x\n    @staticmethod\n    def backward(ctx, g):\n        return g\n"
)
add(
    # feat16: issubclass / isinstance with torch.autograd.Function and the program's Functions
    small(
        "issubclass_function_chain",
        _FN
        + "".join(f"class A{i}({'A' if i == 0 else f'A{i - 1}'}):\n    pass\n" for i in range(300))
        + "print(issubclass(A299, A), issubclass(A, A299),\n"
        "      issubclass(A299, torch.autograd.Function))",
        (),
        codes=frozenset({0}),
    ),
    small(
        "issubclass_endless_tuple",
        _FN + "while True:\n    issubclass(A, tuple([torch.nn.Module] * 10000))",
        LIMIT,
    ),
    esc("function_base_internals", "f = torch.autograd.Function.__subclasses__()"),
    esc("function_class_dunder", _FN + "f = A.__bases__"),
)
add(
    # feat16: hook handles' ids, the keyword check, torch's aliases as objects of their own
    small(
        "hook_ids_registered_and_removed_endlessly",
        "m = torch.nn.Linear(2, 2)\nwhile True:\n"
        "    h = m.register_forward_hook(lambda mod, i, o: None)\n    h.remove()",
        LIMIT,
    ),
    esc(
        "hook_handle_next_id",
        "h = torch.ones(1, requires_grad=True).register_hook(print)\nn = h.next_id",
    ),
    esc("alias_twin_code", "c = torch.subtract.__code__"),
    esc("alias_twin_globals", "g = torch.clip.__globals__"),
    small(
        "unknown_keyword_flood",
        "x = torch.ones(2)\nkw = {f'k{i}': i for i in range(100000)}\ntorch.relu(x, **kw)",
        (r"unexpected keyword", r"limit"),
    ),
)
add(
    # feat16: pprint over the program's values
    small(
        "pprint_nested_deep",
        "import pprint\nl = []\nfor i in range(5000):\n    l = [l]\npprint.pprint(l)",
        (r"nested over",),
    ),
    small(
        "pprint_shared_doubling",
        "from pprint import pformat\nl = [1]\nfor i in range(60):\n    l = [l, l]\ns = pformat(l)",
        LIMIT,
    ),
    small(
        "pprint_huge_indent", "import pprint\npprint.pprint([[1] * 50] * 50, indent=10**9)", REFUSED
    ),
    small(
        "pprint_repr_loops",
        "import pprint\nclass A:\n    def __repr__(self):\n        while True:\n"
        "            pass\npprint.pprint([A()])",
        LIMIT,
    ),
    small(
        "pprint_output_flood",
        "import pprint\nwhile True:\n    pprint.pprint(list(range(1000)))",
        LIMIT,
        printed=True,
    ),
    small("pprint_stream_refused", "import pprint\npprint.pprint([1], stream=print)", REFUSED),
    esc("pprint_printer_internals", "import pprint\nd = pprint.PrettyPrinter()._dispatch"),
    esc("pprint_printer_dunder", "import pprint\nd = pprint.PrettyPrinter().__dict__"),
    esc("pprint_module_dunder", "import pprint\nd = pprint.__builtins__"),
    esc(
        "pprint_unlisted_name", "import pprint\nd = pprint.sys", (r"no attribute", r"not supported")
    ),
)
add(
    # feat16: tensors made inside torch.func.grad print wrapped at its level
    small(
        "print_constants_inside_grad_endlessly",
        "from torch.func import grad\n"
        "def f(x):\n    while True:\n        print(torch.ones(100))\n    return x.sum()\n"
        "grad(f)(torch.ones(3))",
        LIMIT,
        printed=True,
    ),
    small(
        "print_constant_inside_nested_grad",
        "from torch.func import grad\n"
        "print(grad(grad(lambda x: (print(torch.ones(1)), x ** 3)[1]))(torch.tensor(2.)))",
        (r"not supported",),
        codes=frozenset({0}),  # (feat17: PyTorch's nested GradTrackingTensors, corpus 537)
    ),
    small(
        "inference_flag_inside_grad",
        "from torch.func import grad\n"
        "def f(x):\n    c = torch.ones(1)\n"
        "    print(c.is_inference(), torch.is_inference_mode_enabled())\n"
        "    return x.sum()\nprint(grad(f)(torch.ones(2)))",
        (),
        codes=frozenset({0}),
        stdout_patterns=(r"False False",),
    ),
)
_AM = "from torch.autograd.graph import allow_mutation_on_saved_tensors\n"
add(
    # feat16: allow_mutation_on_saved_tensors
    small(
        "allow_mutation_endless_saves",
        _AM
        + "with allow_mutation_on_saved_tensors():\n    x = torch.ones(100, requires_grad=True)\n"
        "    while True:\n        y = (x * x).sum()",
        LIMIT,
    ),
    small(
        "allow_mutation_endless_changes",
        _AM
        + "with allow_mutation_on_saved_tensors():\n    x = torch.ones(100, requires_grad=True)\n"
        "    h = x * 1\n    while True:\n        y = h.sin()\n        h.mul_(1.0001)",
        LIMIT,
    ),
    small(
        "allow_mutation_nested_by_recursion",
        _AM + "def f(n):\n    with allow_mutation_on_saved_tensors():\n        f(n + 1)\nf(0)",
        (r"cannot be nested",),
    ),
    small(
        "allow_mutation_backward_after_the_block",
        _AM + "with allow_mutation_on_saved_tensors():\n    x = torch.ones(2, requires_grad=True)\n"
        "    y = (x * x).sum()\ny.backward()",
        (r"outside of the 'allow_mutation_on_saved_tensors' context",),
    ),
    small(
        "allow_mutation_as_decorator",
        _AM + "@allow_mutation_on_saved_tensors()\ndef f():\n    pass\nf()",
        (r"not support", r"not supported"),
    ),
)
add(
    # feat16: type() and issubclass() of torch.optim's classes and the program's classes
    esc("optimizer_class_type_internals", "t = type(torch.optim.Adam).__subclasses__()"),
    esc("function_meta_internals", _FN + "m = type(A).__mro__"),
    small(
        "issubclass_optimizer_instance",
        "opt = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1)\n"
        "issubclass(opt, torch.optim.Optimizer)",
        (r"must be a class",),
    ),
    small(
        "function_meta_called",
        _FN + "B = type(A)('B', (), {})",
        (r"not supported", r"cannot create", r"only be called"),
    ),
)
add(
    small(
        "print_constant_inside_grad_inside_vmap",
        "from torch.func import grad, vmap\n"
        "def f(x):\n    print(torch.ones(2))\n    return (x * 2).sum()\n"
        "vmap(grad(f))(torch.ones(3, 2))",
        (r"not supported",),
        codes=frozenset({0}),  # (feat17: PyTorch's GradTrackingTensor(lvl=2), corpus 541)
    ),
)
add(
    small(
        "allow_mutation_context_internals",
        _AM + "with allow_mutation_on_saved_tensors() as ctx:\n    c = ctx.cloned",
        (r"not supported",),
    ),
    esc(
        "allow_mutation_context_dunder",
        _AM + "with allow_mutation_on_saved_tensors() as ctx:\n"
        "    c = ctx.__class__.__subclasses__()",
    ),
)
add(
    # Python's bool / int / float are dtypes to PyTorch (`dtype=float`); no other object is
    small(
        "dtype_python_type_object",
        "x = torch.zeros(2, dtype=type)",
        (r"must be torch.dtype", r"only supported as a call"),
    ),
    small("dtype_python_type_str", "x = torch.ones(2).to(str)", (r"torch.dtype",)),
    small("dtype_python_type_list", "x = torch.arange(3, dtype=list)", (r"invalid combination",)),
    small(
        "dtype_python_type_user_class",
        "class A(torch.nn.Module):\n    pass\nx = torch.zeros(2, dtype=A)",
        (r"must be torch.dtype",),
    ),
    esc("dtype_python_type_dunder", "x = torch.zeros(2, dtype=float.__subclasses__()[0])"),
    small(
        "dtype_python_float_huge",
        "x = torch.zeros(10**12, dtype=float)",
        (r"limit", r"tensor_elements", r"memory"),
    ),
)
# torch's C++ norms, embedding and losses (their own argument order, int reductions) and
# F.batch_norm's eps checks: wrong values are refused in PyTorch's words, never computed
add(
    small(
        "torch_embedding_padding_idx_beyond_int64",
        "e = torch.embedding(torch.ones(3, 2), torch.tensor([0]), 10**40)",
        (r"Overflow when unpacking long long",),
    ),
    small(
        "torch_kl_div_reduction_beyond_int64",
        "l = torch.kl_div(torch.ones(2), torch.ones(2), -(10**70))",
        (r"Overflow when unpacking long long",),
    ),
    small(
        "torch_kl_div_reduction_a_module",
        "l = torch.kl_div(torch.ones(2), torch.ones(2), torch)",
        (r"argument 'reduction' .* must be int, not module",),
    ),
    small(
        "f_batch_norm_eps_a_list",
        "import torch.nn.functional as F\n"
        "y = F.batch_norm(torch.ones(2, 3), torch.zeros(3), torch.ones(3), True, eps=[1e-5])",
        (r"not supported between instances of 'list' and 'float'",),
    ),
    small(
        "torch_batch_norm_eight_arguments",
        "y = torch.batch_norm(torch.ones(2, 3), None, None, None, None, True, 0.1, 1e-5)",
        (r"missing 1 required positional argument",),
    ),
)
# torch.nn.grad (F.grad): shapes from the program, sizes under the limits, no internals
add(
    small(
        "nn_grad_input_size_huge",
        "g = torch.nn.grad.conv2d_input([1, 1, 10**6, 10**6], torch.ones(1, 1, 3, 3), "
        "torch.ones(1, 1, 999998, 999998))",
        (r"limit", r"too large", r"not the convolution's output"),
    ),
    small(
        "nn_grad_input_size_a_tensor",
        "g = torch.nn.grad.conv1d_input(torch.ones(3), torch.ones(1, 1, 2), torch.ones(1, 1, 2))",
        (r"input_size must be a sequence",),
    ),
    small(
        "nn_grad_weight_negative_size",
        "g = torch.nn.grad.conv1d_weight(torch.ones(1, 1, 4), [1, 1, -2], torch.ones(1, 1, 5))",
        (r"negative size",),
    ),
    small(
        "nn_grad_multiply_adds",
        "g = torch.nn.grad.conv2d_weight(torch.ones(1, 64, 512, 512), [64, 64, 9, 9], "
        "torch.ones(1, 64, 504, 504))",
        (r"multiply-adds", r"limit", r"memory"),
    ),
    esc("nn_grad_module_dunder", "d = torch.nn.grad.__dict__"),
    esc("nn_grad_function_globals", "g = torch.nn.grad.conv2d_input.__globals__"),
)
add(
    # feat17: changes a vmapped function (or a hook of jacrev's passes) makes again in a later
    # element's run are refused; what each run makes is its own and stays under the limits
    small(
        "vmap_counter_on_a_million_elements",
        "from torch.func import vmap\nclass C:\n    n = 0\nc = C()\n"
        "def f(v):\n    c.n += 1\n    return v * 2\nvmap(f)(torch.ones(10**6))",
        (r"earlier batch element changed it too",),
        at=(8, 5),
    ),
    small(
        "vmap_outer_tensor_written_each_element",
        "from torch.func import vmap\nbuf = torch.zeros(3)\n"
        "def f(v):\n    buf.add_(1)\n    return v\nvmap(f)(torch.ones(5, 3))",
        (r"a tensor in place",),
        at=(6, 5),
    ),
    small(
        "jacrev_hook_appends_each_row",
        "from torch.func import jacrev\nseen = []\n"
        "def f(x):\n    y = x * 2\n    y.register_hook(lambda g: seen.append(g))\n    return y\n"
        "jacrev(f)(torch.ones(4))",
        (r"earlier row of the Jacobian changed it too",),
        at=ANY,
    ),
    budget(
        "vmap_each_element_makes_objects_endlessly",
        "from torch.func import vmap\nclass C:\n    pass\n"
        "def f(v):\n    xs = []\n    while True:\n        o = C()\n        o.v = v\n"
        "        xs.append(o)\n    return v\nvmap(f)(torch.ones(3, 2))",
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "vmap_new_list_every_step_of_every_element",
        "from torch.func import vmap\n"
        "def f(v):\n    for i in range(10**7):\n        xs = [i]\n        xs.append(i)\n"
        "    return v\nvmap(f)(torch.ones(10**4, 2))",
        patterns=TIME_OR_LIMIT,
    ),
    esc(
        "vmap_setattr_dunder_of_an_outer_instance",
        "from torch.func import vmap\nclass C:\n    pass\nc = C()\n"
        "def f(v):\n    setattr(c, '__class__', int)\n    return v\nvmap(f)(torch.ones(2))",
    ),
)
_SUB = (
    "w = torch.zeros(2, requires_grad=True)\n"
    "class A(torch.optim.Adam):\n    def peek(self, name):\n        return getattr(self, name)\n"
    "class S(torch.optim.lr_scheduler.StepLR):\n    def peek(self, name):\n"
    "        return getattr(self, name)\n"
    "a = A([w])\ns = S(a, 2)\n"
)
add(
    # feat17: subclasses of torch's own optimizers and schedulers reach no more than the
    # optimizer or scheduler itself
    esc("optimizer_subclass_class_internals", _SUB + "a.peek('BUILTIN_BASE')"),
    esc("optimizer_subclass_private_hooks", _SUB + "a.peek('_optimizer_step_pre_hooks')"),
    esc("optimizer_subclass_step_group", _SUB + "a.peek('_step_group')"),
    # (_get_lr_called_within_step is readable, as PyTorch's)
    esc("scheduler_subclass_private", _SUB + "s.peek('__dict__')"),
    esc("scheduler_subclass_attrs_table", _SUB + "s.peek('attrs')"),
    esc("scheduler_subclass_mro", _SUB + "m = type(s).__mro__"),
    esc(
        "optimizer_subclass_super_class",
        "class A(torch.optim.SGD):\n"
        "    def f(self):\n        return super().__dict__\n"
        "A([torch.zeros(1, requires_grad=True)], lr=0.1).f()",
    ),
    small(
        "scheduler_subclass_setting_changed",
        _SUB + "s.gamma = 'x'",
        (r"not supported",),
    ),
    small(
        "optimizer_subclass_init_recursion",
        "class A(torch.optim.SGD):\n    def __init__(self, params):\n"
        "        A.__init__(self, params)\nA([torch.zeros(1, requires_grad=True)])",
        (r"recursion", r"call depth", r"limit"),
    ),
    small(
        "optimizer_subclass_bad_init_arguments",
        "class A(torch.optim.Adam):\n    def __init__(self, params):\n"
        "        super().__init__(params, lr='fast', betas=None)\n"
        "A([torch.zeros(1, requires_grad=True)])",
        (r"lr", r"betas", r"not supported", r"must be"),
    ),
)
add(
    # feat17: vars() and dir() look into the instances of the program's plain classes only
    esc("vars_of_torch", "v = vars\nd = v(torch)"),
    esc("vars_of_a_class", "class C:\n    pass\nd = vars(C)"),
    esc("vars_of_a_function", "def f():\n    pass\nd = vars(f)"),
    esc("vars_of_a_module", "d = vars(torch.nn.Linear(2, 2))"),
    esc("dir_of_torch", "d = dir(torch)"),
    esc("dir_of_a_tensor", "d = dir(torch.ones(1))"),
    esc("dir_without_arguments", "d = dir()"),
    esc(
        "vars_table_dunder_key",
        "class C:\n    pass\nc = C()\nvars(c)['__class__'] = int\nk = c.__class__.__subclasses__()",
    ),
    small(
        "vars_table_grows_past_the_limit",
        "class C:\n    pass\nc = C()\nv = vars(c)\nfor i in range(10**8):\n    v[i] = i",
        LIMIT,
    ),
    small(
        "frozenset_nested_deep",
        "t = frozenset()\nfor i in range(10**5):\n    t = frozenset([t, i])\nprint(t)",
        LIMIT + (r"nested",),
    ),
    budget("frozenset_of_a_huge_range", "s = frozenset(range(10**9))"),
    small(
        "set_from_an_expanded_tensor_then_written",
        "x = torch.zeros(3)\nx.set_(torch.zeros(1).expand(3))\nx.add_(1)",
        (r"more than one element of the written-to tensor",),
    ),
    small(
        "set_storage_arguments",
        "x = torch.zeros(3)\nx.set_(torch.zeros(10), 5, (100,), (1,))",
        (r"not supported",),
    ),
)
add(
    # feat17: writes through an expanded tensor reach its base, under the element limit
    budget("expanded_fill_past_the_limit", "x = torch.zeros(1).expand(10**9)\nx.fill_(1)"),
    small(
        "expanded_masked_fill_at_the_limit",
        "b = torch.zeros(1)\nx = b.expand(10**7)\nx.masked_fill_(x == 0, 2.0)\nprint(b)",
        LIMIT,
        codes=frozenset({0, 1}),
    ),
    small(
        "expanded_of_a_leaf_filled",
        "w = torch.ones(3, requires_grad=True)\nw.expand(2, 3).fill_(0)",
        (r"view of a leaf Variable that requires grad",),
    ),
    small(
        "expanded_column_assigned",
        "b = torch.zeros(3)\nx = b.expand(4, 3)\nx[:, 1] = torch.ones(4)",
        (r"more than one element of the written-to tensor",),
        at=ANY,
    ),
    small(
        "expanded_index_put_many_duplicates",
        "b = torch.zeros(1)\nx = b.expand(10**6)\ni = torch.zeros(10**6, dtype=torch.long)\n"
        "x.index_put_((i,), torch.arange(10**6.0))\nprint(b)",
        LIMIT,
        codes=frozenset({0, 1}),
    ),
)
# Mixed precision (lang.amp): the scaler's and autocast's internals stay out of reach, the
# objects a scaler walks are checked, and the loops and recursion they take part in are bounded.
_SC = "s = torch.amp.GradScaler('cpu')\nw = torch.ones(2, requires_grad=True)\n"
add(
    esc("amp_scaler_dict", _SC + "d = s.__dict__"),
    # torch.distributions.Distribution: isinstance only, never made, no Python class reached
    esc("distribution_base_call", "d = torch.distributions.Distribution()"),
    esc("distribution_base_dunder", "c = torch.distributions.Distribution.__subclasses__()"),
    esc(
        "distribution_isinstance_reaches_class",
        "d = torch.distributions.Normal(torch.zeros(1), torch.ones(1))\nc = d.__class__.__mro__",
    ),
    esc("amp_scaler_private", _SC + "v = s._scale"),
    esc("amp_scaler_python_attribute", _SC + "v = s.fields"),
    esc("amp_scaler_method_self", _SC + "v = s.scale.__self__"),
    esc("amp_scaler_type_called", _SC + "t = type(s)('cpu')"),
    esc("amp_autocast_enter", "a = torch.autocast('cuda', enabled=False)\na.__enter__()"),
    esc("amp_autocast_class_init", "f = torch.autocast.__init__"),
    esc(
        "amp_autocast_wrapped_globals",
        "f = torch.autocast('cpu', enabled=False)(print)\ng = f.__globals__",
    ),
    esc("amp_custom_fwd_open", "f = torch.amp.custom_fwd(open, device_type='cuda')"),
    esc("amp_scaler_set_attribute", _SC + "s.step = print"),
    small(
        "amp_unscale_fake_grad",
        "class G:\n    grad = 'x'\nclass P:\n    param_groups = [{'params': [G()]}]\n"
        + _SC
        + "s.scale(w.sum())\ns.unscale_(P())",
        (r"expected param to be torch.Tensor",),
    ),
    small(
        "amp_unscale_fake_groups",
        "class P:\n    param_groups = [3]\n" + _SC + "s.scale(w.sum())\ns.unscale_(P())",
        (r"not supported",),
    ),
    small(
        "amp_load_state_dict_str",
        _SC + "s.load_state_dict({'scale': 'x', 'growth_factor': 2.0, 'backoff_factor': 0.5,"
        " 'growth_interval': 1, '_growth_tracker': 0})",
        (r"not supported",),
    ),
    small("amp_set_growth_factor_str", _SC + "s.set_growth_factor('x')", (r"not supported",)),
    small(
        "amp_scale_deep_nesting",
        _SC + "l = w\nfor i in range(5000):\n    l = [l]\ns.scale(l)",
        (r"recursed too deeply",) + LIMIT,
    ),
    small(
        "amp_autocast_decorated_recursion",
        "@torch.autocast('cuda', enabled=False)\ndef f(x):\n    return f(x)\nf(1)",
        (r"recursed too deeply",) + LIMIT,
    ),
    small(
        "amp_scale_forever",
        _SC + "while True:\n    s.scale(w.sum())",
        LIMIT,
    ),
    small(
        "amp_scale_huge_list",
        _SC + "s.scale([w] * 10**9)",
        LIMIT + (r"too large", r"memory"),
    ),
)


# torch.testing (feat20): what assert_close walks and calls is bounded; make_tensor's tensors
# are under the element limit; its arguments of the wrong kind are errors, not tracebacks.
_TT = "from torch.testing import assert_close, make_tensor\n"
add(
    small(
        "testing_assert_close_deep_nesting",
        _TT + "l = torch.ones(1)\nfor i in range(5000):\n    l = [l]\nassert_close(l, l)",
        (r"nested over",) + LIMIT,
    ),
    small(
        "testing_assert_close_cycle",
        _TT + "l = []\nl.append(l)\nassert_close(l, l)",
        (r"nested over",) + LIMIT,
    ),
    small(
        "testing_assert_close_shared_blowup",
        _TT + "l = [1]\nfor i in range(40):\n    l = [l, l]\nassert_close(l, l)",
        LIMIT,
    ),
    small(
        "testing_assert_close_msg_recursion",
        _TT + "def f(m):\n    return f(m)\nassert_close(1, 2, msg=f)",
        (r"recursed too deeply",) + LIMIT,
    ),
    small(
        "testing_assert_close_msg_forever",
        _TT + "def f(m):\n    while True:\n        pass\nassert_close(1, 2, msg=f)",
        LIMIT,
    ),
    small(
        "testing_assert_close_bad_rtol",
        _TT + "assert_close(torch.ones(2), torch.ones(2), rtol='x', atol=1)",
        (r"not supported",),
    ),
    small(
        "testing_assert_close_unsortable_keys",
        _TT + "assert_close({1: 1, 'a': 2}, {1: 1, 'b': 2})",
        (r"keys of the mappings",),
    ),
    small(
        "testing_make_tensor_huge",
        _TT + "make_tensor((10**6, 10**6), dtype=torch.float32, device='cpu')",
        LIMIT,
    ),
    small(
        "testing_make_tensor_str_dtype",
        _TT + "make_tensor((2,), dtype='x', device='cpu')",
        (r"requested dtype",),
    ),
    small(
        "testing_make_tensor_str_low",
        _TT + "make_tensor((2,), dtype=torch.float32, device='cpu', low='a')",
        (r"must be numbers",),
    ),
    esc("testing_dict", "x = torch.testing.__dict__"),
    esc("testing_private_module", "x = torch.testing._comparison"),
    esc("testing_function_globals", "x = torch.testing.assert_close.__globals__"),
)

# torch.utils._pytree (feat20): the walks are bounded, the program's functions run under the
# limits, a TreeSpec shows only its public attributes.
_PT = "import torch.utils._pytree as pt\n"
add(
    small(
        "pytree_deep_nesting",
        _PT + "l = torch.ones(1)\nfor i in range(5000):\n    l = [l]\npt.tree_leaves(l)",
        (r"nested over",) + LIMIT,
    ),
    small(
        "pytree_cycle", _PT + "l = []\nl.append(l)\npt.tree_flatten(l)", (r"nested over",) + LIMIT
    ),
    small(
        "pytree_shared_blowup",
        _PT + "l = [1]\nfor i in range(40):\n    l = [l, l]\npt.tree_map(lambda v: v, l)",
        LIMIT,
    ),
    small(
        "pytree_is_leaf_recursion",
        _PT + "def f(v):\n    return f(v)\npt.tree_flatten([1], is_leaf=f)",
        (r"recursed too deeply",) + LIMIT,
    ),
    small(
        "pytree_map_forever",
        _PT + "def f(v):\n    while True:\n        pass\npt.tree_map(f, [1])",
        LIMIT,
    ),
    small("pytree_child_out_of_range", _PT + "pt.tree_structure([1]).child(5)", (r"out of range",)),
    small("pytree_child_str", _PT + "pt.tree_structure([1]).child('a')", (r"must be integers",)),
    small("pytree_unflatten_number", _PT + "pt.tree_unflatten(5, pt.tree_structure([1]))", REFUSED),
    small(
        "pytree_deque_node",
        _PT + "import collections\npt.tree_leaves(collections.deque([1]))",
        REFUSED,
    ),
    esc("pytree_private_children", _PT + "x = pt.tree_structure([1])._children"),
    esc("pytree_spec_class", _PT + "x = pt.tree_structure([1]).__class__.__subclasses__()"),
    esc("pytree_register_node", _PT + "pt.register_pytree_node(list, print, print)"),
    esc("pytree_construct_spec", _PT + "pt.TreeSpec(list, None, [])"),
)

# torch.cpu.amp.autocast and torch.rsub (feat20)
add(
    small(
        "cpu_amp_autocast_enabled",
        "with torch.cpu.amp.autocast():\n    y = torch.ones(2) @ torch.ones(2)",
        (r"not supported",),
    ),
    small(
        "cpu_amp_autocast_bad_keyword",
        "with torch.cpu.amp.autocast(foo=1):\n    pass",
        (r"unexpected keyword",),
    ),
    esc("cpu_amp_autocast_dunder", "x = torch.cpu.amp.autocast.__init__.__globals__"),
    esc("cpu_private_module", "x = torch.cpu._utils"),
    small(
        "rsub_alpha_bool",
        "torch.rsub(torch.ones(2) > 0, torch.ones(2), alpha=2)",
        (r"bool tensor",),
    ),
    small(
        "rsub_alpha_string",
        "torch.rsub(torch.ones(2), torch.ones(2), alpha='a')",
        (r"invalid combination",),
    ),
    small("rsub_bool", "torch.rsub(torch.ones(2) > 0, torch.ones(2) > 0)", (r"bool tensor",)),
    small("rsub_huge_broadcast", "torch.rsub(torch.ones(10**4, 1), torch.ones(10**4))", LIMIT),
    small("rsub_string", "torch.rsub(torch.ones(2), 'a')", (r"rsub", r"argument")),
)

# Enum methods and IntEnum (feat20): the members' int arithmetic is under the integer and
# length limits; methods run under the call and loop limits; internals stay out of reach.
_IE = "from enum import Enum, IntEnum\nclass L(IntEnum):\n    A = 3\n    B = 7\n"
add(
    small("intenum_power", _IE + "x = L.A ** 10**8", INT_TOO_BIG + LIMIT),
    small("intenum_shift", _IE + "x = L.A << 10**9", INT_TOO_BIG + LIMIT),
    small("intenum_string_repeat", _IE + "x = 'a' * L.B * 10**9", LIMIT),
    small("intenum_list_repeat", _IE + "x = [0] * L.B * 10**8", LIMIT),
    small(
        "enum_method_recursion",
        "from enum import Enum\nclass E(Enum):\n    X = 1\n    def f(self):\n"
        "        return self.f()\nE.X.f()",
        (r"recursed too deeply",) + LIMIT,
    ),
    small(
        "enum_property_forever",
        "from enum import Enum\nclass E(Enum):\n    X = 1\n    @property\n    def p(self):\n"
        "        while True:\n            pass\nE.X.p",
        LIMIT,
    ),
    small(
        "intenum_str_value",
        "from enum import IntEnum\nclass C(IntEnum):\n    A = 'x'\n",
        (r"invalid literal",),
    ),
    small("intenum_internal_cls", _IE + "x = L.A.cls", (r"has no attribute",)),
    esc("intenum_mro", _IE + "x = L.A.__class__.__mro__"),
    esc("intenum_dict", _IE + "x = L.A.__dict__"),
    esc("intenum_index_dunder", _IE + "x = L.A.__index__()"),
    esc(
        "enum_dunder_method",
        "from enum import Enum\nclass E(Enum):\n    X = 1\n    def __getattr__(self, n):\n"
        "        return print\n",
    ),
)

# torch.nn.utils.parametrizations.orthogonal (feat20): the factorisations are under the work
# limit, the maps' settings cannot be changed under gradcli's feet.
_OR = "import torch.nn as nn\nfrom torch.nn.utils.parametrizations import orthogonal\n"
add(
    small("orthogonal_huge_weight", _OR + "m = orthogonal(nn.Linear(1500, 3000))", LIMIT),
    small(
        "orthogonal_bad_map",
        _OR + "orthogonal(nn.Linear(3, 3), orthogonal_map=5)",
        (r"has to be one of",),
    ),
    small(
        "orthogonal_vector", _OR + "orthogonal(nn.Linear(3, 3), name='bias')", (r"matrix or batch",)
    ),
    small(
        "orthogonal_assign_wrong_shape",
        _OR + "m = orthogonal(nn.Linear(3, 3))\nm.weight = torch.ones(2, 2)",
        (r"Expected a matrix",),
    ),
    small(
        "orthogonal_change_map",
        _OR + "m = orthogonal(nn.Linear(3, 3))\nm.parametrizations.weight[0].orthogonal_map = 'x'",
        (r"not supported",),
    ),
    small(
        "orthogonal_no_trivialization",
        _OR + "orthogonal(nn.Linear(3, 3), use_trivialization=False)",
        (r"not supported",),
    ),
    esc(
        "orthogonal_private_map",
        _OR + "m = orthogonal(nn.Linear(3, 3))\nx = m.parametrizations.weight[0].__dict__",
    ),
)

# ReduceLROnPlateau as a base class (feat20)
_RP = (
    "from torch.optim.lr_scheduler import ReduceLROnPlateau\n"
    "o = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)\n"
)
add(
    small(
        "plateau_subclass_step_recursion",
        _RP + "class P(ReduceLROnPlateau):\n    def step(self, m):\n        self.step(m)\n"
        "P(o).step(1.0)",
        (r"recursed too deeply",) + LIMIT,
    ),
    small(
        "plateau_subclass_reduce_forever",
        _RP + "class P(ReduceLROnPlateau):\n    def _reduce_lr(self, e):\n        while True:\n"
        "            pass\np = P(o, patience=0)\nfor m in [3, 2, 2]:\n    p.step(m)",
        LIMIT,
    ),
    small(
        "plateau_subclass_set_mode",
        _RP + "class P(ReduceLROnPlateau):\n    pass\np = P(o)\np.mode = 'max'",
        (r"not supported",),
    ),
    small(
        "plateau_subclass_set_patience_str",
        _RP + "class P(ReduceLROnPlateau):\n    pass\np = P(o)\np.patience = 'x'",
        (r"not supported",),
    ),
    small(
        "plateau_subclass_no_super_init",
        _RP + "class P(ReduceLROnPlateau):\n    def __init__(self):\n        pass\nP().step(1.0)",
        (r"has no attribute",),
    ),
    small(
        "plateau_subclass_bad_kwarg",
        _RP + "class P(ReduceLROnPlateau):\n    pass\nP(o, patience_=1)",
        (r"unexpected keyword",),
    ),
    esc(
        "plateau_subclass_dunder",
        _RP
        + "class P(ReduceLROnPlateau):\n    def __getattribute__(self, n):\n        return print\n",
    ),
    esc(
        "plateau_subclass_private_table",
        _RP + "class P(ReduceLROnPlateau):\n    pass\nx = P(o).__dict__",
    ),
)

# backward(inputs=) and autograd.grad take any iterable or a dict (explore29): an endless or a
# huge one stops at the limits; a mapping of another kind, a string, an object's items are
# PyTorch's errors. Inside grad transforms, a change in place of a captured tensor is refused.
_BI = "x = torch.ones(2, requires_grad=True)\nloss = (x * 3).sum()\n"
add(
    small(
        "backward_inputs_endless_generator",
        _BI + "def g():\n    while True:\n        yield x\nloss.backward(inputs=g())",
        LIMIT,
    ),
    small(
        "grad_inputs_huge_repeat",
        _BI + "torch.autograd.grad(loss, [x] * 10**9)",
        LIMIT + (r"too large", r"memory"),
    ),
    small(
        "backward_inputs_class_iter",
        _BI + "class It:\n    def __iter__(self):\n        return iter([x, 'a'])\n"
        "loss.backward(inputs=It())",
        (r"all inputs have to be Tensors", r"not supported", r"not iterable"),
    ),
    small(
        "grad_inputs_ordered_dict",
        "import collections\n" + _BI + "torch.autograd.grad(loss, collections.OrderedDict(a=x))",
        (r"must be a dict, not OrderedDict",),
    ),
    small(
        "func_grad_mutates_captured_forever",
        "from torch.func import grad\nc = torch.zeros(1)\n"
        "def f(v):\n    while True:\n        c.add_(1)\n    return v.sum()\n"
        "grad(f)(torch.ones(2))",
        (r"mutate a captured Tensor",) + LIMIT,
    ),
    small(
        "func_grad_captured_setitem_dunder_key",
        "from torch.func import grad\nc = torch.zeros(3)\n"
        "class K:\n    def __index__(self):\n        return 1\n"
        "def f(v):\n    c[K()] = 1.0\n    return v.sum()\n"
        "grad(f)(torch.ones(2))",
        (r"mutate a captured Tensor", r"not supported", r"only integers"),
    ),
)

# NumPy's own matrix products, split, meshgrid and clip on arrays: the result's size and the
# multiply-adds (or the number of pieces) bounded before NumPy runs.
add(
    budget(
        "numpy_matmul_work",
        "import numpy as np\na = np.ones((3000, 3000))\nb = a @ a",
    ),
    budget(
        "numpy_dot_result",
        "import numpy as np\na = np.ones((5000, 1))\nb = np.dot(a, a.T)",
    ),
    budget(
        "numpy_matmul_batched_work",
        "import numpy as np\na = np.ones((400, 100, 100))\n"
        "b = np.matmul(a, np.ones((100, 100000)))",
    ),
    budget(
        "numpy_array_dot_work",
        "import numpy as np\na = np.ones((3000, 3000))\nb = a.dot(a)",
    ),
    budget(
        "numpy_meshgrid_result",
        "import numpy as np\nx = np.ones(10**4)\nX, Y = np.meshgrid(x, x)",
    ),
    budget(
        "numpy_meshgrid_many",
        "import numpy as np\nx = np.ones(40)\ng = np.meshgrid(x, x, x, x, x)",
    ),
    budget(
        "numpy_split_empty_endless",
        "import numpy as np\nparts = np.split(np.zeros(0), 10**9)",
        patterns=LIMIT + REFUSED + (r"not supported",),
    ),
    budget(
        "numpy_split_points_endless",
        "import numpy as np\nparts = np.split(np.zeros(0), list(range(10**6)))",
        patterns=LIMIT + REFUSED + (r"not supported",),
    ),
    budget(
        "numpy_clip_broadcast_result",
        "import numpy as np\nc = np.clip(np.ones((10**4, 1)), np.zeros(10**4), 1.0)",
    ),
)
# types.SimpleNamespace: an attribute table of the program's values; no dunder reaches Python,
# its growth is bounded.
add(
    esc("simple_namespace_dunder_kw", "import types\nn = types.SimpleNamespace(__init__=print)"),
    # `.__class__` is the audited type(): a class the program can only print or compare
    esc(
        "simple_namespace_class",
        "import types\nc = types.SimpleNamespace(a=1).__class__\nn = c(a=2)",
    ),
    esc(  # (its attribute table, as vars(): a right outcome)
        "simple_namespace_dict",
        "import types\nd = types.SimpleNamespace(a=1).__dict__",
        codes=frozenset({0}),
    ),
    esc(
        "simple_namespace_getattr_dunder",
        "import types\nc = getattr(types.SimpleNamespace(a=1), '__class__')\nm = c.__mro__",
    ),
    esc(
        "simple_namespace_vars_dunder_key",
        "import types\nn = types.SimpleNamespace()\nvars(n)['__init__'] = print\nc = n.__init__",
    ),
    esc("simple_namespace_other_types", "import types\nf = types.FunctionType"),
    small(
        "simple_namespace_attributes_endless",
        "import types\nn = types.SimpleNamespace()\ni = 0\n"
        "while True:\n    setattr(n, 'a' + str(i), i)\n    i += 1",
        LIMIT,
    ),
    small(
        "simple_namespace_nested_repr",
        "import types\nn = types.SimpleNamespace()\nfor i in range(10**5):\n"
        "    n = types.SimpleNamespace(inner=n)\nprint(n)",
        LIMIT + (r"recursed too deeply", r"nested too deeply"),
        codes=frozenset({0, 1}),
    ),
)

# explore28: nn.init's private fan helpers; a custom Function's gradient summed down to its
# input's shape
_WIDE = (
    "class Wide(torch.autograd.Function):\n"
    "    @staticmethod\n"
    "    def forward(ctx, v):\n"
    "        return v * 2\n"
    "    @staticmethod\n"
    "    def backward(ctx, g):\n"
)
add(
    esc(
        "init_fan_helper_globals",
        "f = torch.nn.init._calculate_fan_in_and_fan_out\ng = f.__globals__",
    ),
    esc("init_fan_helper_code", "c = torch.nn.init._calculate_correct_fan.__code__"),
    esc("init_private_unlisted", "f = torch.nn.init._no_grad_fill_"),
    small(
        "init_fan_helper_fake_tensor",
        "class T:\n    shape = (3, 4)\n    def dim(self):\n        return 2\n"
        "n = torch.nn.init._calculate_fan_in_and_fan_out(T())",
        (r"has no attribute 'dim'",),
    ),
    small(
        "init_correct_fan_mode_object",
        "class M:\n    def lower(self):\n        return 'fan_in'\n"
        "n = torch.nn.init._calculate_correct_fan(torch.ones(2, 2), M())",
        (r"has no attribute 'lower'",),
    ),
    small(
        "custom_grad_sum_to_huge",
        _WIDE + "        return torch.ones(100000, 100000, 3)\n"
        "x = torch.ones(3, requires_grad=True)\nWide.apply(x).sum().backward()",
        LIMIT + (r"too large", r"memory"),
    ),
    small(
        "custom_grad_sum_to_not_a_tensor",
        _WIDE + "        return [[1.0, 2.0, 3.0]] * 4\n"
        "x = torch.ones(3, requires_grad=True)\nWide.apply(x).sum().backward()",
        (r"invalid gradient", r"Tensor", r"not supported"),
    ),
)


# === bfloat16 (a dtype of its own: float32 arrays holding bfloat16 values) ==================
_BF = "b = torch.tensor([0.1, 0.2, 0.7], dtype=torch.bfloat16, requires_grad=True)\n"
add(
    small("bf16_huge", "x = torch.ones(10**10, dtype=torch.bfloat16)", LIMIT + (r"too large",)),
    small(
        "bf16_huge_conversion",
        "x = torch.ones(4000, 4000).to(torch.bfloat16)\ny = x.float() + x.float()",
        LIMIT + (r"too large", r"memory"),
    ),
    small(
        "bf16_matmul_large",
        "a = torch.ones(2000, 2000, dtype=torch.bfloat16)\nb = a @ a @ a @ a",
        LIMIT + (r"too large", r"memory", r"not supported"),
    ),
    small(
        "bf16_grad_loop_forever",
        _BF + "while True:\n    (b * 1.1).sum().backward()",
        LIMIT,
    ),
    small("bf16_numpy", _BF + "a = b.detach().numpy()", (r"unsupported ScalarType BFloat16",)),
    small("bf16_op_without_rule", _BF + "c = b.cumsum(0)", (r"bfloat16 tensor is not supported",)),
    small(
        # (a small product is ATen's own loop, answered; past 16**3 multiply-adds on the
        # avx512 family, oneDNN's order is unknown: a near tie is refused)
        "bf16_matmul_near_tie",
        "a = torch.zeros(1, 4100, dtype=torch.bfloat16)\n"
        "a[0, 0], a[0, 1], a[0, 2] = 1.0, 2**-8, 2**-30\n"
        "c = a @ torch.ones(4100, 1, dtype=torch.bfloat16)",
        (r"depends on the order",),
        env={"GRADCLI_KERNELS": "avx512"},
    ),
    small(
        "bf16_optimizer_without_rule",
        _BF + "o = torch.optim.Rprop([b])\nb.sum().backward()\no.step()",
        (r"bfloat16 parameters is not supported",),
    ),
    small(
        "bf16_nan_inf_overflow",
        "x = torch.tensor([float('nan'), float('inf'), 3e38, -3e38], dtype=torch.bfloat16)\n"
        "print(x * 2, x.sum(), x.max(), x / 0)",
        (),
        codes=frozenset({0}),
    ),
    esc("bf16_dtype_dunder", "c = torch.bfloat16.__class__.__subclasses__()"),
    esc("bf16_data_dunder", _BF + "c = b.data.__array_interface__"),
    esc("bf16_finfo_dunder", "c = torch.finfo(torch.bfloat16).__dict__"),
)


# A custom Function's jvp under forward_ad (the lead, session 24): a jvp that never returns,
# one that applies the Function again (no tangent is carried inside: no recursion), tangents
# of the wrong count or shape, and what save_for_forward is given.
_JVP = (
    "import torch.autograd.forward_ad as fwAD\n"
    "class F(torch.autograd.Function):\n"
    "    @staticmethod\n"
    "    def forward(ctx, x):\n"
    "        ctx.save_for_forward(x)\n"
    "        return x * 2\n"
    "    @staticmethod\n"
    "    def backward(ctx, g):\n"
    "        return g * 2\n"
)
_DUAL = "with fwAD.dual_level():\n    y = F.apply(fwAD.make_dual(torch.ones(3), torch.ones(3)))\n"
add(
    small(
        "custom_jvp_forever",
        _JVP
        + "    @staticmethod\n    def jvp(ctx, t):\n        while True:\n            t = t + 1\n"
        + _DUAL,
        LIMIT,
    ),
    small(
        "custom_jvp_applies_itself",
        _JVP
        + "    @staticmethod\n    def jvp(ctx, t):\n        return F.apply(t)\n"
        + _DUAL
        + "    print(fwAD.unpack_dual(y).tangent)",
        (),
        codes=frozenset({0}),
    ),
    small(
        "custom_jvp_wrong_count",
        _JVP + "    @staticmethod\n    def jvp(ctx, t):\n        return t, t, t\n" + _DUAL,
        (r"invalid number of forward gradients \(expected 1 but got 3\)",),
    ),
    small(
        "custom_jvp_wrong_shape",
        _JVP
        + "    @staticmethod\n    def jvp(ctx, t):\n        return torch.ones(10**6)\n"
        + _DUAL,
        (r"different size",),
    ),
    small(
        "custom_save_for_forward_not_a_tensor",
        _JVP.replace("ctx.save_for_forward(x)", "ctx.save_for_forward(print)")
        + "    @staticmethod\n    def jvp(ctx, t):\n        return t\n"
        + _DUAL,
        (r"save_for_forward expects all arguments to be tensors",),
    ),
)
# argparse: a parser of the program's settings; no dunder name becomes an attribute, its
# tables and the lists it builds are bounded, a `type` runs under the program's limits.
_AP = "import argparse\np = argparse.ArgumentParser()\n"
add(
    esc("argparse_namespace_dunder_kw", "import argparse\nn = argparse.Namespace(__init__=print)"),
    esc("argparse_dest_dunder", _AP + "p.add_argument('--x', dest='__class__')"),
    esc("argparse_option_dunder", _AP + "p.add_argument('--__dict__')"),
    esc("argparse_set_defaults_dunder", _AP + "p.set_defaults(__class__=1)"),
    esc("argparse_namespace_class", _AP + "c = p.parse_args([]).__class__.__mro__"),
    esc("argparse_parser_dunder", _AP + "d = p.__dict__"),
    esc("argparse_parser_private", _AP + "a = p.actions"),
    esc("argparse_formatter", "import argparse\nf = argparse.HelpFormatter('x')"),
    esc("argparse_help_text", _AP + "p.print_help()"),
    small(
        "argparse_type_loops",
        "import argparse\np = argparse.ArgumentParser()\n"
        "def forever(s):\n    while True:\n        pass\n"
        "p.add_argument('--x', type=forever)\nprint(p.parse_args(['--x', '1']))",
        LIMIT,
    ),
    small(
        "argparse_type_recurses",
        "import argparse\np = argparse.ArgumentParser()\n"
        "def deep(s):\n    return deep(s)\n"
        "p.add_argument('--x', type=deep)\nprint(p.parse_args(['--x', '1']))",
        LIMIT + (r"recursed too deeply", r"call depth"),
    ),
    small(
        "argparse_many_arguments",
        "import argparse\np = argparse.ArgumentParser()\n"
        "for i in range(10**5):\n    p.add_argument('--a' + str(i))",
        (r"a parser of more than 1000 arguments",),
    ),
    small(
        "argparse_long_append",
        "import argparse\np = argparse.ArgumentParser()\n"
        "p.add_argument('--t', action='append')\nprint(p.parse_args(['--t', 'x'] * 10**7))",
        LIMIT,
    ),
    small(
        "argparse_many_positionals",
        "import argparse\np = argparse.ArgumentParser()\n"
        "for i in range(10**4):\n    p.add_argument('a' + str(i), nargs='?')",
        (r"100 positional",),
    ),
    small(
        "argparse_huge_nargs",
        "import argparse\np = argparse.ArgumentParser()\n"
        "p.add_argument('--t', nargs=10**9)\nprint(p.parse_args(['--t', 'x']))",
        (r"nargs=1000000000 is not supported",),
    ),
)
# sys: the program's output and stderr, its argv, exit; nothing of the interpreter.
add(
    esc("sys_stderr_class", "import sys\nc = sys.stderr.__class__.__mro__"),
    esc("sys_stderr_write_self", "import sys\nc = sys.stderr.write.__self__"),
    esc("sys_exit_globals", "import sys\ng = sys.exit.__globals__"),
    esc("sys_argv_class", "import sys\nc = sys.argv.__class__.__subclasses__()"),
    esc("sys_modules", "import sys\nm = sys.modules['os']"),
    esc("sys_setprofile", "import sys\nsys.setprofile(print)"),
    esc("sys_path_insert", "import sys\nsys.path.insert(0, '/tmp')\nimport site\nsite.main()"),
    esc("sys_stderr_fileno", "import sys\nsys.stderr.fileno()"),
    small(
        "sys_argv_endless",
        "import sys\ndef forever():\n    while True:\n        yield 'x'\nsys.argv = forever()",
        LIMIT,
    ),
    small(
        "sys_stderr_flood",
        "import sys\nwhile True:\n    sys.stderr.write('x' * 100000 + '\\n')",
        LIMIT,
        # (what the program wrote before the limit is written ahead of the error, as Python
        # would have: the first five writes are kept, 500 KB)
        max_stderr=600_000,
    ),
    small(
        "sys_stderr_no_newline_flood",
        "import sys\nfor i in range(10**6):\n    sys.stderr.write('y' * 1000)",
        LIMIT,
    ),
)
# Float32 attention's backward is the fused kernel's (a loop over heads and query blocks in
# `ops.flash32`): the time limit binds inside it, and past its bound of blocks the composed
# nodes compute.
add(
    timed(
        "time_flash_attention_backward",
        "import torch\nimport torch.nn.functional as F\n"
        "q = torch.randn(16, 16, 64, 32, requires_grad=True)\n"
        "k = torch.randn(16, 16, 64, 32, requires_grad=True)\n"
        "v = torch.randn(16, 16, 64, 32, requires_grad=True)\n"
        "for i in range(10**6):\n"
        "    F.scaled_dot_product_attention(q, k, v, is_causal=True).sum().backward()",
        ["run", "prog.py"],
    ),
    timed(
        "time_flash_attention_many_heads",
        "import torch\nimport torch.nn.functional as F\n"
        "q = torch.randn(256, 256, 32, 2, requires_grad=True)\n"
        "k = torch.randn(256, 256, 2, 2, requires_grad=True)\n"
        "v = torch.randn(256, 256, 2, 2, requires_grad=True)\n"
        "for i in range(10**6):\n"
        "    F.scaled_dot_product_attention(q, k, v).sum().backward()",
        ["run", "prog.py"],
    ),
)
# NumPy's other distributions: sizes bounded before drawing, parameters single numbers.
add(
    small(
        "np_binomial_huge_size",
        "import numpy as np\nx = np.random.binomial(10, 0.5, size=10**9)",
        LIMIT,
    ),
    small(
        "np_generator_gamma_huge_size",
        "import numpy as np\nx = np.random.default_rng(0).gamma(2.0, size=(10**5, 10**5))",
        LIMIT,
    ),
    small(
        "np_poisson_huge_lam",
        "import numpy as np\nx = np.random.poisson(1e300, size=3)",
        (r"lam value too large",),
    ),
    small(
        "np_beta_array_parameters_broadcast_huge",
        "import numpy as np\nx = np.random.beta(np.ones((10**4, 1)), np.ones((1, 10**5)))",
        LIMIT,
    ),
    small(
        "np_normal_array_loc_broadcast_huge",
        "import numpy as np\nx = np.random.normal(np.zeros((10**5, 1)), np.ones(10**5))",
        LIMIT,
    ),
    small(
        "np_generator_normal_array_of_strings",
        "import numpy as np\nx = np.random.default_rng(0).normal(['a', 'b'], 1.0)",
        (r"hold numbers",),
    ),
    small(
        "np_normal_tensor_loc",
        "import numpy as np, torch\nx = np.random.normal(torch.zeros(3), 1.0)",
        (r"not supported",),
    ),
    small(
        "np_arctan2_broadcast_huge",
        "import numpy as np\nx = np.arctan2(np.zeros((10**5, 1)), np.zeros((1, 10**5)))",
        LIMIT,
    ),
    small(
        "np_gradient_rows_huge",
        "import numpy as np\nx = np.gradient(np.zeros((200, 200, 200)))",
        LIMIT,
    ),
    small(
        "np_append_huge",
        "import numpy as np\na = np.zeros(6 * 10**6)\nx = np.append(a, a)",
        LIMIT,
    ),
    small(
        "np_roll_function_argument",
        "import numpy as np\nx = np.roll(np.arange(3), print)",
        (r"must be a number",),
    ),
    small(
        "np_average_tensor_weights",
        "import numpy as np, torch\nx = np.average(np.ones(3), weights=torch.ones(3))",
        (r"not supported",),
    ),
    esc("np_plain_internals", "import numpy as np\nf = np.nanmean.__globals__"),
    small("np_identity_huge", "import numpy as np\nx = np.identity(10**5)", LIMIT),
    small("np_logspace_huge", "import numpy as np\nx = np.logspace(0, 1, 10**9)", LIMIT),
    small("np_kron_huge", "import numpy as np\nx = np.kron(np.ones(10**4), np.ones(10**4))", LIMIT),
    small("np_bincount_huge", "import numpy as np\nx = np.bincount([10**9])", LIMIT),
    small(
        "np_histogram_bins_huge", "import numpy as np\nx = np.histogram([1.0], bins=10**9)", LIMIT
    ),
    small("np_r_slice_huge", "import numpy as np\nx = np.r_[0:10**10]", LIMIT),
    small(
        "np_c_string_directive",
        "import numpy as np\nx = np.c_['0,2', [1, 2], [3, 4]]",
        (r"not supported",),
    ),
    small(
        "np_polyfit_degree_huge",
        "import numpy as np\nx = np.polyfit([0.0, 1.0], [1.0, 2.0], 10**6)",
        (r"not supported",),
    ),
    small("np_cov_rows_huge", "import numpy as np\nx = np.cov(np.ones((10**5, 2)))", LIMIT),
    esc("np_index_trick_internals", "import numpy as np\nf = np.c_.__class__.__dict__"),
    small(
        "np_linalg_inv_work_huge",
        "import numpy as np\nx = np.linalg.inv(np.eye(3000))",
        LIMIT,
    ),
    small(
        "np_linalg_svd_batch_work_huge",
        "import numpy as np\nx = np.linalg.svd(np.ones((1000, 100, 100)))",
        LIMIT,
    ),
    small(
        "np_linalg_solve_tensor",
        "import numpy as np, torch\nx = np.linalg.solve(torch.eye(2), np.ones(2))",
        (r"not supported",),
    ),
    esc(
        "np_linalg_result_internals",
        "import numpy as np\nr = np.linalg.eigh(np.eye(2))\nf = r.__class__.__mro__",
    ),
    small(
        "np_column_stack_huge",
        "import numpy as np\nx = np.column_stack([np.ones(10**7)] * 100)",
        LIMIT,
    ),
    small(
        "np_float32_of_array_of_strings",
        "import numpy as np\nx = np.float32(np.array(['1', '2']))",
        (r"hold numbers",),
    ),
    esc("np_distribution_internals", "import numpy as np\nf = np.random.binomial.__globals__"),
)
# Operator methods of a program's class (__add__, __radd__..., __neg__, __abs__): user code the
# interpreter calls as Python does; nothing of Python's object model comes with them.
_OPS = "class V:\n    def __init__(self, d):\n        self.d = d\n"
add(
    small(
        "operator_add_recurses",
        _OPS + "    def __add__(self, o):\n        return self + o\nV(1) + 2",
        LIMIT + (r"depth of function calls",),
    ),
    small(
        "operator_radd_ping_pong",
        _OPS + "    def __radd__(self, o):\n        return o + self\n1 + V(1)",
        LIMIT + (r"depth of function calls",),
    ),
    small(
        "operator_neg_of_neg",
        _OPS + "    def __neg__(self):\n        return -self\n-V(1)",
        LIMIT + (r"depth of function calls",),
    ),
    small(
        "operator_sum_endless",
        _OPS + "    def __radd__(self, o):\n        return self\n"
        "def forever():\n    while True:\n        yield V(1)\nsum(forever())",
        LIMIT,
    ),
    small(
        "operator_chain_grows_strings",
        _OPS + "    def __mul__(self, o):\n        return V(self.d * o)\n"
        "v = V('x')\nfor _ in range(100):\n    v = v * 2",
        LIMIT + (r"too long", r"length"),
    ),
    esc(
        "operator_method_class_mro",
        _OPS + "    def __add__(self, o):\n        return o.__class__.__mro__\nV(1) + V(2)",
    ),
    esc(
        "operator_method_globals",
        _OPS + "    def __add__(self, o):\n        return 1\ng = V.__add__.__globals__",
    ),
    # the program's own operator method called by name runs it (as Python does): nothing
    # but the program's code is reached
    esc(
        "operator_call_dunder_directly",
        _OPS + "    def __add__(self, o):\n        return 1\nV(1).__add__(2)",
        codes=frozenset({0}),
    ),
    esc(
        "operator_dunder_of_program_method",
        _OPS + "    def __add__(self, o):\n        return 1\nc = V(1).__add__.__func__",
    ),
    esc("not_implemented_class", "c = NotImplemented.__class__.__mro__"),
    esc("not_implemented_reduce", "c = NotImplemented.__reduce__()"),
    esc(
        "operator_eq_still_refused",
        _OPS + "    def __eq__(self, o):\n        return True",
    ),
    esc(
        "operator_iadd_refused",
        _OPS + "    def __iadd__(self, o):\n        return self",
    ),
)
# unittest: TestCase is a table of gradcli's methods the program's classes derive from; no
# dunder or private name of it, of a test, of assertRaises' context or of a result is reached,
# its table is not changed, a regular expression is not run, a failure's diff is not computed
# for texts difflib would take seconds on, and a limit inside a test ends the run.
_UT = (
    "import unittest\nclass T(unittest.TestCase):\n    def runTest(self):\n        pass\nt = T()\n"
)
add(
    esc("unittest_testcase_dict", "import unittest\nd = unittest.TestCase.__dict__"),
    esc("unittest_testcase_mro", "import unittest\nd = unittest.TestCase.__mro__"),
    esc(
        "unittest_method_globals", "import unittest\nd = unittest.TestCase.assertEqual.__globals__"
    ),
    esc("unittest_bound_self", _UT + "d = t.assertEqual.__self__.__class__"),
    esc("unittest_set_base_table", "import unittest\nunittest.TestCase.assertEqual = print"),
    esc("unittest_cm_private", _UT + "cm = t.assertRaises(ValueError)\nd = cm.test"),
    esc("unittest_cm_dunder", _UT + "cm = t.assertRaises(ValueError)\nd = cm.__dict__"),
    esc(
        "unittest_result_stream",
        _UT + "r = unittest.TextTestRunner()\nd = r.stream",
    ),
    esc("unittest_mock", "import unittest\nm = unittest.mock.patch('os.system')"),
    esc("unittest_internal_tests", "from torch.testing._internal.common_utils import run_tests"),
    esc(
        "unittest_regex",
        _UT + "t.assertRaisesRegex(ValueError, '(a+)+$', int, 'a' * 40 + 'b')",
    ),
    esc("unittest_main_module", "import unittest\nunittest.main(module='os')"),
    small(
        "unittest_main_recurses",
        "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n"
        "        unittest.main(exit=False)\nunittest.main()",
        LIMIT,
    ),
    small(
        "unittest_loop_in_assert_raises",
        "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n"
        "        with self.assertRaises(Exception):\n"
        "            while True:\n                pass\nunittest.main()",
        LIMIT,
    ),
    small(
        "unittest_loop_in_subtest",
        "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n"
        "        with self.subTest(i=0):\n            while True:\n                pass\n"
        "unittest.main()",
        LIMIT,
    ),
    small(
        "unittest_many_tests",
        "import unittest\nclass T(unittest.TestCase):\n    pass\n"
        "def f(self):\n    pass\nfor i in range(10**6):\n    setattr(T, 'test_' + str(i), f)\n"
        "unittest.main()",
        LIMIT,
    ),
    small(
        "unittest_large_diffs",
        _UT.replace("import unittest\n", "import unittest\nimport torch\n")
        + "a = [str(i) * 40 for i in range(300)]\nb = [s + 'x' for s in a]\n"
        "for k in range(20):\n    try:\n        t.assertEqual(a, b)\n"
        "    except AssertionError as e:\n        n = len(str(e))\nprint(n)",
        (),
        codes=frozenset({0}),
    ),
    small(
        "unittest_long_messages",
        _UT + "for k in range(10**6):\n    try:\n        t.assertEqual('x' * 10**5, 'y')\n"
        "    except AssertionError as e:\n        pass",
        LIMIT,
    ),
)
# trace of float32 in double (explore37): a pass over the diagonal only, bounded by the matrix
add(
    small("trace_many_times", "x = torch.ones(3000, 3000)\nwhile True:\n    t = x.trace()", LIMIT),
    small(
        "trace_wide_matrix",
        "x = torch.ones(2, 10**6)\nprint(torch.trace(x))",
        REFUSED + LIMIT,
        codes=frozenset({0, 1}),
    ),
)
# Complex products' gradients (mul, matmul): the conjugate operand is a recorded op, under the
# program's limits like every other (explore37).
add(
    small(
        "complex_matmul_backward_forever",
        "a = torch.ones(64, 64, dtype=torch.complex64, requires_grad=True)\n"
        "while True:\n    (a @ a).real.sum().backward()",
        LIMIT,
    ),
    small(
        "complex_mul_create_graph_chain",
        "z = torch.ones(1000, dtype=torch.complex128, requires_grad=True)\ng = z\n"
        "while True:\n    (g,) = torch.autograd.grad((g * z).real.sum(), z, create_graph=True)",
        LIMIT,
    ),
    small(
        "complex_mv_huge_outer",
        "m = torch.ones(30000, 1, dtype=torch.complex64, requires_grad=True)\n"
        "v = torch.ones(1, dtype=torch.complex64)\n"
        "x = torch.ones(1, 30000, dtype=torch.complex64)\n(x @ (m @ v)).real.sum().backward()",
        REFUSED + LIMIT,
        codes=frozenset({0, 1}),
    ),
)
# Calling a grad_fn node: its rule on a gradient of the output's shape and dtype only, under
# the program's limits; nothing of the node beyond PyTorch's names is reached.
_NODE = "x = torch.ones(1000, requires_grad=True)\ny = x.exp()\n"
add(
    small(
        "node_call_forever",
        _NODE + "g = torch.ones(1000)\nwhile True:\n    g = y.grad_fn(g)",
        LIMIT,
    ),
    small("node_call_not_a_tensor", _NODE + "y.grad_fn('a')", (r"must be a Tensor",)),
    small("node_call_huge_gradient", _NODE + "y.grad_fn(torch.ones(10**7))", REFUSED + LIMIT),
    small("node_call_keywords", _NODE + "y.grad_fn(grad=torch.ones(1000))", (r"keyword",)),
    esc("node_call_dunder", _NODE + "f = y.grad_fn.__call__"),
    esc("node_call_op", _NODE + "f = y.grad_fn.op.vjp"),
)
# Module.buffers() / named_buffers() are generators (as PyTorch's): the generator's frame and
# code are out of reach, as every generator's, and a walk of them is bounded by the program's
# limits.
_BUF = "m = torch.nn.BatchNorm1d(3)\n"
add(
    esc("buffers_gen_frame", _BUF + "f = m.buffers().gi_frame"),
    esc("named_buffers_gen_code", _BUF + "c = m.named_buffers().gi_code"),
    esc("buffers_gen_send", _BUF + "g = m.buffers()\ng.send(None)"),
    small(
        "buffers_gen_forever",
        _BUF + "while True:\n    for b in m.buffers():\n        pass",
        LIMIT,
    ),
)
# Modules whose parameters together would take more memory than a program may: refused before
# any is drawn (each parameter alone is within tensor_elements; their sum is checked against
# memory_mb), and stacks of layers deep-copied past it.
add(
    budget("lstm_layers_memory", "m = torch.nn.LSTM(1000, 1000, num_layers=60)", (r"memory_mb",)),
    budget(
        "transformer_wide_memory",
        "m = torch.nn.Transformer(d_model=2048, dim_feedforward=8192)",
        (r"memory_mb",),
    ),
    budget(
        "decoder_stack_memory",
        "l = torch.nn.TransformerDecoderLayer(512, 8)\n"
        "m = torch.nn.TransformerDecoder(l, num_layers=100)",
        (r"memory_mb",),
    ),
    budget("gru_one_huge_parameter", "m = torch.nn.GRU(100000, 100000)", LIMIT),
)
# Type hints as values (`tuple[torch.Tensor, ...]`, `torch.Tensor | None`): their text is
# bounded, their members are out of reach, a union of non-types is Python's TypeError.
add(
    small(
        "hint_alias_doubling",
        "u = int\nfor i in range(100):\n    u = list[u] | dict[str, u]",
        LIMIT,
    ),
    small("hint_alias_wide", "u = tuple[(int,) * 10**7]", LIMIT),
    esc("hint_alias_origin", "o = tuple[int, ...].__origin__"),
    esc("hint_union_args", "a = (int | None).__args__"),
    esc("hint_alias_mro", "m = list[int].__mro__"),
    small("hint_union_not_types", "u = int | 3", (r"unsupported operand",)),
    small("hint_alias_of_tensor", "u = list[torch.ones(2)]", REFUSED),
    small("hint_alias_isinstance", "isinstance(3, list[int])", (r"parameterized generic",)),
)
# A program's exception classes (`class ShapeError(ValueError):`): plain classes whose instances
# `raise` carries; their __str__ runs under the program's limits, Python's internals stay out of
# reach, and only classes deriving from an exception class can be caught.
_EXC = "class E(ValueError):\n    pass\n"
add(
    small(
        "exc_str_recursion",
        "class E(Exception):\n    def __str__(self):\n        return str(self)\nraise E()",
        LIMIT + (r"recursion",),
    ),
    small(
        "exc_str_forever",
        "class E(Exception):\n    def __str__(self):\n        while True:\n            pass\n"
        "raise E()",
        LIMIT,
    ),
    small(
        "exc_str_not_text",
        "class E(Exception):\n    def __str__(self):\n        return 3\nraise E()",
        (r"__str__ returned non-string",),
    ),
    small(
        "exc_init_raises_itself",
        "class E(Exception):\n    def __init__(self):\n        raise E()\nraise E()",
        LIMIT + (r"recursion",),
    ),
    esc("exc_new", "class E(Exception):\n    def __new__(cls):\n        return 1\n"),
    esc("exc_traceback", _EXC + "try:\n    raise E('x')\nexcept E as e:\n    t = e.__traceback__"),
    esc("exc_class_dict", _EXC + "d = E.__dict__"),
    esc("exc_with_traceback", _EXC + "E('x').with_traceback(None)", REFUSED + (r"attribute",)),
    small(
        "exc_catch_plain_class",
        "class P:\n    pass\ntry:\n    raise ValueError('x')\nexcept P:\n    pass",
        (r"do not inherit from BaseException",),
    ),
    small("exc_module_mixin", "class E(torch.nn.Module, ValueError):\n    pass", REFUSED),
    small("exc_keyword_args", _EXC + "raise E(code=3)", (r"takes no keyword arguments",)),
)
# torch.nn.utils.prune (feat23): the pruning hooks and method classes show PyTorch's names only;
# a program's pruning method runs under the program's limits; pruning without end is stopped.
_PR = (
    "import torch.nn as nn\nimport torch.nn.utils.prune as prune\nm = nn.Linear(3, 3)\n"
    "prune.l1_unstructured(m, 'weight', amount=0.5)\n"
    "h = list(m._forward_pre_hooks.values())[0]\n"
)
_PRC = "class P(prune.BasePruningMethod):\n    PRUNING_TYPE = 'unstructured'\n"
add(
    esc("prune_hook_dict", _PR + "d = h.__dict__"),
    esc("prune_hook_internal_method", _PR + "f = h.mask_of"),
    esc("prune_hook_call_dunder", _PR + "f = h.__call__"),
    esc("prune_class_mro", _PR + "c = prune.L1Unstructured.__mro__"),
    esc("prune_base_subclasses", _PR + "c = prune.BasePruningMethod.__subclasses__()"),
    esc("prune_function_globals", _PR + "g = prune.l1_unstructured.__globals__"),
    esc("prune_hook_set_class", _PR + "h.__class__ = int"),
    esc("prune_dunder_name", _PR + "prune.l1_unstructured(m, '__class__', amount=1)"),
    esc(
        "prune_container_insides",
        _PR + "prune.l1_unstructured(m, 'weight', amount=1)\n"
        "h = list(m._forward_pre_hooks.values())[0]\nc = h._pruning_methods.__class__.__base__",
    ),
    esc(
        "prune_program_method_dict",
        _PR + _PRC + "    def compute_mask(self, t, d):\n"
        "        return self.__dict__\nP.apply(m, 'bias')",
    ),
    esc(
        "prune_program_method_getattr",
        _PR + _PRC + "    def __getattr__(self, n):\n        return 1",
    ),
    small(
        "prune_program_method_recursion",
        _PR + _PRC + "    def compute_mask(self, t, d):\n        return P().compute_mask(t, d)\n"
        "P.apply(m, 'bias')",
        LIMIT + (r"recursion", r"depth"),
    ),
    small(
        "prune_program_method_not_a_tensor",
        _PR + _PRC + "    def compute_mask(self, t, d):\n        return 3\nP.apply(m, 'bias')",
        (r"must return the mask as a tensor",),
    ),
    small(
        "prune_without_end",
        _PR + "for i in range(10**6):\n    prune.l1_unstructured(m, 'weight', amount=0)",
        LIMIT,
        env={"GRADCLI_TIME_SECONDS": "3"},
        seconds=8.0,
    ),
    small("prune_huge_tensor", _PR + "t = h.prune(torch.ones(10**5, 10**4))", LIMIT),
    small(
        "prune_global_generator",
        _PR + "prune.global_unstructured((p for p in [(m, 'bias')]), prune.L1Unstructured, "
        "amount=1)",
        (r"not supported",),
    ),
)
# Methods named like dunders (feat23): a name Python gives no meaning is the program's own
# method, reached on the program's own values only; a module's container protocol runs under
# the program's limits; Python's own names stay refused.
_MD = "import torch.nn as nn\n"
add(
    esc("own_dunder_on_torch", "x = torch.__own_name__"),
    esc("own_dunder_getattr_on_torch", "x = getattr(torch, '__own_name__')"),
    esc("own_dunder_on_int", "x = (1).__own_name__"),
    esc(
        "own_dunder_method_globals",
        "class A:\n    def __own__(self):\n        return 1\nx = A().__own__.__globals__",
    ),
    esc(
        "own_dunder_setattr",
        "class A:\n    def __own__(self):\n        return 1\nsetattr(A(), '__own__', 2)",
    ),
    esc(
        "module_dunder_getattr",
        _MD + "class M(nn.Module):\n    def __getattribute__(self, n):\n        return 1",
    ),
    esc(
        "module_dunder_reduce",
        _MD + "class M(nn.Module):\n    def __reduce__(self):\n        return 1",
    ),
    esc(
        "module_dunder_torch_function",
        _MD + "class M(nn.Module):\n    def __torch_function__(self, *a):\n        return 1",
    ),
    small(
        "module_repr_recursion",
        _MD + "class M(nn.Module):\n    def __repr__(self):\n        return repr(self)\nprint(M())",
        LIMIT,
    ),
    small(
        "module_iter_forever",
        _MD + "class M(nn.Module):\n    def __iter__(self):\n        while True:\n"
        "            yield 1\nfor v in M():\n    pass",
        LIMIT,
    ),
    small(
        "module_getitem_forever",
        _MD + "class M(nn.Module):\n    def __getitem__(self, i):\n        return i\n"
        "print(list(M()))",
        LIMIT,
    ),
    small(
        "own_dunder_recursion",
        "class A:\n    def __own__(self):\n        return self.__own__()\nA().__own__()",
        LIMIT,
    ),
    small(
        "module_len_negative",
        _MD + "class M(nn.Module):\n    def __len__(self):\n        return -1\nlen(M())",
        (r"should return >= 0",),
    ),
)
# Distribution transforms with event dims (feat23): nesting without end and sizes beyond the
# limits are stopped; the transforms show their attributes only.
_TR = (
    "from torch.distributions import Normal, TransformedDistribution\n"
    "from torch.distributions.transforms import ComposeTransform, ExpTransform, "
    "IndependentTransform, ReshapeTransform, StackTransform\n"
)
add(
    small(
        "compose_transform_nested_deep",
        _TR + "t = ExpTransform()\nfor i in range(100000):\n    t = ComposeTransform([t])\n"
        "print(t.event_dim)",
        LIMIT + (r"recursed too deeply",),
    ),
    small(
        "independent_transform_nested_deep",
        _TR + "t = ExpTransform()\nfor i in range(100000):\n    t = IndependentTransform(t, 0)\n"
        "print(t(torch.ones(2)))",
        LIMIT + (r"recursed too deeply",),
    ),
    small(
        "stack_transform_many",
        _TR + "t = StackTransform([ExpTransform()] * 10**6, dim=0)\nprint(t(torch.ones(10**6)))",
        LIMIT + REFUSED,
    ),
    small(
        "reshape_transform_huge",
        _TR + "t = ReshapeTransform((1000,), (10, 100))\n"
        "d = TransformedDistribution(Normal(torch.zeros(1000), 1.0), t)\n"
        "print(d.sample((10**5,)).shape)",
        LIMIT,
    ),
    esc(
        "compose_transform_parts_insides", _TR + "c = ComposeTransform([]).parts.__class__.__mro__"
    ),
    esc("transform_dict", _TR + "d = ExpTransform().__dict__"),
)

# explore39: complex nn.Linear / F.linear / addmm, and a module cast in place
add(
    small(
        "complex_linear_huge",
        "m = torch.nn.Linear(20000, 20000).to(torch.cdouble)\n"
        "print(m(torch.ones(20000, 20000, dtype=torch.cdouble)).abs().sum())",
        LIMIT,
    ),
    small(
        "complex_addmm_huge_batch",
        "a = torch.ones(40000, 8000, dtype=torch.cfloat)\n"
        "print(torch.addmm(torch.ones(8000, dtype=torch.cfloat), a, a.t()).sum())",
        LIMIT,
    ),
    small(
        "module_cast_many_times",
        "m = torch.nn.Linear(4, 4)\nfor i in range(10**8):\n    m.double()\n    m.float()",
        LIMIT,
    ),
    small(
        "complex_module_to_real",
        "m = torch.nn.Linear(2, 2).to(torch.cfloat)\nm.to(torch.float32)",
        REFUSED,
    ),
    esc("cast_module_param_insides", "m = torch.nn.Linear(2, 2)\nm.double()\nm.weight.__dict__"),
)

# explore44: `import torch.backends.cudnn as cudnn` binds the settings object itself
add(
    esc("cudnn_alias_dunder", "import torch.backends.cudnn as cudnn\nd = cudnn.__dict__"),
    esc("cudnn_alias_values", "import torch.backends.cudnn as cudnn\nv = cudnn.values"),
    esc(
        "cudnn_alias_set_function",
        "import torch.backends.cudnn as cudnn\ncudnn.benchmark = print",
        ("expects a bool",),
    ),
    esc(
        "cuda_matmul_import_as",
        "import torch.backends.cuda.matmul as mm\nmm.allow_tf32 = print",
        (r"No module named",),
    ),
)

# explore45: arange's step and end given by keyword after positions
add(
    budget("arange_keyword_tiny_step", "x = torch.arange(0, 1, step=1e-12)"),
    budget("arange_keyword_end_huge", "x = torch.arange(0, end=1e12, step=0.5)"),
)

# explore45: a retained gradient across a create_graph pass, many times over
add(
    small(
        "retain_grad_create_graph_loop",
        "x = torch.ones(1000, requires_grad=True)\nh = x * 2\nh.retain_grad()\n"
        "for i in range(10**7):\n    g, = torch.autograd.grad(h.sum(), x, create_graph=True)",
        LIMIT,
    ),
)

# explore45: numpy.convolve, its multiply-adds bounded
add(
    small(
        "np_convolve_huge",
        NP + "a = np.convolve(np.ones(10**6), np.ones(10**6))",
        LIMIT,
    ),
)

# explore43: `del ctx.name` in a custom Function
_CTXF = (
    "class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
    "        {}\n        return x * 2\n"
    "    @staticmethod\n    def backward(ctx, g):\n        return g\n"
    "F.apply(torch.ones(2, requires_grad=True))\n"
)
add(
    esc("ctx_del_dunder", _CTXF.format("del ctx.__dict__")),
    esc("ctx_delattr_class", _CTXF.format("delattr(ctx, '__class__')")),
    esc("ctx_del_method", _CTXF.format("del ctx.save_for_backward")),
    small(
        "ctx_del_many_times",
        _CTXF.format("for i in range(10**9):\n            ctx.a = i\n            del ctx.a"),
        LIMIT,
    ),
)

# fixsem: an instance of the program's class (with __call__) as a hook
_CALLHOOK = (
    "class H:\n    def __call__(self, g):\n        {}\n"
    "x = torch.ones(2, requires_grad=True)\ny = x * 2\ny.register_hook(H())\ny.sum().backward()\n"
)
add(
    small("callable_hook_loops", _CALLHOOK.format("while True:\n            g = g + 1"), LIMIT),
    small(
        "callable_hook_recurses",
        _CALLHOOK.format("return self(g)"),
        DEPTH,
    ),
    esc("callable_hook_dunder", _CALLHOOK.format("return g.__class__.__subclasses__()")),
    small(
        "callable_hook_backward_inside",
        _CALLHOOK.format("y.sum().backward(retain_graph=True)\n        return g"),
        DEPTH + (r"[Rr]eentrant", r"backward", r"graph"),
    ),
)

# NumPy's grids (np.mgrid/ogrid take numbers in slices), pad, insert, correlate and the draws
# of vectors: sized before NumPy runs; numbers in slices stay refused everywhere else.
add(
    small("np_mgrid_huge", "import numpy as np\nx = np.mgrid[0:10**4, 0:10**4]", LIMIT),
    small("np_mgrid_count_huge", "import numpy as np\nx = np.mgrid[0:1:1000000000j]", LIMIT),
    small("np_ogrid_huge", "import numpy as np\nx = np.ogrid[0:1:0.000000001]", LIMIT),
    small(
        "np_mgrid_of_strings",
        "import numpy as np\nx = np.mgrid['a':'b']",
        (r"slice indices must be integers",),
    ),
    small(
        "np_mgrid_not_a_slice",
        "import numpy as np\nx = np.mgrid[[1, 2]]",
        (r"takes slices",),
    ),
    small(
        "float_slice_of_list_refused",
        "a = [1, 2, 3]\nx = a[0:1.5]",
        (r"slice indices must be integers",),
    ),
    small(
        "complex_slice_store_refused",
        "import torch\nx = torch.zeros(3)\nx[0:2j] = 1",
        (r"slice indices must be integers",),
    ),
    small(
        "float_slice_delete_refused",
        "a = [1, 2, 3]\ndel a[0.5:]",
        (r"slice indices must be integers",),
    ),
    esc("np_mgrid_internals", "import numpy as np\nf = np.mgrid.__class__.__dict__"),
    small("np_pad_huge", "import numpy as np\nx = np.pad(np.ones(3), 10**9)", LIMIT),
    small(
        "np_pad_huge_2d",
        "import numpy as np\nx = np.pad(np.ones((2, 2)), ((0, 10**5), (0, 10**5)))",
        LIMIT,
    ),
    small(
        "np_pad_function_mode",
        "import numpy as np\ndef f(v, w, i, k):\n    pass\nx = np.pad(np.ones(3), 1, mode=f)",
        (r"not supported",),
    ),
    small(
        "np_pad_unknown_keyword",
        "import numpy as np\nx = np.pad(np.ones(3), 1, evil=print)",
        (r"unexpected keyword",),
    ),
    small(
        "np_insert_huge",
        "import numpy as np\nx = np.insert(np.ones(3), 0, np.ones(10**7 * 2))",
        LIMIT,
    ),
    small(
        "np_insert_many_places",
        "import numpy as np\nx = np.insert(np.ones((10**4, 10**3)), list(range(1000)), 1, axis=1)",
        LIMIT,
    ),
    small(
        "np_correlate_work_huge",
        "import numpy as np\nx = np.correlate(np.ones(10**6), np.ones(10**6), 'full')",
        LIMIT,
    ),
    small(
        "np_multivariate_normal_size_huge",
        "import numpy as np\nx = np.random.multivariate_normal([0, 0], np.eye(2), 10**8)",
        LIMIT,
    ),
    small(
        "np_multivariate_normal_work_huge",
        "import numpy as np\nx = np.random.multivariate_normal(np.zeros(3000), np.eye(3000))",
        LIMIT,
    ),
    small(
        "np_multivariate_normal_tensor_mean",
        "import numpy as np, torch\nx = np.random.multivariate_normal(torch.zeros(2), np.eye(2))",
        (r"not supported",),
    ),
    small(
        "np_dirichlet_size_huge",
        "import numpy as np\nx = np.random.default_rng(0).dirichlet(np.ones(10), 10**8)",
        LIMIT,
    ),
    small(
        "np_multinomial_huge_count_is_quick",
        "import numpy as np\nx = np.random.multinomial(10**18, [0.5, 0.5], size=10**8)",
        LIMIT,
    ),
    esc("np_vector_draw_internals", "import numpy as np\nf = np.random.dirichlet.__globals__"),
)

# collections.Counter: counting reads items through the bounded sequence reader; elements()
# is sized first; counts that are not numbers are refused in Counter arithmetic.
add(
    small(
        "counter_of_endless_generator",
        "from collections import Counter\ndef g():\n    while True:\n        yield 1\n"
        "c = Counter(g())",
        LIMIT,
    ),
    small(
        "counter_elements_huge",
        "from collections import Counter\nc = Counter(a=10**18)\nx = list(c.elements())",
        LIMIT,
    ),
    small(
        "counter_elements_float_count",
        "from collections import Counter\nc = Counter(a=1.5)\nx = list(c.elements())",
        (r"cannot be interpreted as an integer",),
    ),
    small(
        "counter_update_huge_range",
        "from collections import Counter\nc = Counter()\nc.update(range(10**9))",
        LIMIT,
    ),
    small(
        "counter_sum_of_tensor_counts",
        "import torch\nfrom collections import Counter\nc = Counter({'a': torch.ones(2)})\n"
        "d = c + c",
        (r"not supported",),
    ),
    small(
        "counter_doubling_loop",
        "from collections import Counter\nc = Counter(range(1000))\nfor i in range(10**9):\n"
        "    c = c + c",
        LIMIT,
    ),
    esc("counter_internals", "from collections import Counter\nf = Counter().__class__.__mro__"),
    esc("counter_missing_hook", "from collections import Counter\nf = Counter().__missing__"),
)

# A program's Distribution subclass: its methods are user code under the usual limits; the
# base's sample calls the program's rsample; dunders and internals stay out of reach.
_DIST = (
    "import torch\nfrom torch.distributions import Distribution\n"
    "class Q(Distribution):\n    arg_constraints = {{}}\n"
    "    def __init__(self):\n        super().__init__(validate_args=False)\n{}"
)
add(
    small(
        "distribution_rsample_recurses",
        _DIST.format("    def rsample(self, s=torch.Size()):\n        return self.sample(s)\n")
        + "Q().sample()",
        DEPTH,
    ),
    small(
        "distribution_log_prob_loops",
        _DIST.format("    def log_prob(self, v):\n        while True:\n            v = v + 1\n")
        + "Q().log_prob(torch.ones(1))",
        LIMIT,
    ),
    small(
        "distribution_dunder_method",
        _DIST.format("    def __getattribute__(self, n):\n        return 1\n") + "Q()",
        (r"not supported",),
    ),
    small(
        "distribution_set_dunder",
        _DIST.format("") + "q = Q()\nq.__class__ = int",
        (r"not supported", r"not accessible"),
    ),
    small(
        "distribution_bad_batch_shape",
        "import torch\nfrom torch.distributions import Distribution\n"
        "class Q(Distribution):\n    def __init__(self):\n"
        "        super().__init__(batch_shape=print)\nQ()",
        (r"batch_shape must be",),
    ),
    small(
        "distribution_huge_sample_shape",
        _DIST.format("    def rsample(self, s=torch.Size()):\n        return torch.zeros(s)\n")
        + "Q().sample((10**6, 10**6))",
        LIMIT,
    ),
    esc("distribution_instance_internals", _DIST.format("") + "f = Q().__dict__"),
    esc("distribution_class_internals", _DIST.format("") + "f = Q.__mro__"),
)

# np.apply_along_axis: the program's function once per slice, each call a loop iteration, the
# result sized after the first call; what the function returns must be numbers.
add(
    small(
        "np_apply_along_axis_many_calls",
        "import numpy as np\nx = np.apply_along_axis(lambda r: 0, 1, np.zeros((2 * 10**6, 1)))",
        LIMIT,
    ),
    small(
        "np_apply_along_axis_huge_rows",
        "import numpy as np\n"
        "x = np.apply_along_axis(lambda r: np.zeros(10**5), 1, np.zeros((1000, 2)))",
        LIMIT,
    ),
    small(
        "np_apply_along_axis_recursion",
        "import numpy as np\ndef f(r):\n    return np.apply_along_axis(f, 0, r)\nf(np.zeros(3))",
        DEPTH + LIMIT,
    ),
    small(
        "np_apply_along_axis_returns_function",
        "import numpy as np\nx = np.apply_along_axis(lambda r: print, 0, np.zeros((2, 2)))",
        (r"returned",),
    ),
    small(
        "np_apply_along_axis_returns_tensor",
        "import numpy as np, torch\n"
        "x = np.apply_along_axis(lambda r: torch.ones(2), 0, np.zeros((2, 2)))",
        (r"returned",),
    ),
)

# A program's subclass of one of torch's modules (nn.Linear, nn.Sequential...): the module's
# own __init__ checks its arguments; the program's methods run under the usual limits.
add(
    small(
        "library_subclass_forward_recurses",
        "import torch, torch.nn as nn\nclass L(nn.Linear):\n    def forward(self, x):\n"
        "        return self(x)\nL(2, 2)(torch.ones(1, 2))",
        DEPTH,
    ),
    small(
        "library_subclass_huge_layer",
        "import torch.nn as nn\nclass L(nn.Linear):\n    pass\nL(10**6, 10**6)",
        LIMIT,
    ),
    small(
        "library_subclass_sequential_endless",
        "import torch.nn as nn\nclass S(nn.Sequential):\n    def __init__(self):\n"
        "        super().__init__(*[nn.ReLU() for _ in range(10**9)])\nS()",
        LIMIT,
    ),
    small(
        "library_subclass_reset_parameters_recurses",
        "import torch.nn as nn\nclass L(nn.Linear):\n    def reset_parameters(self):\n"
        "        self.reset_parameters()\nL(2, 2)",
        DEPTH,
    ),
    small(
        "library_subclass_reset_parameters_inits_again",
        "import torch.nn as nn\nclass C(nn.Conv2d):\n    def reset_parameters(self):\n"
        "        super().__init__(1, 1, 1)\nC(2, 2, 3)",
        DEPTH,
    ),
    small(
        "library_subclass_reset_parameters_endless",
        "import torch.nn as nn\nclass C(nn.LayerNorm):\n    def reset_parameters(self):\n"
        "        while True:\n            nn.init.ones_(self.weight)\nC(4)",
        LIMIT,
    ),
    small(
        "library_subclass_of_made_conv_huge",
        "import torch.nn as nn\nclass C(nn.Conv2d):\n    pass\nC(10**5, 10**5, 99)",
        LIMIT,
    ),
    small(
        "library_subclass_of_shared_activation_bad_args",
        "import torch.nn as nn\nclass A(nn.ReLU):\n    def __init__(self):\n"
        "        super().__init__(print)\nA()(torch.ones(2))",
        (r"inplace", r"bool", r"not supported"),
        codes=frozenset({0, 1}),
    ),
    esc(
        "library_subclass_of_made_internals",
        "import torch.nn as nn\nclass A(nn.Tanh):\n    pass\nf = A().__class__.__mro__",
    ),
    esc(
        "function_node_ctx_internals",
        "class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
        "        ctx.k = 2\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n"
        "        return g * 2\ny = F.apply(torch.ones(2, requires_grad=True))\n"
        "f = y.grad_fn._vjp",
    ),
    esc(
        "function_node_ctx_dunder",
        "class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
        "        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n"
        "        return g * 2\ny = F.apply(torch.ones(2, requires_grad=True))\n"
        "f = y.grad_fn.__dict__",
    ),
    esc(
        "library_subclass_of_made_make",
        "import torch.nn as nn\nclass A(nn.Conv1d):\n    pass\nf = A.MAKE",
    ),
    esc(
        "library_subclass_internals",
        "import torch.nn as nn\nclass L(nn.Linear):\n    pass\nf = L(2, 2).__class__.__mro__",
    ),
)

# explore59: module containers joined (`mods.extend(other_mods)`, `+`, `+=`), their sizes bounded
add(
    small(
        "modulelist_doubled_by_add",
        "m = torch.nn.ModuleList([torch.nn.ReLU()])\nfor i in range(60):\n    m = m + m",
        LIMIT,
    ),
    small(
        "sequential_doubled_by_iadd",
        "m = torch.nn.Sequential(torch.nn.ReLU())\nfor i in range(60):\n"
        "    m += torch.nn.Sequential(*m)",
        LIMIT,
    ),
    small(
        "parameterlist_extended_by_itself",
        "p = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(1))])\n"
        "for i in range(60):\n    p.extend(p)",
        LIMIT,
    ),
    small(
        "sequential_times_huge",
        "s = torch.nn.Sequential(torch.nn.ReLU())\ns = s * 10**12",
        LIMIT,
    ),
    small(
        "sequential_imul_doubling",
        "s = torch.nn.Sequential(torch.nn.ReLU())\nfor i in range(60):\n    s *= 2",
        LIMIT,
    ),
    small(
        "modulelist_insert_at_front_quadratic",
        "m = torch.nn.ModuleList()\nr = torch.nn.ReLU()\nfor i in range(10**6):\n"
        "    m.insert(0, r)",
        LIMIT,
    ),
    small(
        "modulelist_extended_by_itself_forever",
        "m = torch.nn.ModuleList([torch.nn.ReLU()])\nwhile True:\n    try:\n"
        "        m.extend(m)\n    except RuntimeError:\n        pass",
        LIMIT,
    ),
)

# fixlay: NumPy's integers and bools kept as NumPy gives them (`np.argmax(a)`), taken where
# Python takes an index; a NumPy number compared with a list compares item by item
add(
    small(
        "np_int_range_huge",
        NP + "n = np.array([10**12]).sum()\nfor i in range(n):\n    pass",
        LIMIT,
    ),
    small(
        "np_int_tensor_size_huge",
        NP + "import torch\nn = np.array([10**6]).max()\nx = torch.zeros(n, n)",
        LIMIT,
    ),
    small(
        "np_int_list_repeat_huge",
        NP + "n = np.argmax(np.array([0, 10**9]))\nk = np.array([10**9])[0]\ny = [0] * k",
        LIMIT,
    ),
    small(
        "np_number_compared_with_huge_list",
        NP + "x = [0] * 10**6\nfor i in range(10**6):\n    x = [x]\nprint(np.int64(1) == x)",
        LIMIT + (r"deep", r"nest", r"depth", r"recursion"),
    ),
    esc(
        "np_int_format_attribute",
        NP + "n = np.argmax(np.array([1, 2]))\nprint('{0.__class__}'.format(n))",
    ),
)

# fixlay: torch.utils.hooks.RemovableHandle, for isinstance and annotations
_HOOKS = "import torch.utils.hooks\nR = torch.utils.hooks.RemovableHandle\n"
add(
    esc("removable_handle_subclasses", _HOOKS + "print(R.__subclasses__())"),
    esc("removable_handle_dict", _HOOKS + "print(R.__dict__)"),
    esc("removable_handle_mro", _HOOKS + "print(R.__mro__[1].__subclasses__())"),
    small(
        "removable_handle_made",
        _HOOKS + "h = R({})",
        (r"cannot create", r"not supported", r"TypeError"),
    ),
)

# A call retried with NumPy integers as ints looks one level into a short size tuple, never
# through a program's data (a refused call of a deep or shared list stays quick).
add(
    budget(
        "retry_of_refused_call_with_shared_rows",
        "import numpy as np\nimport torch\nr = [np.int64(1)] * 10**6\nx = torch.zeros([r] * 100)",
        patterns=(r"must be tuple of ints",),
    ),
    budget(
        "retry_of_refused_call_with_deep_list",
        "import numpy as np\nimport torch\nl = [np.int64(1)]\nfor i in range(5000):\n"
        "    l = [l]\nx = torch.zeros(l)",
        patterns=(r"must be tuple of ints",),
    ),
)

# explore61: torch.linalg.qr follows MKL's ?geqrf/?orgqr one small matrix at a time on the avx2
# family; a large batch of tiny matrices, or values LAPACK would rescale, keep NumPy's (quick)
_QR_AVX2 = {"GRADCLI_KERNELS": "avx2"}
add(
    small(
        "qr_many_tiny_matrices",
        "q, r = torch.linalg.qr(torch.ones(10**6, 1, 1))\nprint(q.shape, r.shape)",
        (),
        codes=frozenset({0}),
        env=_QR_AVX2,
        stdout_patterns=(r"torch.Size\(\[1000000, 1, 1\]\) torch.Size\(\[1000000, 1, 1\]\)",),
    ),
    small(
        "qr_batch_at_the_loop_limit",
        "q, r = torch.linalg.qr(torch.randn(2048, 5, 5), mode='complete')\nprint(r.shape)",
        (),
        codes=frozenset({0}),
        env=_QR_AVX2,
        stdout_patterns=(r"torch.Size\(\[2048, 5, 5\]\)",),
    ),
    small(
        "qr_extreme_values",
        "a = torch.tensor([[1e-38, 3e38], [float('inf'), float('nan')], [1e-45, -3e38]])\n"
        "q, r = torch.linalg.qr(a)\nprint(r.shape)",
        (),
        codes=frozenset({0}),
        env=_QR_AVX2,
        stdout_patterns=(r"torch.Size\(\[2, 2\]\)",),
    ),
)

# explore62: the typed legacy constructors take NumPy arrays; a 0-d integer array is a size
# under the tensor limit, a large array converted to another dtype stays under it too.
add(
    small(
        "legacy_long_tensor_numpy_size_huge",
        "import numpy as np\nt = torch.LongTensor(np.array(10**12))",
        LIMIT,
    ),
    small(
        "legacy_byte_tensor_numpy_negative_size",
        "import numpy as np\nt = torch.ByteTensor(np.array(-5))",
        (r"negative dimension", r"Trying to create tensor with negative dimension"),
    ),
    small(
        "legacy_int_tensor_numpy_big_convert",
        "import numpy as np\nt = torch.IntTensor(np.ones(10**8, dtype=np.float32))",
        LIMIT,
    ),
)

# explore62: NumPy's negative steps (`a[::-1]`) are basic indexing (a view, nothing copied);
# huge bounds and steps stay cheap, and a backwards view never becomes a shared tensor.
add(
    budget(
        "np_reversed_view_huge_bounds",
        "import numpy as np\na = np.zeros(10**6)\nfor i in range(10**4):\n"
        "    b = a[10**30:-(10**30):-(10**20)]\nprint(b.shape)",
        codes=frozenset({0}),
        stdout_patterns=(r"\(1,\)",),
    ),
    small(
        "np_reversed_view_to_tensor",
        "import numpy as np\nt = torch.from_numpy(np.arange(5)[::-1])",
        (r"negative strides are not currently supported",),
    ),
)

# refuse: torch.empty_strided's sizes and strides (huge, negative, gapped, of other types) and
# NumPy's scalar types as classes.
add(
    small(
        "empty_strided_huge",
        "t = torch.empty_strided((10**6, 10**6), (1, 10**6))",
        LIMIT,
    ),
    small(
        "empty_strided_gapped_strides",
        "t = torch.empty_strided((2, 3), (10**18, 1))",
        LIMIT,  # (gaps are PyTorch's layout; a storage that long is over the element limit)
    ),
    small(
        "empty_strided_negative_strides",
        "t = torch.empty_strided((2, 3), (-1, 2))",
        (r"Negative strides",),
    ),
    small(
        "empty_strided_stride_objects",
        "t = torch.empty_strided((2, 3), (print, 1))",
        (r"must be tuple of ints",),
    ),
    small(
        "empty_strided_overlapping",
        "t = torch.empty_strided((4, 4), (0, 0))\nt.add_(1)",
        (r"not supported",),
    ),
    esc(
        "numpy_scalar_type_internals",
        "import numpy as np\nf = type(np.int64(3)).np",
    ),
    small("geqrf_huge", "a, tau = torch.geqrf(torch.ones(20000, 20000))", LIMIT),
    small("geqrf_huge_batch", "a, tau = torch.geqrf(torch.ones(10**6, 8, 8))", LIMIT),
    small("geqrf_vector", "a, tau = torch.geqrf(torch.ones(3))", (r"at least 2 dimensions",)),
    small(
        "rsub_alpha_huge_broadcast",
        "t = torch.rsub(torch.ones(10**5, 1), torch.ones(1, 10**5), alpha=2)",
        LIMIT,
    ),
)

# refuse (probing): a NumPy array's flags and layout copies.
add(
    small(
        "np_flags_printed",
        "import numpy as np\nprint(np.zeros(3).flags)",
        (r"not supported",),
    ),
    small(
        "np_flags_owndata",
        "import numpy as np\nv = np.zeros(3).flags['OWNDATA']",
        (r"not supported",),
    ),
    small(
        "np_flags_unknown_key",
        "import numpy as np\nv = np.zeros(3).flags[print]",
        (r"Unknown flag",),
    ),
    small(
        "np_ascontiguousarray_huge",
        "import numpy as np\nv = np.ascontiguousarray([[0.0] * 10**4] * 10**4)",
        LIMIT,
    ),
    small(
        "np_asfortranarray_objects",
        "import numpy as np\nv = np.asfortranarray([print])",
        (r"not supported", r"numbers"),
    ),
)

# refuse (probing): a NumPy dtype compared with what NumPy converts, and its fields.
add(
    small(
        "np_dtype_compare_long_string",
        "import numpy as np\nv = np.zeros(2).dtype == 'f' * 10**6\nprint(v)",
        (r"False",),
        codes=frozenset({0}),
        stdout_patterns=(r"False",),
    ),
    esc("np_dtype_internal_field", "import numpy as np\nv = np.zeros(2).dtype.type"),
    esc("np_dtype_dunder", "import numpy as np\nv = np.zeros(2).dtype.__reduce__"),
)

# explore66: `%r` takes any value's repr() (a tensor, a list of them, a dict as one value) and
# `%(name)s` a plain dict's item: the walk is bounded as repr()'s and str()'s.
add(
    budget("percent_repr_big_list", "s = '%r' % ([torch.ones(100)] * 10**5,)"),
    budget("percent_repr_dict_huge", "s = '%r' % {i: torch.ones(100) for i in range(10**5)}"),
    esc("percent_dict_key_walk", "s = '%(__class__)s' % {'__class__': 1}", codes=frozenset({0, 1})),
    esc(
        "percent_key_not_mapping",
        "s = '%(__class__)s' % (torch.ones(1),)",
        (r"format requires a mapping",),
    ),
    budget("percent_key_big_value", "s = '%(a)s' % {'a': [1.5] * 10**6}"),
)

# explore65: `x._is_view()` (a private method forum answers print) is a plain predicate: it
# takes no argument, and reaching past it to Python's internals stays refused.
add(
    small(
        "is_view_with_an_argument",
        "x = torch.ones(3)\nprint(x._is_view(x))",
        (r"takes", r"argument", r"unexpected"),
    ),
    esc("is_view_method_globals", "f = torch.ones(2)._is_view.__globals__"),
    esc("is_view_unbound_self", "f = torch.Tensor._is_view.__self__"),
)

# explore65: an empty index of any shape gathers / scatters nothing (PyTorch's result of the
# index's shape); huge sizes beside the zero stay free, and a wrong dimension is refused.
add(
    budget(
        "gather_empty_index_huge_dims",
        "x = torch.ones(3, 4, requires_grad=True)\n"
        "g = torch.gather(x, 1, torch.empty(0, 10**9, 10**9, dtype=torch.long))\n"
        "g.sum().backward()\nprint(g.shape, x.grad.sum())",
        codes=frozenset({0, 1}),
    ),
    budget(
        "scatter_empty_index_huge_dims",
        "x = torch.ones(3, 4)\nfor i in range(1000):\n"
        "    y = x.scatter(0, torch.empty(10**9, 0, dtype=torch.long), 2.0)\nprint(y.sum())",
        codes=frozenset({0, 1}),
    ),
    small(
        "gather_empty_index_bad_dim",
        "x = torch.ones(3, 4)\ng = torch.gather(x, 7, torch.empty(0, dtype=torch.long))",
        (r"Dimension out of range",),
    ),
)

# explore65: set_ inside a graph records a node with no derivative; a long chain of them stays
# under the limits, a shape change there is refused, and backward through one fails cleanly.
add(
    budget(
        "set_in_graph_long_chain",
        "x = torch.ones(4, requires_grad=True) * 1\nsrc = torch.zeros(4)\n"
        "for i in range(10**6):\n    x.set_(src)\nx.sum().backward()",
        LIMIT + (r"derivative for set_ is not implemented",),
    ),
    small(
        "set_in_graph_shape_change",
        "x = torch.ones(4, requires_grad=True) * 1\nx.set_(torch.zeros(10**7))",
        (r"changes the shape", r"not supported"),
    ),
    small(
        "set_in_graph_backward",
        "x = torch.ones(2, requires_grad=True) * 1\nx.set_(torch.zeros(2))\nx.sum().backward()",
        (r"derivative for set_ is not implemented",),
    ),
)

# explore65: every diagonal is a view of its tensor's storage (a batch, a strided matrix);
# huge batches stay under the limits, and a change through it of a leaf is refused.
add(
    small(
        "diagonal_view_of_leaf_in_place",
        "x = torch.zeros(2, 3, 3, requires_grad=True)\nx.diagonal(dim1=1, dim2=2).add_(1)",
        (r"a view of a leaf Variable",),
    ),
    budget(
        "diagonal_view_many_batches",
        "x = torch.zeros(10**5, 2, 2)\nfor i in range(10**4):\n"
        "    x.diagonal(dim1=-2, dim2=-1).add_(1)\nprint(x.sum())",
        LIMIT,
        codes=frozenset({0, 1}),
    ),
)

# explore72: a Function's jvp staticmethod now runs under torch.func's forward mode, once per
# batch element under jacfwd: a jvp that never returns, or a jacfwd over a huge input, stops at
# a named limit; a jvp returning the wrong shape is refused.
_JVP_FN = (
    "class F(torch.autograd.Function):\n"
    "    generate_vmap_rule = True\n"
    "    @staticmethod\n    def forward(x):\n        return x * 2\n"
    "    @staticmethod\n    def setup_context(ctx, inputs, output):\n        pass\n"
    "    @staticmethod\n    def backward(ctx, g):\n        return g * 2\n"
    "    @staticmethod\n    def jvp(ctx, t):\n{body}"
)
add(
    budget(
        "function_jvp_never_returns",
        _JVP_FN.format(body="        while True:\n            t = t + 1\n")
        + "torch.func.jvp(F.apply, (torch.ones(3),), (torch.ones(3),))",
        LIMIT,
    ),
    budget(
        "function_jvp_jacfwd_huge",
        _JVP_FN.format(body="        return t * 2\n")
        + "torch.func.jacfwd(F.apply)(torch.ones(10**6))",
        LIMIT,
    ),
    small(
        "function_jvp_wrong_shape",
        _JVP_FN.format(body="        return t.sum()\n")
        + "torch.func.jvp(F.apply, (torch.ones(3),), (torch.ones(3),))",
        (r"different size",),
    ),
)

# explore72: functional_call swaps plain attributes and walks dotted names itself: names that
# lead nowhere end in PyTorch's errors, a million keys stop at a limit.
_FC = "import torch.nn as nn\nfrom torch.func import functional_call\nm = nn.Linear(2, 1)\n"
add(
    small(
        "functional_call_empty_name",
        _FC + "functional_call(m, {'': torch.ones(1)}, torch.ones(2))",
        (r"empty string",),
    ),
    small(
        "functional_call_path_through_parameter",
        _FC + "functional_call(m, {'weight.x.y': torch.ones(1)}, torch.ones(2))",
        (r"is not an instance of torch.nn.Module",),
    ),
    small(
        "functional_call_dunder_name",
        _FC + "functional_call(m, {'__class__': torch.ones(1)}, torch.ones(2))\nprint(m)",
        (r"is not an instance of torch.Tensor", r"not supported"),
        codes=frozenset({0, 1}),
    ),
    budget(
        "functional_call_million_keys",
        _FC + "d = {str(i): torch.ones(1) for i in range(10**7)}\n"
        "functional_call(m, d, torch.ones(2))",
        LIMIT,
    ),
)

# explore74: OrderedDict.move_to_end / popitem(last=...): unhashable or missing keys fail with
# Python's words, and a loop moving keys around stays under the limits.
add(
    small(
        "ordered_dict_move_unhashable",
        "import collections\nd = collections.OrderedDict(a=1)\nd.move_to_end([1])",
        (r"unhashable type: 'list'",),
    ),
    small(
        "ordered_dict_popitem_empty_front",
        "import collections\ncollections.OrderedDict().popitem(last=False)",
        (r"dictionary is empty",),
    ),
    budget(
        "ordered_dict_move_many",
        "import collections\nd = collections.OrderedDict((i, i) for i in range(1000))\n"
        "for i in range(10**8):\n    d.move_to_end(i % 1000, last=i % 2 == 0)",
        LIMIT,
    ),
)

# explore71: collections.abc's classes and typing's names in isinstance(); their machinery
# stays out of reach, a union nested past Python's stack is walked (not recursed), a union
# shared at each level is walked once, and a long loop of tests stays under the limits.
add(
    small(
        "abc_register_refused",
        "from collections.abc import Iterable\nIterable.register(int)",
        (r"has no attribute 'register'", r"not supported"),
    ),
    small(
        "abc_subclasshook_refused",
        "import collections.abc\nprint(collections.abc.Iterable.__subclasshook__)",
        (r"not accessible",),
    ),
    small(
        "abc_subclassed_refused",
        "from collections.abc import Mapping\nclass M(Mapping):\n    pass",
        (r"classes are only supported",),
    ),
    small(
        "abc_hint_only_isinstance_refused",
        "from collections.abc import Hashable\nisinstance(1, Hashable)",
        (r"not supported",),
    ),
    small(
        "typing_union_nested_past_the_stack",
        "from typing import Optional\nt = int\nfor i in range(10**4):\n    t = Optional[t]\n"
        "print(isinstance('a', t))",
        (r"^$",),
        codes=frozenset({0}),
        stdout_patterns=(r"False",),
        seconds=30.0,
    ),
    budget(
        "typing_union_shared_doubling",
        "from typing import Union\nu = str\nfor i in range(10**6):\n    u = Union[u, u, int]\n"
        "    isinstance(2.5, u)",
        LIMIT,
        codes=frozenset({0, 1}),
    ),
    budget(
        "abc_isinstance_long_loop",
        "from collections.abc import Iterable\nimport torch\nt = torch.ones(3)\n"
        "for i in range(10**9):\n    isinstance(t, Iterable)",
        LIMIT,
    ),
)

# explore71: numpy.testing's assertions see only the program's data: a program object, a
# list that holds itself, lists nested past the limit and a long loop of checks are refused
# or stopped by named limits before NumPy walks them.
add(
    small(
        "np_testing_program_object",
        "import numpy as np\nclass A:\n    pass\nnp.testing.assert_equal([A()], [A()])",
        (r"takes arrays, numbers, strings or lists",),
    ),
    small(
        "np_testing_self_holding_list",
        "import numpy as np\na = [1]\na.append(a)\nnp.testing.assert_equal(a, a)",
        LIMIT,
    ),
    small(
        "np_testing_deep_lists",
        "import numpy as np\na = [1.0]\nfor i in range(10**5):\n    a = [a]\n"
        "np.testing.assert_allclose(a, a)",
        LIMIT,
    ),
    budget(
        "np_testing_shared_doubling_lists",
        "import numpy as np\na = [1.0]\nfor i in range(60):\n    a = [a, a]\n"
        "np.testing.assert_equal(a, a)",
        LIMIT,
    ),
    budget(
        "np_testing_long_loop",
        "import numpy as np\nx = np.ones(10**6)\nfor i in range(10**9):\n"
        "    np.testing.assert_allclose(x, x)",
        LIMIT,
    ),
)

# explore71: `numbers`' classes are tested against; they are not registered to, subclassed
# nor instantiated.
add(
    small(
        "numbers_register_refused",
        "import numbers\nnumbers.Number.register(str)",
        (r"has no attribute 'register'", r"not supported"),
    ),
    small(
        "numbers_subclassed_refused",
        "from numbers import Real\nclass R(Real):\n    pass",
        (r"classes are only supported",),
    ),
    small(
        "numbers_instantiated_refused", "import numbers\nn = numbers.Real()", (r"cannot create",)
    ),
)

# explore74: torch.Tensor() (empty) grown by torch.cat in a loop stays under the limits.
add(
    budget(
        "empty_legacy_tensor_grown_by_cat",
        "t = torch.Tensor()\nfor i in range(10**8):\n    t = torch.cat((t, torch.ones(10**4)))",
        LIMIT,
    ),
)

# fixsil4: FunctionCtx is a class for isinstance only.
add(
    small(
        "function_ctx_made_by_hand",
        "from torch.autograd.function import FunctionCtx\nc = FunctionCtx()\nc.save_for_backward("
        "torch.ones(10**8))",
        (r"FunctionCtx is not supported", r"not supported"),
    ),
    small(
        "function_ctx_subclassed",
        "class C(torch.autograd.function.FunctionCtx):\n    pass\nC()",
        (r"classes are only supported", r"not supported"),
    ),
    budget(
        "function_ctx_isinstance_in_long_loop",
        "F = torch.autograd.function.FunctionCtx\nn = 0\nfor i in range(10**8):\n"
        "    n += isinstance(i, F)\nprint(n)",
        LIMIT,
        codes=frozenset({0, 1}),
    ),
)

# explore80: linalg.tensorinv / tensorsolve reshape to one square matrix, inverted or solved
# under the LAPACK work limit; in a loop, under the time limit.
add(
    budget(
        "tensorinv_huge_square",
        "t = torch.ones(3000, 3000).reshape(60, 50, 50, 60)\ni = torch.linalg.tensorinv(t, ind=2)",
    ),
    budget(
        "tensorsolve_huge_square",
        "t = torch.ones(3000, 3000).reshape(60, 50, 3000)\n"
        "x = torch.linalg.tensorsolve(t, torch.ones(60, 50))",
    ),
    budget(
        "tensorinv_in_long_loop",
        "t = torch.eye(64).reshape(8, 8, 8, 8)\nfor i in range(10**8):\n"
        "    t = torch.linalg.tensorinv(t, ind=2)",
        TIME_OR_LIMIT,
    ),
)

# fixnp: NumPy reads tensors (operators with arrays, ufuncs, lists of tensors given to NumPy).
add(
    budget(
        "tensor_plus_array_outer_broadcast",
        "import numpy as np\nr = torch.ones(10**5)[:, None] + np.ones(10**5)",
        LIMIT,
    ),
    budget(
        "numpy_array_of_many_tensor_references",
        "import numpy as np\nr = np.array([torch.ones(10**6)] * 10**5)",
        LIMIT,
    ),
    budget(
        "numpy_mean_of_many_tensor_references",
        "import numpy as np\nr = np.mean([torch.ones(10**6)] * 10**5)",
        LIMIT,
    ),
    small(
        "numpy_array_of_deeply_nested_tensor_list",
        "import numpy as np\nl = [torch.ones(1)]\nfor i in range(10**5):\n    l = [l]\nnp.array(l)",
        LIMIT,
    ),
    budget(
        "numpy_ufunc_on_tensor_in_long_loop",
        "import numpy as np\nt = torch.ones(10**6)\nfor i in range(10**8):\n    t = np.exp(t * 0)",
        LIMIT,
    ),
)

# lead (session 35): type(opt) is the constructor torch.optim.SGD names; its internals stay out
# of reach, and building optimizers from it in a loop is bounded.
add(
    small(
        "optimizer_type_globals",
        "opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)\n"
        "print(type(opt).__globals__)",
        (r"not accessible", r"Python's internals"),
    ),
    small(
        "optimizer_type_made_class",
        "opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)\n"
        "print(type(opt).made_class)",
        (r"has no attribute 'made_class'",),
    ),
    budget(
        "optimizer_type_rebuilt_in_long_loop",
        "opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)\n"
        "for i in range(10**8):\n    opt = type(opt)([torch.zeros(1, requires_grad=True)], lr=0.1)",
        TIME_OR_LIMIT,
    ),
)

# explore88 (session 36): baddbmm / addbmm check their input's expansion to the product's shape
# before the operands' sizes, as ATen does; the check makes no view, so sizes whose product is
# far past the element limit still end in PyTorch's own words about the operands.
add(
    budget(
        "baddbmm_expansion_checked_without_a_view",
        "try:\n    torch.baddbmm(torch.zeros(1), torch.ones(100000, 100, 1), "
        "torch.ones(1, 1, 100000))\nexcept RuntimeError as e:\n    print(e)\n"
        "try:\n    torch.addbmm(torch.zeros(1), torch.ones(1, 100000, 1), "
        "torch.ones(2, 1, 100000))\nexcept RuntimeError as e:\n    print(e)\n",
        (),
        codes=frozenset({0}),
        stdout_patterns=(
            r"^Expected size for first two dimensions of batch2 tensor to be: \[100000, 1\] but "
            r"got: \[1, 1\]\.\nbatch1 and batch2 must have same number of batches, got 1 and 2\n$",
        ),
    ),
)

# fixmexp (session 36): matrix_exp is one record following ATen's scaling and squaring (the
# squarings counted in the work limit, the gradient's matrices twice as large under the clock),
# float16 / bfloat16 softmax run ATen's two-byte kernels, and the special functions' scalar
# loops read the clock.
add(
    budget(
        "matrix_exp_many_squarings_of_a_batch",
        "y = torch.linalg.matrix_exp(torch.full((64, 60, 60), 1e300, dtype=torch.float64))",
    ),
    budget(
        "matrix_exp_gradient_in_long_loop",
        "a = torch.randn(40, 40, requires_grad=True)\n"
        "for i in range(10**8):\n    torch.matrix_exp(a * 30).sum().backward()",
        TIME_OR_LIMIT,
    ),
    small(
        "matrix_exp_half_refused",
        "print(torch.matrix_exp(torch.ones(3, 3).half()))",
        (r"not supported",),
    ),
    budget(
        "bfloat16_softmax_in_long_loop",
        "x = torch.randn(1000, 999).bfloat16()\n"
        "for i in range(10**8):\n    y = torch.softmax(x, 0).half().softmax(-1)",
        TIME_OR_LIMIT,
    ),
    budget(
        "log_ndtr_float64_in_long_loop",
        "x = torch.linspace(-1, 5, 10**6, dtype=torch.float64)\n"
        "for i in range(10**8):\n    y = torch.special.log_ndtr(x)",
        TIME_OR_LIMIT,
    ),
)

# explore87 (session 36): Multinomial and RelaxedBernoulli draws are sized before they are
# made; torch.functional's names are torch's (its module internals stay out of reach).
add(
    small(
        "multinomial_total_count_huge",
        "from torch.distributions import Multinomial\n"
        "print(Multinomial(10**12, torch.tensor([0.5, 0.5])).sample())",
        LIMIT,
    ),
    small(
        "relaxed_bernoulli_sample_shape_huge",
        "from torch.distributions import RelaxedBernoulli\n"
        "m = RelaxedBernoulli(torch.tensor(0.5), torch.tensor([0.5]))\n"
        "print(m.sample((10**6, 10**6)))",
        LIMIT,
    ),
    budget(
        "multinomial_sampled_in_long_loop",
        "from torch.distributions import Multinomial\n"
        "m = Multinomial(10**6, torch.ones(4))\n"
        "for i in range(10**8):\n    x = m.sample()",
        TIME_OR_LIMIT,
    ),
    small(
        "torch_functional_module_internals",
        "import torch.functional as F\nprint(F._VF)",
        (r"not supported", r"has no attribute", r"not accessible"),
    ),
)

# fixsparse: an embedding's sparse gradient (sparse=True) grows with each backward call that
# adds to it, its coalesce sorts in Python, SGD's momentum buffer merges: bounded by the tensor
# limit and the clock; its methods reach nothing of Python's.
SPARSE_W = "import torch.nn.functional as F\nw = torch.zeros(4, 1000, requires_grad=True)\n"
add(
    budget(
        "sparse_grad_accumulated_in_long_loop",
        SPARSE_W + "idx = torch.zeros(5000, dtype=torch.long)\nwhile True:\n"
        "    F.embedding(idx, w, sparse=True).sum().backward()",
        TIME_OR_LIMIT,
    ),
    budget(
        "sparse_grad_merged_in_long_loop",
        SPARSE_W + "idx = torch.zeros(5000, dtype=torch.long)\nwhile True:\n"
        "    F.embedding(idx, w, sparse=True).pow(2).sum().backward()",
        TIME_OR_LIMIT,
    ),
    budget(
        "sparse_grad_coalesce_of_many_entries",
        "import torch.nn.functional as F\nw = torch.zeros(3, 1, requires_grad=True)\n"
        "F.embedding(torch.randint(0, 3, (10**7,)), w, sparse=True).sum().backward()\n"
        "while True:\n    c = w.grad.coalesce()",
        TIME_OR_LIMIT,
    ),
    budget(
        "sparse_sgd_momentum_in_long_loop",
        SPARSE_W + "opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)\n"
        "idx = torch.arange(4).repeat(1000)\nwhile True:\n"
        "    F.embedding(idx, w, sparse=True).pow(2).sum().backward()\n    opt.step()",
        TIME_OR_LIMIT,
    ),
    small(
        "sparse_grad_class_reached",
        "import torch.nn.functional as F\nw = torch.zeros(3, 2, requires_grad=True)\n"
        "F.embedding(torch.tensor([1]), w, sparse=True).sum().backward()\n"
        "print(w.grad.__class__.__init__.__globals__)",
        (r"not supported", r"not accessible"),
    ),
    small(
        "sparse_grad_method_globals",
        "import torch.nn.functional as F\nw = torch.zeros(3, 2, requires_grad=True)\n"
        "F.embedding(torch.tensor([1]), w, sparse=True).sum().backward()\n"
        "print(w.grad.to_dense.__globals__)",
        (r"not supported", r"not accessible", r"has no attribute"),
    ),
    small(
        "sparse_grad_values_field",
        "import torch.nn.functional as F\nw = torch.zeros(3, 2, requires_grad=True)\n"
        "F.embedding(torch.tensor([1]), w, sparse=True).sum().backward()\n"
        "w.grad.values = 1\nprint(w.grad.indices.__self__)",
        (r"not supported", r"not accessible", r"has no attribute", r"cannot set"),
    ),
    budget(
        "sparse_coo_tensor_huge_dense",
        "s = torch.sparse_coo_tensor([[0]], [1.0], (10**12,))\nd = s.to_dense()",
    ),
    budget(
        "sparse_coo_tensor_huge_values",
        "s = torch.sparse_coo_tensor(torch.zeros(1, 10**4, dtype=torch.long), "
        "torch.ones(10**4, 10**4))",
    ),
    small(
        "sparse_coo_tensor_positions_overflow",
        "s = torch.sparse_coo_tensor([[0, 0], [5, 5]], [1.0, 2.0], (2**40, 2**40))\n"
        "print(s.coalesce())",
        (r"not supported",),
    ),
    small(
        "sparse_coo_tensor_index_outside_size",
        "s = torch.sparse_coo_tensor([[-3, 7]], [1.0, 2.0], (2,))\nprint(s.to_dense())",
        (r"not supported",),
    ),
)

# fixlin2: the LU family (lu_factor, lu, lu_solve, lu_unpack, triangular_solve, the _ex infos):
# LAPACK's work bounded before it starts, pivots that would read outside the matrix refused,
# loops bounded by the time limit.
add(
    budget(
        "lu_factor_expanded_batch",
        "a = torch.eye(200).expand(5000, 200, 200)\nlu, p = torch.linalg.lu_factor(a)",
    ),
    budget(
        "linalg_lu_wide_expanded_batch",
        "a = torch.ones(1, 1).expand(10**5, 300, 3000)\nP, L, U = torch.linalg.lu(a)",
    ),
    budget(
        "lu_solve_expanded_rhs",
        "lu, p = torch.linalg.lu_factor(torch.eye(300))\n"
        "b = torch.ones(1, 1, 1).expand(10**5, 300, 1000)\nx = torch.linalg.lu_solve(lu, p, b)",
    ),
    budget(
        "cholesky_ex_indefinite_million",
        "a = (-torch.eye(3)).expand(10**6, 3, 3)\nL, info = torch.linalg.cholesky_ex(a)",
        codes=frozenset({0, 1}),
    ),
    budget(
        "lu_factor_in_long_loop",
        "a = torch.randn(20, 20)\nfor i in range(10**8):\n    lu, p = torch.linalg.lu_factor(a)",
        TIME_OR_LIMIT,
    ),
    small(
        "lu_solve_pivot_out_of_range",
        "lu, p = torch.linalg.lu_factor(torch.eye(3))\n"
        "p = torch.tensor([9, 2, 3], dtype=torch.int32)\n"
        "x = torch.linalg.lu_solve(lu, p, torch.ones(3, 1))",
        (r"between 1 and LU.size\(-2\)",),
    ),
    small(
        "lu_unpack_negative_pivot",
        "P, L, U = torch.lu_unpack(torch.eye(3), torch.tensor([-5, 2, 3], dtype=torch.int32))",
        (r"between 1 and LU.size\(-2\)",),
    ),
    small(
        "lu_unpack_pivots_of_another_batch",
        "P, L, U = torch.lu_unpack(torch.eye(3), torch.ones(7, 3, dtype=torch.int32))",
        (r"Number of pivots",),
    ),
    budget(
        "triangular_solve_expanded",
        "a = torch.eye(500).expand(2000, 500, 500)\n"
        "x = torch.triangular_solve(torch.ones(500, 500), a)",
    ),
)

# fixlin2: torch.linalg.eigvals (LAPACK's geev on arrays) bounded before it starts.
add(
    budget(
        "eigvals_huge_float64",
        "a = torch.eye(4000, dtype=torch.float64)\nw = torch.linalg.eigvals(a)",
    ),
    budget(
        "eigvals_in_long_loop",
        "a = torch.randn(40, 40, dtype=torch.float64)\n"
        "for i in range(10**8):\n    w = torch.linalg.eigvals(a)",
        TIME_OR_LIMIT,
    ),
)

# fixlin2: householder_product / orgqr (recorded reflections per matrix): bounded before the work.
add(
    budget(
        "householder_product_expanded_batch",
        "a = torch.ones(1, 1, 1).expand(6000, 40, 40)\n"
        "q = torch.linalg.householder_product(a, torch.ones(1, 1).expand(6000, 40))",
    ),
    budget(
        "householder_product_huge",
        "q = torch.linalg.householder_product(torch.ones(3000, 2000), torch.ones(2000))",
    ),
)

# lead (session 36): LowRankMultivariateNormal's draws sized before they are made, its
# capacitance factorisation bounded as any Cholesky, its internals out of reach.
LOWRANK = "from torch.distributions import LowRankMultivariateNormal as L\n"
add(
    budget(
        "lowrank_mvn_huge_sample",
        LOWRANK + "m = L(torch.zeros(3), torch.ones(3, 1), torch.ones(3))\n"
        "print(m.sample((10**6, 10**6)))",
        LIMIT,
    ),
    budget(
        "lowrank_mvn_scored_in_long_loop",
        LOWRANK + "m = L(torch.zeros(50), torch.randn(50, 20), torch.ones(50))\n"
        "x = m.sample((100,))\nfor i in range(10**8):\n    y = m.log_prob(x)",
        TIME_OR_LIMIT,
    ),
    small(
        "lowrank_mvn_internals",
        LOWRANK + "m = L(torch.zeros(3), torch.ones(3, 1), torch.ones(3))\n"
        "print(m._capacitance_tril.__class__.__subclasses__())",
        (r"not supported", r"has no attribute", r"not accessible"),
    ),
)

# lead (session 36): Gumbel's draws sized before they are made; cdf / icdf of transformed
# distributions reach nothing of Python's.
add(
    budget(
        "gumbel_huge_sample",
        "from torch.distributions import Gumbel\nprint(Gumbel(0.0, 1.0).sample((10**6, 10**6)))",
        LIMIT,
    ),
    small(
        "gumbel_transform_internals",
        "from torch.distributions import Gumbel\n"
        "print(Gumbel(0.0, 1.0).transforms[0].__class__.__mro__)",
        (r"not supported", r"has no attribute", r"not accessible"),
    ),
)

# fixbinom: torch.binomial's serial sampler (uniforms counted, stopped at a named limit), its
# infinite counts and Binomial's draws sized before they are made.
add(
    budget(
        "binomial_many_small_draws",
        "x = torch.binomial(torch.full((10**4, 10**3), 1000.), torch.full((10**4, 10**3), 1e-3))",
        LIMIT + (r"uniform draws",),
    ),
    budget(
        "binomial_huge_tensors",
        "x = torch.binomial(torch.ones(10**5, 10**5), torch.ones(10**5, 10**5))",
    ),
    small(
        "binomial_infinite_counts",
        "print(torch.binomial(torch.tensor([math.inf, 1e38]), torch.tensor([0.3, 1e-37])))",
        (),
        codes=frozenset({0}),
        stdout_patterns=(r"^tensor\(\[inf, [0-9]+\.\]\)\n$",),
    ),
    budget(
        "binomial_distribution_huge_sample",
        "from torch.distributions import Binomial\n"
        "print(Binomial(10, torch.tensor([0.5])).sample((10**6, 10**6)))",
    ),
    budget(
        "binomial_enumerate_huge_count",
        "from torch.distributions import Binomial\n"
        "print(Binomial(1e12, torch.tensor([0.5])).entropy())",
    ),
    small(
        "binomial_entropy_infinite_count",
        "from torch.distributions import Binomial\n"
        "d = Binomial(torch.tensor([math.inf]), torch.tensor([0.5]), validate_args=False)\n"
        "print(d.entropy())",
        (r"not finite",),
    ),
    budget(
        "multinomial_entropy_huge_count",
        "from torch.distributions import Multinomial\n"
        "print(Multinomial(10**9, torch.tensor([0.5, 0.5])).entropy())",
    ),
    budget(
        "multinomial_entropy_in_long_loop",
        "from torch.distributions import Multinomial\n"
        "m = Multinomial(10**5, torch.ones(50))\nfor i in range(10**8):\n    h = m.entropy()",
        TIME_OR_LIMIT,
    ),
    budget(
        "negative_binomial_huge_sample",
        "from torch.distributions import NegativeBinomial\n"
        "print(NegativeBinomial(3.0, torch.tensor([0.5])).sample((10**5, 10**5)))",
    ),
    budget(
        "negative_binomial_huge_rates",
        "from torch.distributions import NegativeBinomial\n"
        "print(NegativeBinomial(1e30, torch.tensor([0.5] * 10**6)).sample())",
        LIMIT + TIME_LIMIT + (r"uniform draws", r"invalid Poisson rate"),
    ),
)

# explore92: ConvTranspose{1,2,3}d forward(x, output_size=...): the sizes are checked against the
# range the stride allows before any work, a huge or malformed output_size is a clear error.
add(
    small(
        "conv_transpose_output_size_huge",
        "m = torch.nn.ConvTranspose2d(1, 1, 3, stride=2)\n"
        "print(m(torch.ones(1, 1, 4, 4), output_size=[10**30, 10**30]).shape)",
        (r"valid sizes range",),
    ),
    small(
        "conv_transpose_output_size_nested",
        "m = torch.nn.ConvTranspose1d(1, 1, 3, stride=2)\n"
        "print(m(torch.ones(1, 1, 4), output_size=[[9]]).shape)",
        (r"not supported between instances of 'list' and 'int'",),
    ),
    small(
        "conv_transpose_output_size_long_list",
        "m = torch.nn.ConvTranspose1d(1, 1, 3, stride=2)\n"
        "print(m(torch.ones(1, 1, 4), output_size=list(range(10**6))).shape)",
        (r"output_size must have 1 or 3 elements",) + LIMIT,
    ),
    budget(
        "conv_transpose_output_size_big_input",
        "m = torch.nn.ConvTranspose3d(4, 4, 3, stride=2)\n"
        "x = torch.ones(64, 4, 400, 400, 400)\n"
        "print(m(x, output_size=[801, 801, 801]).shape)",
    ),
)

# explore92: torch.linalg.vander(x, N=...): the result's size is checked before the powers are
# built, for a huge N as for a huge batch.
add(
    budget(
        "linalg_vander_huge_result",
        "print(torch.linalg.vander(torch.ones(10**6), N=10**6).shape)",
    ),
    budget(
        "linalg_vander_astronomic_n",
        "print(torch.linalg.vander(torch.ones(3), N=10**30).shape)",
    ),
    small(
        "linalg_vander_n_string",
        "print(torch.linalg.vander(torch.ones(3), N='9'))",
        (r"argument 'N' must be int, not str",),
    ),
)

# CUDA asked of the CPU build: PyTorch's catchable errors, which must not open a way around the
# limits (a caught error in a long loop, a huge index, the error object's internals).
add(
    budget(
        "cuda_error_caught_in_endless_loop",
        "while True:\n    try:\n        torch.ones(1).cuda()\n    except AssertionError:\n"
        "        pass",
    ),
    small("cuda_huge_index", "torch.ones(1).cuda(10**30)", (r"none is available",)),
    small("cuda_device_huge_index", "torch.zeros(2, device=10**30)", (r"none is available",)),
    small("cuda_bool_device", "torch.ones(1).cuda(True)", (r"must be torch.device, not bool",)),
    esc(
        "cuda_error_traceback_walk",
        "try:\n    torch.cuda.synchronize()\nexcept AssertionError as e:\n"
        "    f = e.__traceback__.tb_frame.f_globals",
    ),
    small(
        "cuda_memory_counter_args",
        "print(torch.cuda.memory_allocated(device=open))",
        (r"not supported", r"takes", r"argument"),
        codes=frozenset({0, 1}),
    ),
)

# explore95 (session 37): a syntax error on a line pasted from a notebook (an IPython magic, a
# shell escape) gets a hint quoting the line: cut to 40 characters, and only printable text.
add(
    small("ipython_magic_huge_line", "%" + "m" * 200_000, (r"IPython magic",)),
    small(
        "shell_escape_with_terminal_codes",
        "!pip install \x1b[2J\x1b]0;pwned\x07 torch",
        (r"syntax error",),
        forbid=(r"\x1b", r"\x07", r"shell command"),
    ),
)

# explore95 (session 37): a bare annotation of an attribute or an item evaluates its target but
# the last step, as Python does (`Out[2]: ...`, a pasted output prompt, is a NameError): the
# target reads nothing private and builds nothing past the limits.
add(
    small(
        "bare_annotation_dunder_target",
        "x = 1\nx.__class__.__subclasses__: int",
        (r"not supported", r"has no attribute", r"not accessible"),
    ),
    small(
        "bare_annotation_huge_item_target",
        "torch.ones(10**6, 10**6)[0]: int",
        LIMIT,
    ),
)

# explore95 (session 37): Module.add_module checks a name as PyTorch does, quoting it in its
# KeyError: an uncaught one is cut to a readable message.
add(
    small(
        "add_module_huge_dotted_name",
        "import torch.nn as nn\nnn.Module().add_module('a.' + 'x' * 900_000, nn.ReLU())",
        (r"can't contain",),
    ),
)

# fixmisc: torch.fill (out of place, a number or a 0-d tensor value).
add(
    budget(
        "fill_out_of_place_huge_expanded",
        "x = torch.zeros(1).expand(10**9)\ny = torch.fill(x, torch.tensor(2.0))",
    ),
    budget(
        "fill_out_of_place_in_long_loop",
        "x = torch.zeros(10**6)\nv = torch.tensor(1.0, requires_grad=True)\n"
        "for i in range(10**8):\n    y = torch.fill(x, v)",
        TIME_OR_LIMIT,
    ),
    small(
        "fill_out_of_place_object_value",
        "print(torch.fill(torch.ones(2), torch.ones(2).__class__))",
        (r"not supported", r"not accessible", r"invalid combination"),
    ),
)

# fixmisc: torch.optim.swa_utils (AveragedModel's deep copy and updates, update_bn's pass
# over a loader, SWALR).
add(
    budget(
        "swa_update_parameters_in_long_loop",
        "from torch.optim.swa_utils import AveragedModel\n"
        "m = torch.nn.Linear(1000, 1000)\na = AveragedModel(m)\n"
        "for i in range(10**8):\n    a.update_parameters(m)",
        TIME_OR_LIMIT,
    ),
    budget(
        "swa_update_bn_endless_loader",
        "from torch.optim.swa_utils import update_bn\nimport itertools\n"
        "m = torch.nn.Sequential(torch.nn.BatchNorm1d(3))\n"
        "update_bn(itertools.repeat(torch.ones(2, 3)), m)",
        TIME_OR_LIMIT + REFUSED,
    ),
    small(
        "swa_avg_fn_reaches_internals",
        "from torch.optim.swa_utils import AveragedModel\n"
        "m = torch.nn.Linear(2, 2)\n"
        "a = AveragedModel(m, avg_fn=lambda p, q, n: p.__class__.__mro__)\n"
        "a.update_parameters(m)\na.update_parameters(m)",
        (r"not supported", r"not accessible", r"must be Tensor"),
    ),
    small(
        "swa_avg_fn_not_callable",
        "from torch.optim.swa_utils import AveragedModel\n"
        "a = AveragedModel(torch.nn.Linear(2, 2), avg_fn=3)",
        (r"not callable",),
    ),
)

# fixmisc: torch.optim.Adafactor (its factored state is a row and a column per matrix).
add(
    budget(
        "adafactor_steps_in_long_loop",
        "w = torch.ones(3000, 3000, requires_grad=True)\nopt = torch.optim.Adafactor([w])\n"
        "w.grad = torch.ones(3000, 3000)\nfor i in range(10**8):\n    opt.step()",
        TIME_OR_LIMIT,
    ),
    small(
        "adafactor_eps_not_a_pair",
        "opt = torch.optim.Adafactor([torch.ones(2, requires_grad=True)], eps=3)",
        (r"eps must be a pair",),
    ),
)

# fixmisc: torch.special's Bessel functions (ATen's scalar kernels, in pieces of 4096).
add(
    budget(
        "bessel_huge_input",
        "x = torch.special.bessel_y1(torch.ones(10**5, 10**5))",
    ),
    budget(
        "bessel_in_long_loop",
        "x = torch.linspace(0.1, 50, 10**6)\nfor i in range(10**8):\n"
        "    y = torch.special.bessel_j0(x)",
        TIME_OR_LIMIT,
    ),
    budget(
        "modified_bessel_k1_huge_input",
        "x = torch.special.scaled_modified_bessel_k1(torch.ones(10**5, 10**5))",
    ),
    small(
        "bessel_of_a_list",
        "print(torch.special.spherical_bessel_j0([1.0, 2.0]))",
        (r"must be Tensor",),
    ),
)

# fixmisc: torch.special's orthogonal polynomials (a recurrence as long as the degree).
add(
    budget(
        "polynomial_huge_degree",
        "y = torch.special.legendre_polynomial_p(torch.full((1000,), 0.5), 10**12)",
    ),
    budget(
        "polynomial_long_recurrence",
        "y = torch.special.laguerre_polynomial_l(torch.full((10**4,), 0.5), 10**8)",
        TIME_OR_LIMIT,
    ),
    small(
        "polynomial_of_two_numbers",
        "print(torch.special.chebyshev_polynomial_t(0.5, 3))",
        (r"invalid combination",),
    ),
)

# === fixdist: reparameterized gamma-family gradients, KL across families =====================
add(
    budget(
        "gamma_rsample_grad_huge",
        "from torch.distributions import Gamma\n"
        "a = torch.ones(1000, requires_grad=True)\n"
        "Gamma(a, 1.0).rsample((10**4,)).sum().backward()",
        (r"gradcli allows 200,000", r"time limit"),
    ),
    budget(
        "dirichlet_rsample_grad_in_long_loop",
        "from torch.distributions import Dirichlet\n"
        "c = torch.ones(100, 100, requires_grad=True)\n"
        "for i in range(10**6):\n    Dirichlet(c).rsample((19,)).sum().backward()",
        TIME_OR_LIMIT,
    ),
    small(
        "kl_divergence_of_a_tensor",
        "from torch.distributions import Normal, kl_divergence\n"
        "kl_divergence(Normal(0.0, 1.0), torch.ones(2))",
        (r"for p type Normal and q type Tensor",),
    ),
    small(
        "kl_divergence_unregistered_pair",
        "from torch.distributions import Normal, StudentT, kl_divergence\n"
        "kl_divergence(StudentT(2.0), Normal(0.0, 1.0))",
        (r"No KL\(p \|\| q\) is implemented for p type StudentT and q type Normal",),
    ),
)


# === fixdist: Distribution.expand, support / constraints ======================================
add(
    budget(
        "distribution_expand_huge_then_sample",
        "from torch.distributions import Normal\n"
        "print(Normal(0.0, 1.0).expand((10**6, 10**6)).sample())",
    ),
    budget(
        "distribution_expand_huge_then_log_prob",
        "from torch.distributions import Gamma\n"
        "d = Gamma(torch.ones(10**3), 1.0).expand((10**5, 10**3))\n"
        "print(d.log_prob(torch.ones(10**3)).sum())",
    ),
    small(
        "distribution_expand_negative_size",
        "from torch.distributions import Normal\nNormal(0.0, 1.0).expand((-1,))",
        (r"batch_shape must be a torch.Size or a tuple of sizes",),
    ),
    budget(
        "constraint_check_huge",
        "from torch.distributions import constraints\n"
        "print(constraints.simplex.check(torch.ones(10**5, 10**5)))",
    ),
    small(
        "constraint_check_not_a_tensor",
        "from torch.distributions import constraints\nconstraints.positive.check('abc')",
        (r"takes a tensor, not str",),
    ),
)


# === fixdist: HalfCauchy, Pareto, Weibull, Kumaraswamy ========================================
add(
    budget(
        "pareto_sample_huge",
        "from torch.distributions import Pareto\n"
        "print(Pareto(torch.ones(10**4), 2.0).sample((10**5,)))",
    ),
    budget(
        "weibull_rsample_huge_expand",
        "from torch.distributions import Weibull\n"
        "print(Weibull(1.0, 2.0).expand((10**5, 10**5)).rsample().sum())",
    ),
    small(
        "kumaraswamy_mode_nan_edges",
        "from torch.distributions import Kumaraswamy\n"
        "print(Kumaraswamy(torch.tensor([0.5, 1e-30]), torch.tensor([2.0, 1e30])).mode)",
        (r"tensor\(\[nan, nan\]\)",),
        codes=frozenset({0}),
    ),
    small(
        "halfcauchy_log_prob_of_a_string",
        "from torch.distributions import HalfCauchy\nHalfCauchy(1.0).log_prob('x')",
        (r"The value argument to log_prob must be a Tensor",),
    ),
)


# === fixdist: ContinuousBernoulli, FisherSnedecor =============================================
add(
    budget(
        "continuous_bernoulli_sample_huge",
        "from torch.distributions import ContinuousBernoulli\n"
        "print(ContinuousBernoulli(torch.full((10**4,), 0.3)).sample((10**5,)))",
    ),
    budget(
        "fisher_snedecor_rsample_huge",
        "from torch.distributions import FisherSnedecor\n"
        "print(FisherSnedecor(torch.ones(10**3), 2.0).rsample((10**5,)))",
        LIMIT + (r"more than the time limit allows",),
    ),
    small(
        "continuous_bernoulli_lims_not_a_pair",
        "from torch.distributions import ContinuousBernoulli\nContinuousBernoulli(0.3, lims=5)",
        (r"'int' object is not subscriptable", r"lims"),
    ),
)


# === fixdist: RelaxedOneHotCategorical, LogisticNormal, StickBreakingTransform ================
add(
    budget(
        "relaxed_one_hot_rsample_huge",
        "from torch.distributions import RelaxedOneHotCategorical\n"
        "print(RelaxedOneHotCategorical(0.5, logits=torch.zeros(10**4)).rsample((10**5,)))",
    ),
    budget(
        "logistic_normal_huge_event",
        "from torch.distributions import LogisticNormal\n"
        "print(LogisticNormal(torch.zeros(10**5, 10**3), 1.0).sample((10**3,)))",
    ),
    small(
        "stick_breaking_of_a_scalar",
        "from torch.distributions.transforms import StickBreakingTransform\n"
        "from torch.distributions import TransformedDistribution, Normal\n"
        "TransformedDistribution(Normal(0.0, 1.0), StickBreakingTransform())",
        (r"base_distribution needs to have shape with size at least 1",),
    ),
)


# === fixdist: VonMises (a rejection sampler: rounds until every draw is accepted) ==============
add(
    small(
        "von_mises_infinite_concentration_sample",
        "from torch.distributions import VonMises\nprint(VonMises(0.0, float('inf')).sample())",
        (r"no acceptance after 1,000 rounds",),
        env={"GRADCLI_TIME_SECONDS": "3"},  # (the rounds' bound, not the clock's, must end it)
    ),
    budget(
        "von_mises_sample_huge",
        "from torch.distributions import VonMises\n"
        "print(VonMises(torch.zeros(10**4), 1.0).sample((10**5,)))",
    ),
    small(
        "von_mises_nan_concentration_unvalidated",
        "from torch.distributions import VonMises\n"
        "print(VonMises(0.0, float('nan'), validate_args=False).sample((3,)))",
        (r"no acceptance after 1,000 rounds",),
        env={"GRADCLI_TIME_SECONDS": "3"},  # (the rounds' bound, not the clock's, must end it)
    ),
)


# === fixdist: InverseGamma, OneHotCategoricalStraightThrough ==================================
add(
    budget(
        "inverse_gamma_sample_huge",
        "from torch.distributions import InverseGamma\n"
        "print(InverseGamma(torch.ones(10**3), 1.0).sample((10**5,)))",
        LIMIT + (r"more than the time limit allows",),
    ),
    budget(
        "straight_through_rsample_huge",
        "from torch.distributions import OneHotCategoricalStraightThrough\n"
        "print(OneHotCategoricalStraightThrough(logits=torch.zeros(10**4)).rsample((10**5,)))",
    ),
)


# === fixdist: LKJCholesky ======================================================================
add(
    budget(
        "lkj_cholesky_huge_dim",
        "from torch.distributions import LKJCholesky\nprint(LKJCholesky(10**5).sample())",
    ),
    budget(
        "lkj_cholesky_huge_sample",
        "from torch.distributions import LKJCholesky\n"
        "print(LKJCholesky(100, torch.ones(10**3)).sample((10**3,)))",
        LIMIT + (r"more than the time limit allows",),
    ),
    small(
        "lkj_cholesky_float_dim",
        "from torch.distributions import LKJCholesky\nLKJCholesky(2.5)",
        (r"dim must be an int",),
    ),
)


# === fixdist: Wishart ==========================================================================
add(
    budget(
        "wishart_huge_event",
        "from torch.distributions import Wishart\n"
        "print(Wishart(10.0**5, scale_tril=torch.eye(10**4)).sample())",
    ),
    budget(
        "wishart_huge_sample",
        "from torch.distributions import Wishart\n"
        "print(Wishart(5.0, covariance_matrix=torch.eye(3)).rsample((10**7,)))",
        LIMIT + (r"more than the time limit allows",),
    ),
    small(
        "wishart_max_try_correction_huge",
        "from torch.distributions import Wishart\n"
        "Wishart(5.0, covariance_matrix=torch.eye(2)).rsample(max_try_correction=10**12)",
        (r"more than gradcli allows",),
    ),
    small(
        "wishart_no_matrix",
        "from torch.distributions import Wishart\nWishart(5.0)",
        (r"Exactly one of covariance_matrix or precision_matrix or scale_tril",),
    ),
)


# === fixdist: biject_to / transform_to =========================================================
add(
    small(
        "transform_to_a_string",
        "from torch.distributions import transform_to\ntransform_to('positive')",
        (r"Cannot transform str constraints",),
    ),
)

# fixmisc2: torch.nn.utils.fusion (a deep copy of the layer, its weights times a scale).
_FUSE = (
    "import torch.nn as nn\nfrom torch.nn.utils import fuse_conv_bn_eval\n"
    "bn = nn.BatchNorm2d(3).eval()\n"
)
add(
    budget(
        "fuse_in_long_loop",
        _FUSE + "conv = nn.Conv2d(3, 3, 3).eval()\nfor i in range(10**8):\n"
        "    f = fuse_conv_bn_eval(conv, bn)",
    ),
    budget(
        "fuse_weights_huge",
        "from torch.nn.utils import fuse_linear_bn_weights\n"
        "r = torch.zeros(10**5)\n"
        "a, b = fuse_linear_bn_weights(torch.ones(1, 10**4).expand(10**5, 10**4), None, r, r, "
        "1e-5, r, r)",
    ),
    small(
        "fuse_a_string",
        _FUSE + "print(fuse_conv_bn_eval('conv', bn))",
        (r"has no attribute 'training'",),
    ),
)

# fixmisc2: torch.igamma / igammac (special.gammainc / gammaincc): a Python loop per element,
# up to 2000 series terms each, the clock checked as it goes.
add(
    budget(
        "igamma_many_elements",
        "y = torch.special.gammaincc(torch.full((5 * 10**6,), 5.0), "
        "torch.full((5 * 10**6,), 30.0))",
        TIME_OR_LIMIT,
    ),
    small(
        "igamma_of_two_numbers",
        "print(torch.special.gammainc(2.0, 3.0))",
        (r"must be Tensor",),
    ),
)

# === fixsmall37: torch module names PyTorch lacks, TorchScript attributes
add(
    esc(
        "import_private_torch_path",
        "import torch.nn.utils._stateless.os as o\no.system('true')",
        (r"No module named 'torch\.nn\.utils\._stateless'",),
    ),
    esc(
        "import_from_a_module_file",
        "from torch.nn.functional.os import system",
        (r"'torch\.nn\.functional' is not a package",),
    ),
    esc(
        "scripted_code_walk",
        "f = torch.jit.script(lambda x: x)\ns = f.code.__class__",
        (r"is not supported",),
    ),
)

# fixcomplex: torch.linalg's inv, det and solve of complex matrices.
add(
    budget(
        "complex_inv_huge",
        "y = torch.linalg.inv(torch.ones(3000, 3000, dtype=torch.complex128))",
    ),
    budget(
        "complex_solve_huge_batch",
        "A = torch.eye(200, dtype=torch.cfloat).expand(10**4, 200, 200)\n"
        "y = torch.linalg.solve(A, A)",
    ),
    small(
        "complex_det_singular_second_order",
        "A = torch.zeros(2, 2, dtype=torch.cdouble, requires_grad=True)\n"
        "g, = torch.autograd.grad(torch.det(A).abs(), A, create_graph=True)",
        (r"not supported",),
    ),
    budget(
        "complex_svdvals_huge",
        "s = torch.linalg.svdvals(torch.ones(5000, 5000, dtype=torch.cfloat))",
    ),
    small(
        "complex_svdvals_second_order",
        "A = torch.eye(2, dtype=torch.cdouble, requires_grad=True)\n"
        "g, = torch.autograd.grad(torch.linalg.matrix_norm(A, 'nuc'), A, create_graph=True)",
        (r"not supported",),
    ),
)

# fixcomplex: NumPy arithmetic on complex arrays and Python complex numbers.
add(
    budget(
        "numpy_complex_outer_huge",
        "import numpy as np\n"
        "a = torch.ones(2 * 10**4, dtype=torch.cdouble).numpy()\n"
        "b = a.reshape(-1, 1) * (a.reshape(1, -1) + 1j)",
    ),
    small(
        "numpy_complex_remainder",
        "import numpy as np\nprint(np.array([1j]) % 2)",
        (r"ufunc 'remainder' not supported",),
    ),
    budget("complex_power_huge", "y = torch.ones(10**5, 10**5) ** (1 + 1j)"),
    budget("complex_rpow_huge", "y = 2 ** torch.ones(10**5, 10**5, dtype=torch.cfloat)"),
    budget(
        "complex_cholesky_huge",
        "y = torch.linalg.cholesky(torch.eye(4000, dtype=torch.cdouble).expand(50, 4000, 4000))",
    ),
    small(
        "complex_eigh_phase_dependent_loss",
        "A = torch.tensor([[2, 1 - 1j], [1 + 1j, 3]], requires_grad=True)\n"
        "w, V = torch.linalg.eigh(A)\nV[0, 1].imag.backward()",
        (r"ill-defined",),
    ),
    small(
        "numpy_complex_ordering",
        "import numpy as np\nprint(np.array([1j]) < np.array([2j]))",
        (r"'<' not supported between instances",),
    ),
)

# fixswap: torch.utils.swap_tensors (an O(1) exchange of two objects' contents).
add(
    budget(
        "swap_tensors_forever",
        "a = torch.ones(10**4)\nb = torch.zeros(3)\n"
        "while True:\n    torch.utils.swap_tensors(a, b)",
    ),
    budget(
        "swap_tensors_fresh_pairs",
        "while True:\n    torch.utils.swap_tensors(torch.ones(10**4), torch.zeros(10**4))",
    ),
    small(
        "swap_tensors_non_leaf",
        "x = torch.ones(2, requires_grad=True)\ny = x * 2\ntorch.utils.swap_tensors(y, x)",
        (r"not supported",),
    ),
    small(
        "swap_tensors_poisoned_backward",
        "x = torch.ones(2, requires_grad=True)\ny = torch.zeros(5, requires_grad=True)\n"
        "z = (x * x).sum()\ntorch.utils.swap_tensors(x, y)\nz.backward()",
        (r"poisoned by swap_tensors",),
    ),
    small(
        "swap_tensors_not_a_tensor",
        "torch.utils.swap_tensors(torch.ones(2), 'x')",
        (r"'str' object has no attribute '_use_count'",),
    ),
)

# lead (session38): `import os.path` and os.path's text-only functions.
add(
    small(
        "os_path_abspath_reads_cwd",
        "import os.path\nprint(os.path.abspath('x'))",
        (r"`os.path.abspath` is not supported",),
    ),
    small(
        "os_path_fspath_object",
        "import os.path as p\nclass P:\n    def __fspath__(self):\n        return 1/0\np.join(P())",
        (r"method `__fspath__` is not supported",),
    ),
    small(
        "os_path_plain_object",
        "import os.path as p\nclass P:\n    pass\np.join('a', P())",
        (r"expected str, bytes or os.PathLike object, not P",),
    ),
    budget(
        "os_path_join_forever",
        "import os.path\ns = 'a'\nwhile True:\n    s = os.path.join(s, s)",
    ),
    small(
        "os_path_dunder",
        "import os.path\nos.path.join.__globals__",
        (r"__globals__",),
    ),
)

# fixcomplex2: `import cmath` (numbers only, each call of bounded cost) and the complex
# decompositions (LAPACK's work bounded before it starts; no gradient without PyTorch's rule).
add(
    esc("cmath_dunder_walk", "import cmath\nf = cmath.exp.__globals__"),
    esc("cmath_module_dict", "import cmath\nd = cmath.__dict__"),
    esc("cmath_loader", "import cmath\nd = cmath.__loader__.load_module('os')"),
    small("cmath_exp_overflow", "import cmath\nz = cmath.exp(1e308 + 1j)", (r"math range error",)),
    small("cmath_string_argument", "import cmath\nz = cmath.sqrt('1')", (r"must be real",)),
    budget(
        "cmath_forever",
        "import cmath\nz = 1j\nwhile True:\n    z = cmath.exp(z) / (1 + abs(z))",
    ),
    budget(
        "complex_eig_huge",
        "A = torch.zeros(3000, 3000, dtype=torch.complex128)\nL, V = torch.linalg.eig(A)",
        LIMIT + (r"memory", r"too large"),
    ),
    budget(
        "complex_svd_batch_huge",
        "A = torch.zeros(4000, 60, 60, dtype=torch.complex128)\nU, S, Vh = torch.linalg.svd(A)",
        LIMIT + (r"memory", r"too large"),
    ),
    small(
        "complex64_eig_large",
        "A = torch.eye(3, dtype=torch.cfloat)\nL, V = torch.linalg.eig(A)",
        (r"not supported",),
    ),
    small(
        "complex_eig_nan",
        "A = torch.full((2, 2), float('nan'), dtype=torch.cdouble)\nL, V = torch.linalg.eig(A)",
        (r"should not contain infs or NaNs",),
    ),
    small(
        "complex_svd_inf",
        "A = torch.full((2, 3), float('inf'), dtype=torch.cdouble)\nU, S, Vh = torch.linalg.svd(A)",
        (r"failed to converge",),
    ),
)

# fixmeasb: torch.jit.trace / script make a module over (its submodules too) and run the
# example; a module inside itself, a deep nesting, a forward that never ends, traces without end.
add(
    budget(
        "jit_trace_module_in_itself",
        "m = torch.nn.Sequential(torch.nn.ReLU())\nm.add_module('again', m)\n"
        "t = torch.jit.trace(m, torch.ones(2))",
        (r"contains itself", r"limit", r"recursed too deeply"),
    ),
    budget(
        "jit_script_wide_nesting",
        "m = torch.nn.Sequential(*[torch.nn.ReLU() for _ in range(100)])\n"
        "for _ in range(30):\n    m = torch.nn.Sequential(m, m)\n"
        "s = torch.jit.script(m)",
    ),
    budget(
        "jit_trace_forever",
        "f = torch.nn.Identity()\nwhile True:\n    f = torch.jit.trace(f, torch.ones(10**5))",
    ),
    small(
        "jit_trace_forward_fails",
        "class M(torch.nn.Module):\n    def forward(self, x):\n        return x @ x\n"
        "t = torch.jit.trace(M(), torch.ones(2, 3))",
        (r"cannot be multiplied",),
    ),
)

# fixmeasb: torch.library.custom_op (an op over the program's function, run eagerly).
CUSTOM_OP = (
    "@torch.library.custom_op('t::f', mutates_args=())\n"
    "def f(x: torch.Tensor) -> torch.Tensor:\n    return f(x) + 1\n"
)
add(
    budget("custom_op_calls_itself", CUSTOM_OP + "f(torch.ones(2))", (r"depth of function calls",)),
    budget(
        "custom_op_many_ops",
        "def g(x: torch.Tensor) -> torch.Tensor:\n    return x.clone()\n"
        "i = 0\nwhile True:\n    torch.library.custom_op(f't::g{i}', g, mutates_args=())\n"
        "    i += 1",
    ),
    small(
        "custom_op_backward_loops",
        "@torch.library.custom_op('t::h', mutates_args=())\n"
        "def h(x: torch.Tensor) -> torch.Tensor:\n    return x.clone()\n"
        "def back(ctx, g):\n    while True:\n        g = g + 1\n"
        "h.register_autograd(back)\nh(torch.ones(2, requires_grad=True)).sum().backward()",
        (r"limit", r"time"),
    ),
    budget(
        "library_schema_of_many_arguments",
        "torch.library.define('t::f', "
        "'(' + ', '.join(f'Tensor a{i}' for i in range(10**7)) + ') -> Tensor')",
    ),
    small(
        "library_define_without_kernel",
        "torch.library.define('t::k', '(Tensor x) -> Tensor')\ntorch.ops.t.k(torch.ones(1))",
        (r"Could not run 't::k'",),
    ),
    small(
        "torch_ops_aten",
        "y = torch.ops.aten.add(torch.ones(1), torch.ones(1))",
        (r"not supported",),
    ),
    small(
        "library_opcheck_refused",
        "torch.library.opcheck(torch.sin, (torch.ones(1),))",
        (r"not supported.*\n(.*\n)*.*autograd\.Function",),
    ),
)

# fixmeasb: memory formats (channels_last strides laid out by a copy).
add(
    budget(
        "channels_last_empty_huge",
        "x = torch.empty(10**5, 10**3, 10, 10, memory_format=torch.channels_last)",
    ),
    budget(
        "channels_last_copies_forever",
        "x = torch.ones(64, 64, 32, 32)\nwhile True:\n"
        "    x = x.to(memory_format=torch.channels_last).contiguous()",
    ),
    budget(
        "channels_last_rand_like_huge",
        "x = torch.ones(1, 1, 1, 1).expand(10**4, 10**3, 10, 10)\n"
        "y = torch.rand_like(x, memory_format=torch.channels_last)",
    ),
    small(
        "channels_last_module_of_5d_weight",
        "m = torch.nn.Conv3d(2, 2, 1).to(memory_format=torch.channels_last)",
        (r"required rank 4 tensor to use channels_last format",),
    ),
)

# fixmeasa: a one-element integer tensor as a Python index (PyTorch's Tensor.__index__):
# repetitions and ranges it sizes stay under the limits.
add(
    budget("tensor_index_list_repeat", "xs = [0] * torch.tensor(10**12)"),
    budget("tensor_index_str_repeat", "s = torch.tensor(10**12) * 'ab'"),
    budget("tensor_index_range_loop", "for i in range(torch.tensor(10**15)):\n    pass"),
    small(
        "tensor_index_float",
        "print([1, 2][torch.tensor(1.0)])",
        (r"only integer tensors of a single element can be converted to an index",),
    ),
)

# fixmeasa: a checkpoint loaded into a lazy module before its first call.
add(
    small(
        "lazy_load_not_a_tensor",
        "m = torch.nn.LazyLinear(2)\nm.load_state_dict({'weight': [[1.0]], 'bias': 'x'})",
        (r"expected torch.Tensor or Tensor-like object from checkpoint",),
    ),
    small(
        "lazy_load_then_wrong_input",
        "m = torch.nn.LazyLinear(2)\nm.load_state_dict(torch.nn.Linear(3, 2).state_dict())\n"
        "m(torch.ones(1, 10**6))",
        (r"The in_features inferred from input: 1000000",),
    ),
)

# fixmeasa: `datetime` (the clock, dates and durations as Python's own values).
add(
    small(
        "datetime_strftime_width",
        "from datetime import datetime\ns = datetime.now().strftime('%2000000000Y')",
        (r"not supported",),
    ),
    budget(
        "datetime_strftime_long_format",
        "from datetime import datetime\ns = datetime.now().strftime('%c' * 500000)",
    ),
    small(
        "datetime_timedelta_overflow",
        "from datetime import timedelta\nd = timedelta(days=10**12) * 10**12",
        (r"too large|must have magnitude|Overflow|overflow",),
    ),
    small(
        "datetime_internals",
        "from datetime import datetime\nprint(datetime.now().__reduce__())",
        (r"not accessible",),
    ),
    small(
        "datetime_time_zone",
        "from datetime import datetime\nprint(datetime.now().astimezone().tzinfo)",
        (r"not supported",),
    ),
)

# fixmeasa: `with torch.device(...)` (the default device of a block: the CPU only).
add(
    small(
        "device_block_meta",
        "with torch.device('meta'):\n    x = torch.zeros(10**12)",
        LIMIT,  # (meta tensors are computed on zeros: the element limit)
    ),
    small(
        "device_block_not_a_device",
        "with torch.device(['cpu']):\n    pass",
        (r"received an invalid combination of arguments",),
    ),
    budget(
        "device_block_forever",
        "while True:\n    with torch.device('cpu'):\n        pass",
    ),
)

# explore103: assigning attributes of torch's own optimizers (`base.param_groups = groups`,
# `opt.state = defaultdict(dict)`, `opt.defaults`, other names kept for the program).
_OPT = "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1, momentum=0.9)\n"
add(
    budget(
        "optimizer_attributes_forever",
        _OPT + "i = 0\nwhile True:\n    setattr(opt, 'a%d' % i, torch.ones(1000))\n    i += 1",
    ),
    esc("optimizer_replace_step", _OPT + "opt.step = print"),
    esc("optimizer_replace_zero_grad", _OPT + "opt.zero_grad = lambda: None"),
    esc("optimizer_private_state", _OPT + "opt._state = {}", (r"cannot set attribute",)),
    small("optimizer_param_groups_int", _OPT + "opt.param_groups = 5", (r"not supported",)),
    small(
        "optimizer_param_groups_garbage_step",
        _OPT + "(w * w).sum().backward()\nopt.param_groups = [{'params': 3}]\nopt.step()",
        (r"must stay a list of tensors",),
    ),
    small(
        "optimizer_param_groups_no_lr",
        _OPT + "(w * w).sum().backward()\nopt.param_groups = [{'params': [w]}]\nopt.step()",
        (r"lost its 'lr'",),
    ),
    small(
        "optimizer_state_garbage_step",
        _OPT + "(w * w).sum().backward()\nopt.state = {w: 5}\nopt.step()",
        (r"wrong type",),
    ),
    small("optimizer_state_list", _OPT + "opt.state = [1, 2]", (r"not supported",)),
    small(
        "optimizer_defaults_emptied",
        _OPT + "(w * w).sum().backward()\nopt.defaults = {}\nopt.step()",
        (r"differentiable",),
    ),
)

# explore103: a program's Optimizer subclass that never calls super().__init__() (Lookahead's
# wrapper): what it assigned (param_groups, state, defaults) is read back, the rest is missing.
_WRAP = (
    "class W(torch.optim.Optimizer):\n    def __init__(self, groups):\n"
    "        self.param_groups = groups\n        self.defaults = {}\n"
    "    def step(self):\n        pass\n"
)
add(
    small(
        "wrapper_garbage_groups_zero_grad", _WRAP + "W([3]).zero_grad()", (r"not subscriptable",)
    ),
    small(
        "wrapper_garbage_params_scheduler",
        _WRAP + "torch.optim.lr_scheduler.StepLR(W([{'params': 5}]), 1)",
        (r"'lr'",),
    ),
    small("wrapper_groups_not_a_list", _WRAP + "W(5)", (r"not supported",)),
    small(
        "wrapper_state_dict_without_init",
        _WRAP + "W([]).state_dict()",
        (r"no attribute '_optimizer_state_dict_pre_hooks'",),
    ),
)

# explore103: `obj.__dict__` read of a program's plain instance (its attribute table, as vars());
# of anything else it stays closed.
_PLAIN = "class A:\n    def __init__(self):\n        self.x = 1\na = A()\n"
add(
    esc("plain_dict_then_type_dict", _PLAIN + "d = a.__dict__.__class__.__dict__"),
    esc(
        "plain_dict_class_then_dict",
        _PLAIN + "a.__dict__['__class__'] = 1\nd = a.__class__.__dict__",
    ),
    esc("plain_dict_assigned", _PLAIN + "a.__dict__ = {}", (r"not accessible",)),
    esc("plain_dict_of_module", "d = torch.nn.Linear(1, 1).__dict__", (r"not accessible",)),
    esc("plain_dict_of_optimizer_class", "d = torch.optim.SGD.__dict__", (r"not accessible",)),
    small(
        "plain_dict_self_reference_printed",
        _PLAIN + "a.__dict__['d'] = a.__dict__\nprint(a.__dict__)",
        (r"nested over",),  # (Python prints {...}; gradcli's printing stops at its limit)
        codes=frozenset({0, 1}),
        printed=True,
    ),
)

# explore102: 0-dim tensors taken as PyTorch's Numbers (arange, normal's size, pad, tril): the
# values they hold meet the same limits as plain numbers.
add(
    budget("arange_tensor_bound_huge", "n = torch.tensor(10**15)\nx = torch.arange(n)"),
    budget(
        "normal_tensor_mean_huge_size",
        "m = torch.tensor(0.0)\nx = torch.normal(m, torch.tensor(1.0), (10**6, 10**6))",
    ),
    budget(
        "pad_tensor_sizes_huge",
        "k = torch.tensor(10**6)\nx = torch.nn.functional.pad(torch.ones(10, 10), (k, k, k, k))",
    ),
    small(
        "arange_tensor_step_zero",
        "x = torch.arange(0, 5, torch.tensor(0))",
        (r"step must be nonzero",),
    ),
    small(
        "arange_tensor_nan_bound",
        "x = torch.arange(torch.tensor(float('nan')))",
        (r"unsupported range",),
    ),
)

# fixsig: torch.optim.Muon (Newton-Schulz iterations of bfloat16 matrix products per step).
add(
    budget(
        "muon_huge_matrix",
        "w = torch.ones(3000, 3000, requires_grad=True)\nopt = torch.optim.Muon([w])\n"
        "w.grad = torch.ones(3000, 3000)\nopt.step()",
    ),
    budget(
        "muon_steps_in_long_loop",
        "w = torch.randn(200, 200, requires_grad=True)\nopt = torch.optim.Muon([w], ns_steps=99)\n"
        "w.grad = torch.randn(200, 200)\nfor i in range(10**8):\n    opt.step()",
        TIME_OR_LIMIT,
    ),
    small(
        "muon_ns_steps_too_many",
        "w = torch.ones(2, 2, requires_grad=True)\nw.grad = torch.ones(2, 2)\n"
        "opt = torch.optim.Muon([w], ns_steps=10**9)\nopt.step()",
        (r"less than 100",),
    ),
    small(
        "muon_coefficients_not_three",
        "w = torch.ones(2, 2, requires_grad=True)\nw.grad = torch.ones(2, 2)\n"
        "opt = torch.optim.Muon([w], ns_coefficients=(1.0, 2.0))\nopt.step()",
        (r"exactly 3 values",),
    ),
)

# fixsig: Module.load_state_dict(assign=True) (the checkpoint's tensors become the module's).
add(
    small(
        "load_state_dict_assign_not_a_tensor",
        "m = torch.nn.Linear(2, 2)\nm.load_state_dict({'weight': [[1.0, 2.0]], 'bias': 0}, "
        "assign=True)",
        (r"expected torch.Tensor or Tensor-like object",),
    ),
    budget(
        "load_state_dict_assign_forever",
        "m = torch.nn.Linear(1000, 1000)\nsd = m.state_dict()\n"
        "while True:\n    m.load_state_dict(sd, assign=True)",
        TIME_OR_LIMIT,
    ),
)

# fixsig: torch.__future__ (a namespace named with dunders, reached through its table only).
add(
    small(
        "future_namespace_internals",
        "print(torch.__future__.__dict__)",
        (r"not accessible in gradcli programs",),
    ),
    small(
        "torch_other_dunder_still_refused",
        "print(torch.__builtins__)",
        (r"not accessible in gradcli programs",),
    ),
    budget(
        "future_overwrite_many_conversions",
        "torch.__future__.set_overwrite_module_params_on_conversion(True)\n"
        "m = torch.nn.Linear(1000, 1000)\nwhile True:\n    m.double()\n    m.float()",
        TIME_OR_LIMIT,
    ),
)

# fixsig: a split's node called with one gradient per piece.
add(
    budget(
        "pieces_node_called_forever",
        "x = torch.ones(10**6, requires_grad=True)\nps = x.split(10)\ng = [None] * len(ps)\n"
        "g[0] = torch.ones(10)\nwhile True:\n    ps[0].grad_fn(*g)",
        TIME_OR_LIMIT,
    ),
    small(
        "pieces_node_wrong_gradient",
        "x = torch.ones(4, requires_grad=True)\na, b = x.split(2)\nprint(a.grad_fn('g', None))",
        (r"argument 0 is not a Variable",),
    ),
)

# fixctrl: the compiler's settings modules (torch._dynamo.config and its kin), kept per run.
add(
    budget(
        "compile_config_set_forever",
        "i = 0\nwhile True:\n    torch._dynamo.config.cache_size_limit = i\n    i += 1",
    ),
    small(
        "compile_config_unknown_name",
        "torch._inductor.config.triton.no_such_setting = 1",
        (r"torch._inductor.config.triton.no_such_setting does not exist",),
    ),
    small(
        "compile_config_save",
        "print(torch._dynamo.config.save_config())",
        (r"not supported",),
    ),
    small(
        "compile_config_patch_unknown",
        "with torch._dynamo.config.patch(no_such_setting=True):\n    pass",
        (r"torch._dynamo.config.no_such_setting does not exist",),
    ),
    small(
        "compile_config_object_default",
        "print(torch._inductor.config.compile_threads)",
        (r"not supported",),
    ),
    small(
        "compile_config_dunder",
        "print(torch._dynamo.config.__dict__)",
        (r"not supported|dunder|__dict__",),
    ),
    small(
        "compile_config_replace_section",
        "torch._inductor.config.triton = {}",
        (r"not supported",),
    ),
)

# fixctrl: torch.cond, while_loop, scan and map call the program's functions under its limits.
add(
    budget(
        "while_loop_forever",
        "from torch._higher_order_ops import while_loop\n"
        "print(while_loop(lambda i: i < 10**15, lambda i: (i + 1,), (torch.tensor(0),)))",
    ),
    budget(
        "while_loop_python_int_forever",
        "print(torch.while_loop(lambda i: True, lambda i: (i + 1,), (0,)))",
    ),
    budget(
        "scan_many_steps",
        "from torch._higher_order_ops import scan\n"
        "c, ys = scan(lambda c, x: (c + x, c * 1), torch.zeros(1), torch.ones(10**7, 1))",
    ),
    budget(
        "map_many_slices",
        "from torch._higher_order_ops import map\nys = map(lambda x: x * 2, torch.ones(10**7))",
    ),
    small(
        "cond_recursing",
        "def f(x):\n    return torch.cond(x.sum() > 0, f, f, (x,))\nf(torch.ones(2))",
        (r"recursion|depth",),
    ),
    small(
        "cond_pred_not_bool",
        "torch.cond('yes', lambda x: x, lambda x: x, (torch.ones(2),))",
        (r"Expected pred to be bool or tensor",),
    ),
    small(
        "cond_branch_returns_a_string",
        "torch.cond(torch.tensor(True), lambda x: 'a', lambda x: 'b', (torch.ones(2),))",
        (r"HOP body output unsupported",),
    ),
    small(
        "scan_combine_returns_one",
        "from torch._higher_order_ops import scan\n"
        "scan(lambda c, x: c + x, torch.zeros(2), torch.ones(3, 2))",
        (r"improper combine_fn number of returns",),
    ),
)

# fixctrl: fractional max pooling (regions drawn per plane, windows gathered at once).
add(
    budget(
        "fractional_pool_many_planes",
        "y = torch.nn.functional.fractional_max_pool2d(torch.ones(1, 10**6, 3, 3), 2, "
        "output_size=2)\nprint(y.sum())",
        LIMIT,
        codes=frozenset({0, 1}),
    ),
    budget(
        "fractional_pool_huge_windows",
        "y = torch.nn.functional.fractional_max_pool2d(torch.ones(1, 1, 3000, 3000), 1000, "
        "output_size=2000)",
        LIMIT + (r"at most",),
    ),
    small(
        "fractional_pool_bad_samples",
        "torch.nn.functional.fractional_max_pool2d(torch.ones(1, 2, 6, 6), 2, output_size=3, "
        "_random_samples=torch.rand(1, 3, 2))",
        (r"equals to input channel size",),
    ),
    small(
        "fractional_pool_samples_not_tensor",
        "torch.nn.functional.fractional_max_pool2d(torch.ones(1, 2, 6, 6), 2, output_size=3, "
        "_random_samples=[[[0.5, 0.5]]])",
        (r"must be Tensor",),
    ),
)

# fixctrl: sparse COO products (torch.sparse.mm, @), sums and to_sparse.
add(
    budget(
        "sparse_mm_one_crowded_row",
        "s = torch.sparse_coo_tensor(torch.zeros(2, 10**6, dtype=torch.long), "
        "torch.ones(10**6), (1, 1))\ny = torch.sparse.mm(s, torch.ones(1, 1))",
        LIMIT + (r"at most",),
    ),
    budget(
        "sparse_mm_wide_dense",
        "i = torch.arange(10**5).repeat(2, 1)\n"
        "s = torch.sparse_coo_tensor(i, torch.ones(10**5), (10**5, 10**5))\n"
        "y = s @ torch.ones(10**5, 2000)",
        LIMIT + (r"at most",),
    ),
    budget(
        "sparse_mm_in_a_loop",
        "s = torch.ones(100, 100).to_sparse()\nd = torch.ones(100, 100)\n"
        "while True:\n    d = torch.sparse.mm(s, d)",
    ),
    small(
        "sparse_mm_index_out_of_bound",
        "s = torch.sparse_coo_tensor(torch.tensor([[0], [5]]), torch.ones(1), (2, 2), "
        "check_invariants=False)\ntorch.sparse.mm(s, torch.ones(2, 2))",
        (r"index out of column bound",),
    ),
    small(
        "sparse_times_sparse",
        "s = torch.ones(2, 2).to_sparse()\nprint(torch.sparse.mm(s, s))",
        (r"not supported",),
    ),
    small(
        "to_sparse_requires_grad",
        "x = torch.ones(2, 2, requires_grad=True)\ns = x.to_sparse()",
        (r"not supported",),
    ),
)

# fixctrl: torch.linalg.ldl_factor / ldl_solve (LAPACK's order, one matrix and column at a time).
add(
    budget(
        "ldl_factor_many_matrices",
        "A = torch.eye(20).expand(10**4, 20, 20)\nLD, p = torch.linalg.ldl_factor(A)",
        LIMIT + (r"at most",),
    ),
    small(
        "ldl_factor_large_matrix",
        "LD, p = torch.linalg.ldl_factor(torch.eye(200))",
        (r"not supported",),
    ),
    small(
        "ldl_solve_bad_pivots",
        "LD, p = torch.linalg.ldl_factor(torch.eye(3))\n"
        "torch.linalg.ldl_solve(LD, p * 7, torch.ones(3, 1))",
        (r"pivots must be between",),
    ),
)

# fixctrl: torch.sparse.softmax (float64; a line's entries summed one after another).
add(
    budget(
        "sparse_softmax_one_long_line",
        "i = torch.stack([torch.zeros(10**6, dtype=torch.long), torch.arange(10**6)])\n"
        "s = torch.sparse_coo_tensor(i, torch.ones(10**6, dtype=torch.float64), (1, 10**6))\n"
        "a = torch.sparse.softmax(s, 1)",
        LIMIT + (r"at most",),
    ),
    budget(
        "sparse_softmax_float32_one_long_line",
        "i = torch.stack([torch.zeros(10**6, dtype=torch.long), torch.arange(10**6)])\n"
        "s = torch.sparse_coo_tensor(i, torch.ones(10**6), (1, 10**6))\n"
        "a = torch.sparse.log_softmax(s, 1)",
        LIMIT + (r"at most",),
    ),
)

# lead (session38): `self._modules[name] = module` and `del self._modules[name]`.
add(
    budget(
        "modules_item_assignment_forever",
        "from torch import nn\nm = nn.Sequential()\ni = 0\nwhile True:\n"
        "    m._modules[str(i)] = nn.ReLU()\n    i += 1",
    ),
    small(
        "modules_item_assignment_itself",
        "from torch import nn\nm = nn.Sequential()\nm._modules['me'] = m\nprint(m)",
        (r"contains itself",),
    ),
    small(
        "modules_item_assignment_of_a_tensor",
        "from torch import nn\nm = nn.Sequential()\nm._modules['t'] = torch.ones(2)",
        (r"not supported",),
    ),
)

# lead (session38): `from sys import ...`, `from os import ...`, `from os.path import ...`.
add(
    small(
        "from_os_import_system_used",
        "from os import system\nsystem('touch /tmp/gradcli_owned')",
        (r"`os.system` is not supported",),
    ),
    small(
        "from_sys_import_modules_walk",
        "from sys import modules\nos = modules.get('os')",
        (r"`sys\.modules\.get` is not supported",),
    ),
    small(
        "from_os_path_import_dunder",
        "from os.path import join\nf = join.__globals__",
        (r"__globals__",),
    ),
    small(
        "from_sys_stdout_dunder",
        "from sys import stdout\nb = stdout.buffer",
        (r"not supported|has no attribute",),
    ),
    esc("from_os_import_star", "from os import *"),
)

# fixdist2: GeneralizedPareto (rsample is icdf of torch.rand).
add(
    budget(
        "generalized_pareto_sample_huge",
        "from torch.distributions import GeneralizedPareto\n"
        "print(GeneralizedPareto(torch.zeros(10**4), 1.0, 0.2).sample((10**5,)))",
    ),
    small(
        "generalized_pareto_float64_log_prob",
        "from torch.distributions import GeneralizedPareto\n"
        "d = GeneralizedPareto(0.0, 1.0, torch.tensor(0.1, dtype=torch.float64))\n"
        "print(d.log_prob(torch.tensor(1.0, dtype=torch.float64)))",
        (r"Double did not match Float",),
    ),
    small(
        "generalized_pareto_log_prob_of_a_string",
        "from torch.distributions import GeneralizedPareto\n"
        "GeneralizedPareto(0.0, 1.0, 0.1).log_prob('x')",
        (r"The value argument to log_prob must be a Tensor",),
    ),
)

# fixdist2: CorrCholeskyTransform (D (D - 1) / 2 numbers laid out as D x D), SoftmaxTransform.
add(
    budget(
        "corr_cholesky_huge_vector",
        "from torch.distributions.transforms import CorrCholeskyTransform\n"
        "print(CorrCholeskyTransform()(torch.zeros(4471 * 4470 // 2)).sum())",
    ),
    small(
        "corr_cholesky_length_not_triangular",
        "from torch.distributions.transforms import CorrCholeskyTransform\n"
        "print(CorrCholeskyTransform()(torch.zeros(5)))",
        (r"The size of last dimension is 5 which cannot be expressed",),
    ),
    small(
        "softmax_transform_log_det_unimplemented",
        "from torch.distributions.transforms import SoftmaxTransform\n"
        "x = torch.zeros(3)\nSoftmaxTransform().log_abs_det_jacobian(x, x)",
        (r"SoftmaxTransform is not a bijection",),
    ),
)

# fixdist2: MixtureSameFamily.expand (views of the parameters; draws make the full shape).
add(
    budget(
        "mixture_expand_huge_sample",
        "from torch.distributions import Categorical, MixtureSameFamily, Normal\n"
        "m = MixtureSameFamily(Categorical(torch.ones(3)), Normal(torch.zeros(3), 1.0))\n"
        "print(m.expand((10**5, 10**5)).sample().sum())",
    ),
)

# fixdist2: SoftplusTransform.
add(
    small(
        "softplus_transform_inverse_of_nonpositive",
        "from torch.distributions.transforms import SoftplusTransform\n"
        "print(SoftplusTransform().inv(torch.tensor([-1.0, 0.0])))",
        (r"tensor\(\[nan, -inf\]\)",),
        codes=frozenset({0}),
    ),
    budget(
        "softplus_transform_in_long_loop",
        "from torch.distributions.transforms import SoftplusTransform\n"
        "t = SoftplusTransform()\nx = torch.ones(10)\nwhile True:\n    x = t.inv(t(x))",
        TIME_OR_LIMIT,
    ),
)

# lead (session38): string's constants, random.sample of a deque, StepLR's float step_size.
add(
    esc("string_module_template", "import string\nt = string.Template('$x').substitute(x=1)"),
    esc("string_formatter", "import string\nf = string.Formatter().format('{0.__class__}', 1)"),
    esc("string_dunder", "import string\nd = string.__dict__"),
    budget(
        "sample_of_a_deque_forever",
        "import random\nfrom collections import deque\nd = deque(range(10**5))\n"
        "while True:\n    s = random.sample(d, 10**5)",
    ),
    small(
        "steplr_float_zero_step",
        "w = torch.zeros(1, requires_grad=True)\no = torch.optim.SGD([w], lr=1.0)\n"
        "s = torch.optim.lr_scheduler.StepLR(o, 0.0)\no.step()\ns.step()",
        (r"float modulo",),
    ),
)

# fixsmall38: Tensor.dim_order (a sort over the dimensions; a list of formats checked each).
add(
    small(
        "dim_order_of_many_dimensions_in_loop",
        "x = torch.zeros([1] * 8).expand([3] * 8)\nwhile True:\n    x.dim_order()",
        TIME_OR_LIMIT,
    ),
    small(
        "dim_order_ambiguity_check_not_a_list",
        "print(torch.zeros(2, 2).dim_order(ambiguity_check=(torch.channels_last,)))",
        (r"must be a bool or a list of memory formats",),
    ),
)

# fixsmall38: transforms' domain / codomain (built from the parts of a ComposeTransform).
add(
    small(
        "transform_domain_of_deeply_nested_compose",
        "from torch.distributions import transforms as T\nt = T.ExpTransform()\n"
        "for i in range(100000):\n    t = T.ComposeTransform([t])\nprint(t.domain)",
        (r"recursed too deeply",) + TIME_OR_LIMIT,
    ),
    small(
        "transform_codomain_of_stack_checks_a_million_slices",
        "from torch.distributions import transforms as T\n"
        "c = T.StackTransform([T.ExpTransform()] * 10**6).codomain\n"
        "print(c.check(torch.ones(10**6)).all())",
        TIME_OR_LIMIT,
    ),
)

# fixmisc39: torch.cond runs the branch not taken too (on copies, recording nothing).
add(
    small(
        "cond_untaken_branch_loops_forever",
        "def spin(x):\n    while True:\n        x = x + 1\n"
        "print(torch.cond(torch.tensor(True), lambda x: x.cos(), spin, (torch.ones(2),)))",
        TIME_OR_LIMIT,
    ),
    budget(
        "cond_untaken_branch_allocates_gigabytes",
        "print(torch.cond(torch.tensor(True), lambda x: x.cos(), "
        "lambda x: x.expand(10**6, 10**5).clone().sum(0), (torch.ones(10**5),)))",
    ),
    small(
        "cond_untaken_branch_recurses",
        "def f(x):\n    return torch.cond(x.sum() < 0, f, lambda x: x.cos(), (x,))\n"
        "print(f(torch.ones(2)))",
        (r"recursion|depth",),
    ),
    small(
        "cond_branch_prints",
        "torch.cond(torch.tensor(False), lambda x: x.cos(), lambda x: print(x) or x.sin(), "
        "(torch.ones(2),))",
        (r"Failed to trace builtin operator",),
    ),
)

# fixmisc39: torch.jit.trace keeps the Python values a traced function takes from tensors.
add(
    small(
        "jit_trace_keeps_endless_item_values",
        "def f(x):\n    while True:\n        x.item()\ntorch.jit.trace(f, torch.ones(()))",
        TIME_OR_LIMIT,
    ),
    small(
        "packed_sequence_constructor_without_data",
        "from torch.nn.utils.rnn import PackedSequence\nPackedSequence()",
        (r"missing 1 required positional argument: 'data'",),
    ),
)

# fixmisc39: CatTransform and constraints.cat (blocks of `lengths`), Lower/PositiveDefinite.
add(
    small(
        "cat_transform_of_a_million_blocks",
        "from torch.distributions import transforms as T\n"
        "t = T.CatTransform([T.ExpTransform()] * 10**6, dim=0)\n"
        "print(t(torch.zeros(10**6)).sum())",
        TIME_OR_LIMIT,
    ),
    small(
        "cat_constraint_lengths_not_sizes",
        "from torch.distributions import constraints as C\nC.cat([C.real], lengths=['a'])",
        (r"lengths must be a list of sizes",),
    ),
    budget(
        "positive_definite_transform_of_huge_matrix",
        "from torch.distributions import transforms as T\n"
        "print(T.PositiveDefiniteTransform()(torch.zeros(20000, 20000)).sum())",
    ),
)

# fixmisc39: x.grad_dtype = dtype (the engine casts a leaf's gradients to it).
add(
    small(
        "grad_dtype_set_to_a_tensor",
        "x = torch.ones(2, requires_grad=True)\nx.grad_dtype = torch.ones(2)",
        (r"grad_dtype must be a torch.dtype or None, but got Tensor",),
    ),
)

# fixmisc39: torch.func.rearrange parses a pattern string (gradcli's parser, bounded).
add(
    small(
        "rearrange_pattern_of_megabytes",
        "from torch.func import rearrange\n"
        "print(rearrange(torch.ones(2), 'a -> a' + ' (' * 10**7))",
        TIME_OR_LIMIT + (r"Imbalanced parentheses|brackets inside brackets",),
    ),
    small(
        "rearrange_many_unit_axes",
        "from torch.func import rearrange\n"
        "print(rearrange(torch.ones(2), 'a -> a' + ' 1' * 10**5))",
        (r"dimension|limit",),
    ),
    budget(
        "rearrange_huge_merge_copy",
        "from torch.func import rearrange\n"
        "x = torch.ones(1, 10**7).expand(1000, 10**7)\nprint(rearrange(x, 'a b -> (b a)').sum())",
    ),
)

# fixmisc39: sparse CSR matrices (to_sparse_csr, sparse_csr_tensor, products with dense).
add(
    small(
        "csr_tensor_from_a_huge_list",
        "print(torch.sparse_csr_tensor([0] * 10**8, [0], [1.0]))",
        TIME_OR_LIMIT,
    ),
    small(
        "csr_tensor_offsets_decreasing",
        "print(torch.sparse_csr_tensor([0, 2, 1], [0, 1], [1.0, 2.0]))",
        (r"crow_indices",),
    ),
    budget(
        "csr_product_of_billions",
        "c = torch.ones(3000, 3000).to_sparse_csr()\nprint((c @ torch.ones(3000, 3000)).sum())",
        LIMIT + (r"at most",),
    ),
    small(
        "csr_indexing_refused",
        "c = torch.eye(3).to_sparse_csr()\nprint(c[0])",
        (r"not supported",),
    ),
)

# lead, session 39: histogramdd's bins multiply across dimensions; empty_permuted's layout.
add(
    small(
        "histogramdd_bins_product_huge",
        "import torch\nh = torch.histogramdd(torch.ones(2, 3), bins=[5000, 5000, 5000])",
        LIMIT,
    ),
    small(
        "histogramdd_bins_edges_huge",
        "import torch\nh = torch.histogramdd(torch.ones(2, 2), bins=[10**9, 2])",
        LIMIT,
    ),
    small(
        "empty_permuted_huge",
        "import torch\nx = torch.empty_permuted((10**5, 10**5), (1, 0))",
        LIMIT,
    ),
    small(
        "nonzero_static_size_huge",
        "import torch\nx = torch.nonzero_static(torch.ones(2), size=10**10)",
        LIMIT,
    ),
)

# lead, session 39: as_strided_scatter's view is bounded as as_strided's.
add(
    small(
        "as_strided_scatter_view_huge",
        "import torch\nx = torch.as_strided_scatter(torch.zeros(4), torch.zeros(1), "
        "(10**6, 10**6), (0, 0))",
        LIMIT,
    ),
)

# fixfft39: torch.fft (the sizes n= / s= a program asks for, the frequencies' lengths, loops of
# transforms and their gradients).
add(
    small(
        "fft_n_past_the_element_limit",
        "x = torch.fft.fft(torch.ones(4), n=10**12)",
        (r"over the limit",),
    ),
    small(
        "fftn_s_product_past_the_limit",
        "x = torch.fft.fftn(torch.ones(2, 2, 2), s=(3000, 3000, 3000))",
        (r"over the limit",),
    ),
    small(
        "irfft_n_doubles_past_the_limit",
        "x = torch.fft.irfft(torch.ones(3, dtype=torch.cfloat), n=2**40)",
        (r"over the limit",),
    ),
    small(
        "hfft2_s_past_the_limit",
        "x = torch.fft.hfft2(torch.ones(2, 2), s=(10**5, 10**5))",
        (r"over the limit",),
    ),
    small(
        "fftfreq_length_past_the_limit",
        "x = torch.fft.fftfreq(2**62, d=1e-300)",
        (r"over the limit",),
    ),
    small(
        "fft_gradients_in_an_endless_loop",
        "x = torch.randn(4096, requires_grad=True)\nwhile True:\n"
        "    torch.fft.irfft(torch.fft.rfft(x)).sum().backward()",
        TIME_OR_LIMIT,
    ),
    small(
        "fftshift_of_many_dims_in_a_loop",
        "x = torch.zeros([2] * 20)\nwhile True:\n    x = torch.fft.fftshift(x)",
        TIME_OR_LIMIT,
    ),
    small(
        "fft_s_list_of_a_million_sizes",
        "x = torch.fft.fftn(torch.ones(2), s=[2] * 10**6)",
        (r"Got shape with 1000000 values", r"over the limit", r"limit"),
    ),
)

# fixmeas109: nn.LinearCrossEntropyLoss / F.linear_cross_entropy (a Linear of C * prod(out_features)
# rows; the chunked `options` path refused).
add(
    small(
        "linear_cross_entropy_loss_huge_out_features",
        "c = torch.nn.LinearCrossEntropyLoss(1000, 1000, out_features=(1000, 1000))",
        LIMIT + (r"memory", r"too large", r"bytes"),
    ),
    small(
        "linear_cross_entropy_loss_many_out_features",
        "c = torch.nn.LinearCrossEntropyLoss(1, 1, out_features=(1,) * 10**7)",
        TIME_OR_LIMIT,
    ),
    small(
        "linear_cross_entropy_options_refused",
        "o = torch.nn.LinearCrossEntropyOptions()\n"
        "print(torch.nn.functional.linear_cross_entropy(torch.ones(1, 2), torch.ones(3, 2), "
        "torch.tensor([0]), options=o))",
        (r"not supported",),
    ),
)

# fixmeas109: nn.utils.skip_init (the generator's state put back, every tensor empty memory),
# torch.autograd.enforce_grad_layout_policy (a leaf's .grad kept in the layout the pass made)
# and torch.autograd.graph.region_activation_memory_budget (PyTorch's eager RuntimeError).
add(
    small(
        "skip_init_huge_linear",
        "m = torch.nn.utils.skip_init(torch.nn.Linear, 10**6, 10**6)",
        LIMIT + (r"memory", r"too large"),
    ),
    small(
        "skip_init_program_class_refused",
        "class M(torch.nn.Module):\n    def __init__(self, device=None):\n"
        "        super().__init__()\n        self.w = torch.nn.Parameter(torch.ones(2))\n"
        "m = torch.nn.utils.skip_init(M)",
        (r"not supported",),
    ),
    small(
        "skip_init_in_endless_loop",
        "while True:\n    m = torch.nn.utils.skip_init(torch.nn.Linear, 100, 100)",
        TIME_OR_LIMIT,
    ),
    small(
        "grad_layout_policy_broadcast_gradient_refused",
        "x = torch.zeros(3, 4, requires_grad=True)\n"
        "with torch.autograd.enforce_grad_layout_policy(False):\n    x.sum().backward()",
        (r"not supported",),
    ),
    small(
        "grad_layout_policy_decorating_a_builtin_refused",
        "f = torch.autograd.enforce_grad_layout_policy(False)(print)",
        (r"not supported",),
    ),
    small(
        "grad_layout_policy_toggled_in_endless_loop",
        "p = torch.zeros(3, 2).t().requires_grad_()\nwhile True:\n"
        "    with torch.autograd.enforce_grad_layout_policy(False):\n"
        "        (p * 2).sum().backward()",
        TIME_OR_LIMIT,
    ),
    small(
        "region_memory_budget_after_compile_refused",
        "f = torch.compile(lambda t: t * 2)\n"
        "with torch.autograd.graph.region_activation_memory_budget(0.5):\n"
        "    y = f(torch.ones(2))",
        (r"not supported",),
    ),
)

# fixmeas109: torch.func.replace_all_batch_norm_modules_ (a walk over every submodule).
add(
    small(
        "replace_all_batch_norm_deep_nesting",
        "m = torch.nn.BatchNorm1d(2)\nfor i in range(100000):\n"
        "    m = torch.nn.Sequential(m)\ntorch.func.replace_all_batch_norm_modules_(m)",
        TIME_OR_LIMIT + (r"recursed too deeply", r"nest"),
    ),
    small(
        "replace_all_batch_norm_in_endless_loop",
        "m = torch.nn.Sequential(*[torch.nn.BatchNorm1d(2) for i in range(100)])\nwhile True:\n"
        "    torch.func.replace_all_batch_norm_modules_(m)",
        TIME_OR_LIMIT,
    ),
    small(
        "module_instance_dict_refused",
        "m = torch.nn.Linear(2, 2)\nd = m.__dict__\nd['_parameters'] = {}",
        (r"not supported",),
    ),
)

# fixmeas109: complex parameters in torch.optim (each stepped as its real view).
add(
    small(
        "complex_adam_in_endless_loop",
        "z = torch.zeros(1000, dtype=torch.complex64, requires_grad=True)\n"
        "opt = torch.optim.Adam([z, z, z])\nwhile True:\n"
        "    z.abs().sum().backward()\n    opt.step()",
        TIME_OR_LIMIT,
    ),
    small(
        "complex_lbfgs_refused",
        "z = torch.zeros(2, dtype=torch.complex64, requires_grad=True)\n"
        "opt = torch.optim.LBFGS([z])",
        (r"not supported",),
    ),
)

# fixmeas109: torch.segment_reduce (a Python loop over segments and their rows).
add(
    small(
        "segment_reduce_many_segments",
        "x = torch.zeros(10**6)\ny = torch.segment_reduce(x, 'sum', lengths=torch.ones(10**6, "
        "dtype=torch.long))\nwhile True:\n    y = torch.segment_reduce(x, 'prod', "
        "lengths=torch.ones(10**6, dtype=torch.long))",
        TIME_OR_LIMIT,
    ),
    small(
        "segment_reduce_unsafe_lengths_past_the_data",
        "x = torch.ones(3)\ny = torch.segment_reduce(x, 'sum', lengths=torch.tensor([5, 9]), "
        "unsafe=True)",
        (r"not supported",),
    ),
    small(
        "segment_reduce_lengths_rows_not_the_data",
        "x = torch.ones(3, 4)\ny = torch.segment_reduce(x, 'sum', lengths=torch.tensor([[4], [4]]),"
        " axis=1)",
        (r"not supported",),
    ),
    small(
        "segment_reduce_huge_lengths_unsafe",
        "x = torch.ones(3)\ny = torch.segment_reduce(x, 'max', lengths=torch.tensor([2**62, 1]), "
        "unsafe=True)",
        (r"not supported",) + LIMIT,
    ),
)

# fixcomplex4: complex LU (zgetrf's order, a Python loop per column): the work bounded before
# it starts, complex pivots checked as real ones, a loop bounded by the time limit.
add(
    budget(
        "complex_lu_factor_expanded_batch",
        "a = torch.eye(200, dtype=torch.complex128).expand(5000, 200, 200)\n"
        "lu, p = torch.linalg.lu_factor(a)",
    ),
    budget(
        "complex_lu_solve_expanded_rhs",
        "lu, p = torch.linalg.lu_factor(torch.eye(300, dtype=torch.complex128))\n"
        "b = torch.ones(1, 1, 1, dtype=torch.complex128).expand(10**5, 300, 1000)\n"
        "x = torch.linalg.lu_solve(lu, p, b, adjoint=True)",
    ),
    small(
        "complex_lu_unpack_pivot_out_of_range",
        "lu = torch.eye(3, dtype=torch.complex128)\n"
        "P, L, U = torch.lu_unpack(lu, torch.tensor([1, 7, 3], dtype=torch.int32))",
        (r"between 1 and LU.size\(-2\)",),
    ),
    budget(
        "complex_solve_triangular_expanded",
        "a = torch.eye(1000, dtype=torch.complex128).expand(9, 1000, 1000)\n"
        "b = torch.ones(1, 1, 1, dtype=torch.complex128).expand(9, 1000, 1000)\n"
        "x = torch.linalg.solve_triangular(a, b, upper=True)",
    ),
    budget(
        "complex_lu_factor_in_long_loop",
        "a = torch.randn(16, 16, dtype=torch.complex128)\n"
        "for i in range(10**8):\n    lu, p = torch.linalg.lu_factor(a)",
        TIME_OR_LIMIT,
    ),
)

# fixmeas107: torch.utils.deterministic (its one setting; resize_ growing into filled memory).
add(
    small(
        "deterministic_module_unknown_setting",
        "torch.utils.deterministic.__class__ = object",
        (r"not accessible",),
    ),
    small(
        "deterministic_resize_growing_in_loop",
        "torch.use_deterministic_algorithms(True)\nx = torch.zeros(1)\nn = 1\n"
        "while True:\n    n = n * 2\n    x.resize_(n)",
        TIME_OR_LIMIT,
    ),
)

# fixmeas107: torch.nn.attention.sdpa_kernel (a block and a decorator saving the switches).
add(
    small(
        "sdpa_kernel_decorated_recursion",
        "from torch.nn.attention import sdpa_kernel, SDPBackend\n"
        "@sdpa_kernel(SDPBackend.MATH)\ndef f(n):\n    return f(n + 1)\nf(0)",
        (r"recursion|recursed|call depth",) + TIME_OR_LIMIT,
    ),
    small(
        "sdpa_kernel_blocks_in_loop",
        "from torch.nn.attention import sdpa_kernel, SDPBackend\n"
        "while True:\n    with sdpa_kernel([SDPBackend.MATH] * 1000):\n        pass",
        TIME_OR_LIMIT,
    ),
    small(
        "sdpa_kernel_not_a_backend",
        "from torch.nn.attention import sdpa_kernel\nwith sdpa_kernel(print):\n    pass",
        (r"Backend must be an instance of SDPBackend",),
    ),
)

# fixmeas107: numpy.fft (a transform's length from n= / s=) and NumPy's windows.
add(
    small(
        "numpy_fft_huge_n",
        "import numpy as np\nprint(np.fft.rfft(np.ones(4), n=10**12))",
        LIMIT,
    ),
    small(
        "numpy_fft_huge_s_from_import",
        "from numpy.fft import irfftn\nimport numpy as np\n"
        "print(irfftn(np.ones((2, 2)), s=(10**5, 10**5)))",
        LIMIT,
    ),
    small(
        "numpy_fftfreq_huge",
        "import numpy.fft as nf\nprint(nf.fftfreq(10**13, d=0.1))",
        LIMIT,
    ),
    small(
        "numpy_window_huge",
        "import numpy as np\nprint(np.hanning(10**12))",
        LIMIT,
    ),
    small(
        "numpy_fft_in_loop",
        "import numpy as np\nx = np.ones(4096)\n"
        "while True:\n    x = np.fft.ifft(np.fft.fft(x)).real",
        TIME_OR_LIMIT,
    ),
)

# fixmeas107: NumPy's zipf (the legacy draw's rejection loop for an exponent near 1) and the
# other added samplers.
add(
    small(
        "numpy_zipf_exponent_near_one",
        "import numpy as np\nprint(np.random.zipf(1.0000001, size=1000))",
        LIMIT,
    ),
    small(
        "numpy_zipf_array_exponent_near_one",
        "import numpy as np\nprint(np.random.RandomState(0).zipf(np.array([3.0, 1 + 1e-12])))",
        LIMIT,
    ),
    small(
        "numpy_hypergeometric_huge_size",
        "import numpy as np\nprint(np.random.default_rng(0).hypergeometric(5, 5, 3, size=10**10))",
        LIMIT,
    ),
)

# fixmeas107: bytes values (b"..." literals, str.encode, bytes' methods, int.to_bytes).
add(
    small("bytes_repeat_huge", "b = b'ab' * 10**9", LIMIT),
    small("bytes_of_huge_count", "b = bytes(10**12)", LIMIT),
    small(
        "bytes_doubling_in_loop",
        "b = b'x'\nwhile True:\n    b = b + b",
        LIMIT,
    ),
    small(
        "bytes_replace_empty_grows",
        "b = b'a' * 1000\nprint(len(b.replace(b'', b'y' * 5000)))",
        LIMIT,
    ),
    small(
        "bytes_join_many",
        "parts = [b'x' * 1000] * 100000\nprint(len(b''.join(parts)))",
        LIMIT,
    ),
    small("bytes_center_huge", "print(len(b'a'.center(10**10)))", LIMIT),
    small("int_to_bytes_huge_length", "print((1).to_bytes(10**10, 'big'))", LIMIT),
    small(
        "int_from_bytes_huge_number",
        "print(int.from_bytes(b'\\xff' * 10**5, 'big'))",
        LIMIT,
    ),
    small(
        "bytes_print_of_escapes",
        "b = b'\\xff' * 900000\nprint(b)",
        LIMIT,
    ),
    small(
        "bytes_decode_binary_codec",
        "print(b'abc'.decode('base64'))",
        (r"not a text encoding",),
    ),
    small(
        "bytes_decode_unknown_text_codec",
        "print(b'abc'.decode('punycode'))",
        (r"not supported",),
    ),
    small(
        "bytes_format_reaches_attribute",
        "print('{0.__class__}'.format(b'x'))",
        (r"not supported|not accessible|refused",),
    ),
    small(
        "bytes_method_with_object_argument",
        "print(b'abc'.find(torch.ones(2)))",
        (r"bytes-like object is required",),
    ),
    small("bytearray_refused", "b = bytearray(10**9)", (r"not supported",)),
    small(
        "bytes_expandtabs_huge",
        "print(len((b'\\t' * 1000).expandtabs(10**6)))",
        LIMIT,
    ),
)

# fixmeas107: a dimension given by a name (named tensors, gone from PyTorch): the parser's
# words, worked out from the recorded signatures, never the argument's contents.
add(
    small(
        "named_dim_long_name_in_loop",
        "x = torch.zeros(2, 3)\nname = 'C' * 10**5\nwhile True:\n"
        "    try:\n        x.max(name)\n    except TypeError as e:\n        pass",
        TIME_OR_LIMIT,
    ),
    small(
        "named_dim_list_of_names",
        "x = torch.zeros(2, 3)\nprint(x.sum(['C'] * 10**5))",
        (r"sum\(\)|must be|TypeError|tuple of ints",),
    ),
)

# fixmeas107: NumPy Generator's dtype= draws, permuted and bytes.
add(
    small(
        "generator_bytes_huge",
        "import numpy as np\nprint(len(np.random.default_rng(0).bytes(10**10)))",
        LIMIT,
    ),
    small(
        "generator_float32_draw_huge",
        "import numpy as np\nrng = np.random.default_rng(0)\n"
        "x = rng.random((10**5, 10**5), dtype=np.float32)",
        LIMIT,
    ),
    small(
        "generator_permuted_in_loop",
        "import numpy as np\nrng = np.random.default_rng(0)\na = np.zeros((1000, 1000))\n"
        "while True:\n    a = rng.permuted(a, axis=1)",
        TIME_OR_LIMIT,
    ),
    small(
        "generator_integers_object_dtype",
        "import numpy as np\nprint(np.random.default_rng(0).integers(3, dtype=print))",
        (r"unsupported dtype",),
    ),
)

# fixmeas107: numpy.random.bytes (the legacy stream's).
add(
    small(
        "numpy_random_bytes_huge",
        "import numpy as np\nprint(len(np.random.bytes(10**11)))",
        LIMIT,
    ),
)

# explore111: `'name' in locals()` / `in globals()` (whether a variable is bound); the
# dictionaries themselves stay refused, however they are reached.
add(
    esc("locals_item_read", "x = 1\nv = locals()['x']"),
    esc("globals_as_list", "k = list(globals())"),
    esc("globals_in_a_function", "def f():\n    return globals()\nd = f()"),
    esc("locals_membership_of_a_call", "v = 'x' in locals(1)"),
    esc("locals_in_a_generator", "v = ['x' in locals() for _ in range(2)]"),
    esc("vars_item_read", "x = 1\nv = vars()['x']"),
    esc("dir_as_list", "k = sorted(dir())"),
    esc("locals_in_a_lambda_default", "f = lambda d=locals(): d\nv = f()"),
    esc(
        "globals_builtins_walk",
        "if '__builtins__' in globals():\n    b = __builtins__",
    ),
    small(
        "locals_shadowed_by_the_program",
        "def locals():\n    return {'a': 1}\nprint('a' in locals(), 'b' in locals())",
        (),
        codes=frozenset({0}),
        stdout_patterns=(r"True False",),
    ),
    small(
        "in_locals_in_a_long_loop",
        "while True:\n    v = 'net' in locals()",
        TIME_OR_LIMIT,
    ),
)

# lead, session 39: torch.library.opcheck runs the program's kernels and fake kernels.
add(
    small(
        "opcheck_fake_kernel_loops",
        "import torch\nfrom torch import Tensor\n"
        "@torch.library.custom_op('h::f', mutates_args=())\ndef f(x: Tensor) -> Tensor:\n"
        "    return x.clone()\n@f.register_fake\ndef _(x):\n    while True:\n        pass\n"
        "torch.library.opcheck(f, (torch.ones(2),))",
        TIME_OR_LIMIT,
    ),
    small(
        "numpy_unary_out_not_an_array",
        "import numpy as np\nnp.sin(np.ones(2), out=[0.0, 0.0])",
        (r"return arrays must be of ArrayType",),
    ),
)

# lead, session 39: a compiled function runs in its own scope (is_compiling, stances).
add(
    small(
        "compiled_function_recursing",
        "import torch\n@torch.compile\ndef f(n):\n    return f(n + 1)\nf(0)",
        (r"recursed too deeply", r"call depth", r"limit"),
    ),
    small(
        "set_stance_on_a_module_refused",
        "import torch\nm = torch.compiler.set_stance('force_eager')(torch.nn.Linear(2, 2))",
        (r"not supported",),
    ),
)

# fixmeas113: torch.utils.data.sampler / .dataset / .dataloader (the same classes), and the
# samplers' error text showing the value as str() (bounded).
add(
    small(
        "sampler_module_weighted_huge",
        "W = torch.utils.data.sampler.WeightedRandomSampler\nl = list(W([1.0, 2.0], 10**12))",
        TIME_OR_LIMIT,
    ),
    small(
        "sampler_module_weighted_huge_weights",
        "from torch.utils.data.sampler import WeightedRandomSampler as W\n"
        "l = list(W(torch.ones(10**11), 2))",
        LIMIT,
    ),
    small(
        "sampler_flag_of_a_huge_list",
        "from torch.utils.data.sampler import RandomSampler\n"
        "s = RandomSampler(range(3), replacement=[0] * 10**7)",
        (r"replacement should be a boolean",) + LIMIT,
    ),
)

# fixmeas113: np.shares_memory's exact search (bounded work), NumPy ufuncs given tensors.
add(
    small(
        "shares_memory_hard_strides",
        "import numpy as np\nx = torch.zeros(10**6)\n"
        "a = x.as_strided((12, 11, 13, 10, 9, 8), (70001, 9001, 1003, 101, 13, 3)).numpy()\n"
        "print(np.shares_memory(a, x[7::4093].numpy()))",
        TIME_OR_LIMIT,
        codes=frozenset({0, 1}),
    ),
    small(
        "shares_memory_huge_max_work",
        "import numpy as np\nx = torch.zeros(10**6)\n"
        "print(np.shares_memory(x[:500000:3].numpy(), x[1::7].numpy(), max_work=10**18))",
        LIMIT + (r"max_work",),
        codes=frozenset({0, 1}),
    ),
    small(
        "ufunc_of_tensor_huge_broadcast",
        "import numpy as np\nv = np.arctan2(torch.ones(10**5, 1), torch.ones(10**5))",
        LIMIT,
    ),
    small(
        "ufunc_of_tensor_list_operand_huge",
        "import numpy as np\nv = np.hypot(torch.ones(3), [[1.0] * 10**4] * 10**4)",
        LIMIT,
    ),
)

# fixmeas113: the float32 precision settings (torch.backends.fp32_precision, mkldnn.matmul...).
add(
    small(
        "fp32_precision_huge_word",
        "torch.backends.mkldnn.matmul.fp32_precision = 'x' * 10**6\n"
        "print(torch.backends.mkldnn.matmul.fp32_precision)",
        (r"Unknown precision",) + LIMIT,
    ),
    small(
        "fp32_precision_of_a_huge_list",
        "torch.backends.fp32_precision = [0] * 10**7",
        (r"incompatible function arguments",) + LIMIT,
    ),
    small(
        "fp32_precision_object_other_attribute",
        "m = torch.backends.mkldnn.conv\nm.__class__ = int",
        REFUSED,
    ),
    small(
        "fp32_precision_set_in_a_long_loop",
        "while True:\n    torch.backends.mkldnn.rnn.fp32_precision = 'ieee'",
        TIME_OR_LIMIT,
    ),
)

# fixmeas113: unicodedata (Python's own functions on the program's text, bounded).
add(
    small(
        "unicodedata_nfkd_expansion",
        "import unicodedata\ns = unicodedata.normalize('NFKD', '\\ufdfa' * 10**5)\nprint(len(s))",
        LIMIT,
    ),
    small(
        "unicodedata_normalize_in_a_loop",
        "import unicodedata\ns = 'a'\nwhile True:\n"
        "    s = unicodedata.normalize('NFKD', s + '\\ufdfa')",
        TIME_OR_LIMIT,
    ),
    small(
        "unicodedata_of_a_tensor",
        "import unicodedata\nc = unicodedata.category(torch.ones(2))",
        (r"must be a unicode character, not Tensor",),
    ),
    small(
        "unicodedata_of_a_program_object",
        "import unicodedata\nclass S:\n    pass\nv = unicodedata.normalize('NFC', S())",
        (r"must be str, not S",),
    ),
    small(
        "unicodedata_lookup_huge_name",
        "import unicodedata\nc = unicodedata.lookup('A' * 10**6)",
        (r"undefined character name", r"name too long") + LIMIT,
    ),
)

# fixmeas113: NumPy's further two-input ufuncs (copysign, fmax, greater, gcd...): sized first.
add(
    small(
        "numpy_copysign_huge_broadcast",
        "import numpy as np\nv = np.copysign(np.ones((10**5, 1)), np.ones(10**5))",
        LIMIT,
    ),
    small(
        "numpy_gcd_of_a_huge_list",
        "import numpy as np\nv = np.gcd([2**62] * 10**7, 6)",
        LIMIT,
    ),
    small(
        "numpy_greater_of_program_objects",
        "import numpy as np\nclass A:\n    pass\nv = np.greater(A(), 1)",
        (r"takes arrays, numbers or lists",),
    ),
)

# fixfx40: torch.fx's symbolic tracing. A proxy reaches no Python object, its graph is bounded
# by the node limit, a graph edited into a cycle or a missing target is an error, not a hang.
FX_M = "import torch.fx\nclass M(torch.nn.Module):\n    def forward(self, x):\n"
add(
    small(
        "fx_proxy_dunder",
        FX_M + "        return x.__class__.__init__\ng = torch.fx.symbolic_trace(M())",
        REFUSED,
    ),
    small(
        "fx_proxy_private",
        FX_M + "        return x._node\ng = torch.fx.symbolic_trace(M())",
        REFUSED,
    ),
    small(
        "fx_proxy_unbounded_graph",
        FX_M + "        while True:\n            x = x + 1\ng = torch.fx.symbolic_trace(M())",
        TIME_OR_LIMIT,
        seconds=70.0,
    ),
    small(
        "fx_leaked_proxy_grows_graph",
        "import torch.fx\nkeep = []\nclass M(torch.nn.Module):\n    def forward(self, x):\n"
        "        keep.append(x)\n        return x\ng = torch.fx.symbolic_trace(M())\n"
        "p = keep[0]\nwhile True:\n    p = p * 2",
        TIME_OR_LIMIT,
        seconds=70.0,
    ),
    small(
        "fx_node_made_its_own_input",
        FX_M + "        return x.sin().cos()\ng = torch.fx.symbolic_trace(M())\n"
        "n = list(g.graph.nodes)[1]\nn.args = (n,)\ny = g(torch.ones(2))",
        (r"used before it has been defined",),
    ),
    small(
        "fx_get_attr_of_a_dunder",
        FX_M + "        return x\ng = torch.fx.symbolic_trace(M())\n"
        "with g.graph.inserting_before(list(g.graph.nodes)[-1]):\n"
        "    a = g.graph.get_attr('__class__')\ny = g(torch.ones(2))",
        (r"nonexistent target",),
    ),
    small(
        "fx_iterate_a_proxy",
        FX_M + "        return [r for r in x]\ng = torch.fx.symbolic_trace(M())",
        (r"Proxy object cannot be iterated",),
    ),
)
add(
    small(
        "operator_attrgetter_dunder",
        "import operator\nv = operator.attrgetter('__init__.__globals__')(torch.nn.Linear(1, 1))",
        REFUSED,
    ),
    small(
        "operator_getitem_huge_repeat",
        "import operator\nv = operator.mul([1], 10**12)",
        LIMIT + (r"too large", r"over"),
    ),
)
add(
    small(
        "fx_node_copy_forever",
        "import torch.fx\ng = torch.fx.Graph()\nx = g.placeholder('x')\nwhile True:\n"
        "    g.node_copy(x)",
        TIME_OR_LIMIT,
        seconds=70.0,
    ),
    small(
        "fx_proxy_of_a_plain_object",
        "import torch.fx\np = torch.fx.Proxy(object())",
        REFUSED,
    ),
)

# explore118: attributes set on a program's module and optimizer classes (setattr(Net, name,
# fn)): a library class's refused, a non-callable forward Python's error.
add(
    small(
        "class_setattr_on_a_library_module",
        "from torch import nn\ndef f(self, x):\n    return x\nsetattr(nn.Linear, 'forward', f)",
        (r"cannot set attribute", r"not supported"),
    ),
    small(
        "class_delattr_of_a_library_module",
        "del torch.nn.Linear.forward",
        (r"not supported",),
    ),
    small(
        "class_setattr_forward_not_callable",
        "from torch import nn\nclass Net(nn.Module):\n    pass\nNet.forward = 3\n"
        "y = Net()(torch.ones(1))",
        (r"'int' object is not callable",),
    ),
)

# explore118: a torch module's `__name__` and an instance's `__module__` (strings, read only).
add(
    small("module_name_repeated_huge", "v = torch.optim.lr_scheduler.__name__ * 10**8", LIMIT),
    small(
        "torch_module_name_assigned",
        "torch.optim.lr_scheduler.__name__ = 'os'",
        (r"cannot set", r"not supported", r"cannot assign", r"read-only"),
    ),
    small(
        "instance_module_of_a_graph_node",
        "y = torch.ones(1, requires_grad=True) * 2\nm = y.grad_fn.__module__",
        REFUSED + (r"has no attribute",),
    ),
)

# explore118: NumPy's set functions (isin, intersect1d, setdiff1d, union1d) and flatnonzero:
# no `kind=` (its table takes memory by the values' range), results sized, operands checked.
add(
    small(
        "numpy_isin_table_kind",
        "import numpy as np\nv = np.isin(np.arange(5), [0, 2**62], kind='table')",
        (r"unexpected keyword argument 'kind'",),
    ),
    small(
        "numpy_union1d_huge",
        "import numpy as np\nv = np.union1d(np.zeros(10**7), np.ones(10**7))",
        LIMIT,
    ),
    small(
        "numpy_isin_of_a_program_object",
        "import numpy as np\nclass A:\n    pass\nv = np.isin(A(), [1])",
        (r"takes arrays, numbers or lists",),
    ),
)

# fixnumpy40: a program's own NumPy calls whose bits depend on the processor run in a child
# process with the host's kernels (lang/hostnumpy.py): bounded before they leave, the child's
# time the program's, a program's object never sent.
add(
    small(
        "hostnumpy_exp_in_an_endless_loop",
        "import numpy as np\nx = np.linspace(0, 1, 10**6)\nwhile True:\n    y = np.exp(x)",
        TIME_OR_LIMIT,
    ),
    small(
        "hostnumpy_huge_product",
        "import numpy as np\na = np.ones((4000, 4000))\nb = a @ a",
        LIMIT,
    ),
    small(
        "hostnumpy_huge_decomposition",
        "import numpy as np\nu, s, vh = np.linalg.svd(np.ones((3000, 3000)))",
        LIMIT,
    ),
    small(
        "hostnumpy_power_of_a_program_object",
        "import numpy as np\nclass A:\n    pass\nv = np.power(A(), 2.5)",
        (r"takes arrays, numbers or lists",),
    ),
    small(
        "hostnumpy_cbrt_of_an_object_list",
        "import numpy as np\nclass A:\n    pass\nv = np.cbrt([A(), 1.0])",
        (r"Could not infer dtype",),
    ),
)

# explore117: the node hooks of a call's several outputs (split's pieces, a custom Function's
# outputs) run once, given every output's gradient: a hook that registers more hooks on the
# same node each time, or answers with the wrong number or sizes, ends in a clear error.
add(
    small(
        "pieces_prehook_wrong_count",
        "x = torch.ones(4, requires_grad=True)\na, b = x.split(2)\n"
        "b.grad_fn.register_prehook(lambda go: go[:1])\n(a.sum() + b.sum()).backward()",
        (r"incorrect number of values",),
    ),
    small(
        "pieces_hook_huge_gradient",
        "x = torch.ones(4, requires_grad=True)\na, b = x.split(2)\n"
        "a.grad_fn.register_hook(lambda gi, go: (torch.ones(10**9),))\n"
        "(a.sum() + b.sum()).backward()",
        (r"changed the size of value",) + LIMIT,
    ),
    small(
        "pieces_prehook_registers_prehooks",
        "x = torch.ones(4, requires_grad=True)\na, b = x.split(2)\nn = a.grad_fn\n"
        "def grow(go):\n    for _ in range(10**6):\n        n.register_prehook(grow)\n"
        "n.register_prehook(grow)\n(a.sum() + b.sum()).backward()",
        LIMIT,
    ),
)

# explore120: os.cpu_count() answers (a script's `torch.set_num_threads(os.cpu_count())`);
# the rest of os stays refused, and the thread counts are checked and only remembered.
add(
    small(
        "cpu_count_takes_no_argument", "import os\nn = os.cpu_count(1)", (r"too many positional",)
    ),
    esc("cpu_count_is_no_module", "import os\nf = os.cpu_count.__globals__"),
    esc("os_getcwd_still_refused", "import os\nd = os.getcwd()"),
    small(
        "num_threads_huge",
        "import torch\ntorch.set_num_threads(10**30)\nn = torch.get_num_threads()",
        (r"Overflow", r"expects an int"),
        codes=frozenset({0, 1}),
    ),
    small(
        "interop_threads_set_twice",
        "import torch\ntorch.set_num_interop_threads(2)\ntorch.set_num_interop_threads(2)",
        (r"cannot set number of interop threads",),
    ),
)

# explore120: `F.apply(x, flag=...)` binds keywords to forward's parameters (PyTorch 2.13).
_KW_FUNCTION = (
    "class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, y=None):\n"
    "        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g, None\n"
    "x = torch.ones(2, requires_grad=True)\n"
)
add(
    small(
        "function_apply_huge_keyword_name",
        "import torch\n" + _KW_FUNCTION + "y = F.apply(x, **{'a' * 10**6: 1})",
        (r"unexpected keyword argument",),
    ),
    esc(
        "function_apply_keyword_dunder",
        _KW_FUNCTION + "y = F.apply(x, y=F.apply.__globals__)",
    ),
)

# fixmisc40: torch.compile's OptimizedModule (a name it lacks is the module's) and the
# CompiledFunctionBackward node of a compiled call's outputs.
add(
    small(
        "compiled_module_nested_deeply",
        "m = torch.nn.Linear(2, 2)\nfor i in range(1000):\n    m = torch.compile(m)\n"
        "print(m(torch.ones(2)))",
        (r"recursed too deeply",) + LIMIT,
    ),
    esc(
        "compiled_module_orig_dunder",
        "m = torch.compile(torch.nn.Linear(2, 2))\nprint(m._orig_mod.__dict__)",
    ),
    esc(
        "compiled_module_forward_replaced",
        "m = torch.compile(torch.nn.Linear(2, 2))\nm.forward = print",
    ),
    esc(
        "compiled_node_internals",
        "f = torch.compile(lambda t: t * 2)\n"
        "print(f(torch.ones(2, requires_grad=True)).grad_fn._inputs)",
    ),
)

# fixmisc40: a sparse COO leaf that requires grad (its gradient gathered on a dense leaf of
# its shape) and torch.sparse.mm(csr, d, reduce).
add(
    small(
        "sparse_leaf_of_a_huge_size",
        "s = torch.sparse_coo_tensor([[0], [0]], [1.0], (10**6, 10**6), requires_grad=True)\n"
        "print(torch.sparse.mm(s, torch.ones(10**6, 1)).sum())",
        LIMIT,
    ),
    small(
        "sparse_mm_reduce_huge_work",
        "c = torch.ones(3000, 3000).to_sparse_csr()\n"
        "y = torch.sparse.mm(c, torch.ones(3000, 3000, requires_grad=True), 'amax')",
        (r"at most",) + LIMIT,
    ),
    small(
        "sparse_mm_reduce_not_a_string",
        "c = torch.eye(3).to_sparse_csr()\ny = torch.sparse.mm(c, torch.ones(3, 2), ['sum'])",
        (r"reduce argument must be",),
    ),
    esc(
        "sparse_leaf_shadow_reached",
        "s = torch.eye(2).to_sparse().requires_grad_()\nprint(s.shadow)",
    ),
)

# fixmisc40: torch.save of a whole module (kept in memory; torch.load(weights_only=False)
# copies it back): cycles, size and Python's internals stay bounded and refused.
add(
    small(
        "save_module_deep_nesting",
        "m = torch.nn.Linear(1, 1)\nfor i in range(3000):\n    m = torch.nn.Sequential(m)\n"
        "torch.save(m, 'm.pt')\nprint(torch.load('m.pt', weights_only=False))",
        (r"nested over", r"recursed too deeply") + LIMIT,
    ),
    small(
        "save_module_holding_itself",
        "class Net(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.me = [self]\nn = Net()\ntorch.save(n, 'n.pt')\n"
        "m = torch.load('n.pt', weights_only=False)\nprint(m.me[0] is m)",
        (),
        codes=frozenset({0}),
        stdout_patterns=(r"^True$",),
    ),
    esc(
        "save_module_loaded_dunder",
        "torch.save(torch.nn.ReLU(), 'r.pt')\n"
        "print(torch.load('r.pt', weights_only=False).__reduce__())",
    ),
)

# fixmisc40: torch.utils.module_tracker.ModuleTracker (global module hooks while entered).
add(
    esc(
        "module_tracker_internals",
        "from torch.utils.module_tracker import ModuleTracker\nt = ModuleTracker()\n"
        "print(t._known)",
    ),
    small(
        "module_tracker_in_a_long_loop",
        "from torch.utils.module_tracker import ModuleTracker\n"
        "m = torch.nn.Linear(1, 1)\nx = torch.ones(1, requires_grad=True)\n"
        "with ModuleTracker() as t:\n    while True:\n        m(x)",
        LIMIT,
    ),
)

# fixmisc40: torch.empty_strided with gaps (a storage as long as the last element's place).
add(
    small(
        "empty_strided_huge_gap",
        "x = torch.empty_strided((2, 2), (10**12, 1))",
        LIMIT,
    ),
    small(
        "empty_strided_overlapping_rows",
        "x = torch.empty_strided((3, 3), (1, 1))",
        (r"share memory",),
    ),
    small(
        "empty_strided_gapped_in_a_loop",
        "while True:\n    x = torch.empty_strided((100, 10), (20, 1))",
        LIMIT,
    ),
)

# fixmisc40: a program's nn.Module subclass's __dict__ / vars(): a read-only snapshot.
add(
    esc(
        "module_dict_snapshot_update",
        "class M(torch.nn.Module):\n    pass\nm = M()\nm.__dict__.update(forward=print)",
    ),
    esc(
        "module_dict_of_a_builtin_module",
        "print(vars(torch.nn.Linear(1, 1)))",
    ),
)

# fixmisc40: torch.frombuffer over bytes (read as a copy, bounded as a tensor is).
add(
    small(
        "frombuffer_of_many_bytes",
        "b = bytes(10**8)\nt = torch.frombuffer(b, dtype=torch.uint8)",
        LIMIT,
    ),
    small(
        "frombuffer_of_a_program_object",
        "class B:\n    def __buffer__(self, flags):\n        return b'1234'\n"
        "t = torch.frombuffer(B(), dtype=torch.uint8)",
        (r"buffer protocol", r"not supported"),
    ),
)

# fixmisc40: the recompile stances keep one guard entry per compile of a function.
add(
    small(
        "recompile_stance_many_shapes",
        "f = torch.compile(lambda t: t * 2)\nn = 1\nwhile True:\n"
        "    f(torch.ones(n % 50 + 1, 2, 3))\n    n += 1",
        LIMIT,
    ),
    small(
        "recompile_stance_number_argument",
        "@torch.compile\ndef f(t, k):\n    return t * k\nf(torch.ones(2), 3)\n"
        "with torch.compiler.set_stance('fail_on_recompile'):\n    f(torch.ones(2), 4)",
        (r"not supported",),
    ),
)

# fixdtype40: conjugate views (x.conj() shares x's storage: changes in place are written
# through every conjugate of a storage).
add(
    small(
        "conj_views_many_then_changed_in_a_loop",
        "z = torch.ones(4, dtype=torch.complex64)\n"
        "views = [z.conj() for _ in range(10**5)]\nwhile True:\n    z.add_(1)",
        TIME_OR_LIMIT,
    ),
    small(
        "conj_of_conj_chain_changed_in_a_loop",
        "c = torch.ones(4, dtype=torch.complex64)\nfor i in range(10**5):\n    c = c.conj()\n"
        "while True:\n    c.mul_(1)",
        TIME_OR_LIMIT,
    ),
    small(
        "conj_view_recorded_in_place",
        "a = torch.ones(2, dtype=torch.complex64, requires_grad=True)\nb = a * 2\nb.conj().mul_(3)",
        (r"not support",),
    ),
)

# fixdtype40: uint16 / uint32 / uint64 tensors (a gate of PyTorch's kernels for them).
add(
    small("uint64_huge_zeros", "v = torch.zeros(10**10, dtype=torch.uint64)", LIMIT),
    small(
        "uint64_huge_list_of_big_ints",
        "v = torch.tensor([2**64 - 1] * 10**8, dtype=torch.uint64)",
        LIMIT,
    ),
    small(
        "uint32_refused_op_in_a_loop",
        "a = torch.ones(3, dtype=torch.uint32)\nwhile True:\n    a = a * 1\n    b = a - a",
        (r"add_stub",),
    ),
)

add(
    # statistics, heapq, bisect (lang/pystdlib.py): endless inputs, deep items, huge heaps,
    # Python's internals through a key or a getter
    small(
        "statistics_of_an_endless_iterator",
        "import statistics, itertools\nv = statistics.mean(itertools.count())",
        LIMIT,
        seconds=70.0,
    ),
    small(
        "heappush_forever",
        "import heapq\nh = []\nwhile True:\n    heapq.heappush(h, (len(h) % 7, len(h)))",
        TIME_OR_LIMIT,
        seconds=70.0,
    ),
    small(
        "heap_of_deeply_nested_tuples",
        "import heapq\nt = ()\nfor i in range(100000):\n    t = (t,)\nh = [t]\n"
        "heapq.heappush(h, t)",
        NOT_SUPPORTED_OR_LIMIT + (r"nested over",),
    ),
    small(
        "nlargest_of_an_endless_iterator",
        "import heapq, itertools\nv = heapq.nlargest(3, itertools.count())",
        LIMIT,
        seconds=70.0,
    ),
    small(
        "bisect_key_reaching_internals",
        "import bisect\nv = bisect.bisect([1, 2], 1, key=lambda x: x.__class__.__mro__)",
        REFUSED,
    ),
    small(
        "insort_forever",
        "import bisect\na = []\nwhile True:\n    bisect.insort(a, len(a))",
        TIME_OR_LIMIT,
        seconds=70.0,
    ),
    small(
        "bisect_of_a_tensor_refused",
        "import bisect\nv = bisect.bisect_left(torch.arange(5), 2)",
        REFUSED,
    ),
    small(
        "itemgetter_of_a_dunder_key",
        "import operator\nv = operator.itemgetter('__globals__')(lambda: 0)",
        REFUSED + (r"not subscriptable",),
    ),
)
add(
    # NumPy's set, NaN-skipping, quantile and shape helpers and the array methods that are NumPy
    # functions (probe40): sizes checked first, tensors and objects never handed to NumPy
    small(
        "np_union1d_huge",
        "import numpy as np\na = np.zeros(60_000_000, dtype=np.int8)\nv = np.union1d(a, a)",
        LIMIT + (r"too large",),
    ),
    small(
        "np_quantile_of_many_qs",
        "import numpy as np\nq = np.linspace(0, 1, 100_000)\na = np.ones(100_000)\n"
        "v = np.quantile(a, q)",
        LIMIT + (r"too large",),
    ),
    small(
        "ndarray_take_huge_index_list",
        "import numpy as np\na = np.arange(6).reshape(2, 3)\nv = a.take([0] * 10**7, axis=1)",
        LIMIT + (r"too large",),
    ),
    small(
        "ndarray_take_object_indices",
        "import numpy as np\nclass I:\n    def __index__(self):\n        return 0\n"
        "v = np.arange(3).take([I()])",
        REFUSED,
    ),
    small(
        "np_setdiff1d_of_a_tensor",
        "import numpy as np\nv = np.setdiff1d(torch.arange(3), [1])",
        REFUSED,
    ),
    small(
        "ndarray_swapaxes_object_axis",
        "import numpy as np\nclass A:\n    pass\nv = np.zeros((2, 2)).swapaxes(A(), 1)",
        REFUSED + (r"cannot be interpreted as an integer",),
    ),
    small(
        "ndarray_item_of_a_huge_index",
        "import numpy as np\nv = np.arange(3).item(10**40)",
        (r"too large", r"out of bounds", r"convert"),
    ),
    small(
        "np_iinfo_long_string",
        "import numpy as np\nv = np.iinfo('i' * 100_000)",
        REFUSED,
    ),
)

# fixmeas40: indexing a tensor's storage (x.storage()[i], x.untyped_storage()[i], and writes).
add(
    small(
        "storage_index_huge",
        "s = torch.zeros(3).storage()\nprint(s[10**30])",
        (r"out of range for storage",),
    ),
    small(
        "storage_write_in_a_loop",
        "x = torch.zeros(4)\ns = x.storage()\ni = 0\nwhile True:\n    s[i % 4] = i\n    i += 1",
        TIME_OR_LIMIT,
    ),
    small(
        "untyped_storage_write_bad_value",
        "u = torch.zeros(2).untyped_storage()\nu[0] = 'x' * 10**6",
        (r"int types",),
    ),
    small(
        "storage_slice_and_float_index",
        "s = torch.zeros(2).storage()\nprint(s[1.5])",
        (r"can't index",),
    ),
)

# explore122: a Function's setup_context runs once more per torch.func level (PyTorch's calls)
_SETUP = (
    "class M(torch.autograd.Function):\n    @staticmethod\n    def forward(x):\n"
    "        return x * 2\n    @staticmethod\n    def setup_context(ctx, inputs, output):\n"
    "{body}    @staticmethod\n    def backward(ctx, g):\n        return g * 2\n"
    "f = torch.func.grad(torch.func.grad(torch.func.grad(lambda t: M.apply(t).sin())))\n"
    "f(torch.tensor(1.0))"
)
add(
    budget(
        "function_setup_context_loops_at_every_level",
        _SETUP.format(body="        while True:\n            pass\n"),
        patterns=TIME_OR_LIMIT,
    ),
    budget(
        "function_setup_context_reenters_the_function",
        _SETUP.format(body="        M.apply(inputs[0])\n"),
        patterns=DEPTH,
    ),
)

# fixhalf41: float16 / bfloat16 products follow ATen's loops (one NumPy step per inner index):
# the clock is read inside them, and their 8-lane order holds tiles of the output only.
add(
    small(
        "half_linear_products_in_a_loop",
        "w = torch.randn(300, 300).half()\nx = torch.randn(300, 300).half()\n"
        "while True:\n    x = (x @ w.t()) * 0.01",
        TIME_OR_LIMIT,
    ),
    small(
        "half_product_of_a_huge_inner_size",
        "a = torch.ones(2, 3_000_000).half()\nb = torch.ones(3_000_000, 2).half()\n"
        "print((a @ b).sum())",
        TIME_OR_LIMIT,
    ),
    small(
        "half_addmm_wide_transposed_output",
        "a = torch.ones(3000, 64).half()\nw = torch.ones(3000, 64).half()\n"
        "while True:\n    y = torch.addmm(torch.zeros(3000).half(), a, w.t())",
        TIME_OR_LIMIT,
    ),
)

# probe41: a torch.distributions class read as a class (D.Normal.arg_constraints) and in
# issubclass; its private and dunder names stay out of reach.
add(
    small(
        "distribution_class_dunder",
        "from torch import distributions as D\nprint(D.Normal.__dict__)",
        REFUSED,
    ),
    small(
        "distribution_class_private",
        "from torch import distributions as D\nprint(D.Normal._validate_args)",
        REFUSED,
    ),
    small(
        "distribution_class_init_attr",
        "from torch import distributions as D\nprint(D.Normal.__init__.__globals__)",
        REFUSED,
    ),
    small(
        "distribution_issubclass_loop",
        "from torch import distributions as D\n"
        "while True:\n    issubclass(D.Chi2, (D.Normal,) * 1000)",
        TIME_OR_LIMIT,
    ),
)

# explore121: torch.jit.ScriptModule subclasses (@torch.jit.script_method, __constants__,
# torch.jit.annotate), torch.jit.ignore(drop=...) / unused / export.
add(
    small(
        "script_module_recursive_init",
        "class M(torch.jit.ScriptModule):\n    def __init__(self):\n"
        "        super().__init__()\n        self.child = M()\nm = M()",
        (r"recursion", r"depth", r"limit"),
    ),
    small(
        "jit_ignore_huge_drop_argument",
        "f = torch.jit.ignore(drop='x' * 10**7)",
        (r"must be a bool or a function", r"limit", r"too large"),
    ),
    small(
        "jit_annotate_and_constants_attack",
        "class M(torch.jit.ScriptModule):\n    __constants__ = [().__class__.__base__]\n"
        "    @torch.jit.script_method\n    def forward(self, x):\n"
        "        return torch.jit.annotate(type, x).__subclasses__()\nM()(torch.ones(1))",
        REFUSED,
    ),
    small(
        "script_method_endless_recursion",
        "class M(torch.jit.ScriptModule):\n    @torch.jit.script_method\n"
        "    def forward(self, x):\n        return self(x) if torch.jit.is_scripting() else x\n"
        "M()(torch.ones(1))",
        (r"recursion", r"depth", r"limit"),
    ),
    small(
        "jit_unused_error_is_no_runtime_error",
        "class M(torch.nn.Module):\n    @torch.jit.unused\n    def u(self, x):\n"
        "        return x\n    def forward(self, x):\n        return self.u(x)\n"
        "s = torch.jit.script(M())\ntry:\n    s(torch.ones(1))\nexcept RuntimeError:\n"
        "    print('caught')",
        (r"annotated to be ignored",),
    ),
)

# explore123: a list, dict, set or deque made outside a vmapped function changed inside it by any
# path, and a global / nonlocal name rebound in every run (vmap, jacrev's hooks).
add(
    small(
        "vmap_outer_list_unbound_append",
        "acc = []\ndef f(v):\n    list.append(acc, v)\n    return v\n"
        "torch.vmap(f)(torch.ones(10**5, 1))",
        REFUSED,
    ),
    small(
        "vmap_outer_heap_push",
        "import heapq\nh = []\ndef f(v):\n    heapq.heappush(h, 1)\n    return v\n"
        "torch.vmap(f)(torch.ones(4))",
        REFUSED,
    ),
    small(
        "vmap_outer_deque_taken_method",
        "import collections\nq = collections.deque()\nput = q.appendleft\n"
        "def f(v):\n    put(v)\n    return v\ntorch.func.vmap(f)(torch.ones(4, 2))",
        REFUSED,
    ),
    small(
        "vmap_global_counter_many_elements",
        "n = 0\ndef f(v):\n    global n\n    n += 1\n    return v\n"
        "torch.vmap(f)(torch.ones(10**5))\nprint(n)",
        REFUSED,
    ),
    small(
        "vmap_nonlocal_counter_in_jacrev_hooks",
        "from torch.func import jacrev\ndef make():\n    k = 0\n"
        "    def hook(g):\n        nonlocal k\n        k += 1\n        return g\n"
        "    def f(x):\n        y = x * 2\n        y.register_hook(hook)\n        return y\n"
        "    return f\nprint(jacrev(make())(torch.ones(3)))",
        REFUSED,
    ),
)

# fixnumpy41: a program's own NumPy (complex scalar types, ufunc methods, the functions of
# lang/numpy_more): huge results, object and callback operands, in-place writes elsewhere.
add(
    small(
        "np_complex128_of_an_object",
        "import numpy as np\nclass A:\n    def __float__(self):\n        return 1.0\n"
        "v = np.complex128(A())",
        (r"takes a number",),
    ),
    small(
        "np_ufunc_outer_huge",
        "import numpy as np\nv = np.arange(10**6)\nw = np.multiply.outer(v, v)",
        LIMIT,
    ),
    small(
        "np_ufunc_at_callback_indices",
        "import numpy as np\na = np.zeros(3)\nnp.add.at(a, lambda: 0, 1)",
        (r"takes arrays, numbers or lists",),
    ),
    small(
        "np_ufunc_reduceat_many_indices",
        "import numpy as np\n"
        "v = np.add.reduceat(np.ones((10**4, 10)), np.zeros(10**6, dtype=int), axis=1)",
        LIMIT,
    ),
    small(
        "np_broadcast_to_huge",
        "import numpy as np\nv = np.broadcast_to(np.zeros(3), (10**9, 3))\nprint(v.sum())",
        LIMIT,
    ),
    small(
        "np_tensordot_huge_work",
        "import numpy as np\na = np.ones((3000, 3000))\nv = np.tensordot(a, a, axes=1)",
        LIMIT,
    ),
    small(
        "np_sliding_window_huge_then_copy",
        "import numpy as np\nfrom numpy.lib.stride_tricks import sliding_window_view\n"
        "v = sliding_window_view(np.zeros(10**6), 10**5).copy()",
        LIMIT,
    ),
    small(
        "np_block_deep_nesting",
        "import numpy as np\nb = [1.0]\nfor i in range(200):\n    b = [b]\nv = np.block(b)",
        LIMIT + (r"nesting",),
    ),
    small(
        "np_put_along_axis_into_tensor",
        "import numpy as np\nt = torch.zeros(2, 2)\n"
        "np.put_along_axis(t, np.zeros((2, 1), dtype=int), 1.0, 1)",
        REFUSED,
    ),
)

# fixnumpy41: NumPy's text, dtype objects and error settings.
add(
    small(
        "np_array2string_huge_text",
        "import numpy as np\ns = np.array2string(np.zeros(10**6), threshold=10**7, "
        "floatmode='fixed', precision=20)",
        LIMIT + (r"precision",),
    ),
    small(
        "np_errstate_callback",
        "import numpy as np\nwith np.errstate(call=print, all='call'):\n    pass",
        REFUSED,
    ),
)

# fixnumpy41: NumPy's bit generators, seed sequences and the legacy state.
add(
    small(
        "np_seed_sequence_spawn_huge",
        "import numpy as np\nkids = np.random.SeedSequence(1).spawn(10**9)",
        LIMIT,
    ),
    small(
        "np_bit_generator_huge_seed",
        "import numpy as np\ng = np.random.PCG64(10**100000)",
        LIMIT + (r"integer",),
    ),
)

# fixnumpy41: np.vectorize (the program's function per element) and np.linalg's additions.
add(
    small(
        "np_vectorize_many_elements",
        "import numpy as np\nv = np.vectorize(lambda x: x)(np.zeros(10**7))",
        LIMIT,
    ),
    small(
        "np_vectorize_endless_function",
        "import numpy as np\ndef f(x):\n    while True:\n        x += 1\nv = np.vectorize(f)([1])",
        TIME_OR_LIMIT,
    ),
    small(
        "np_vectorize_recursive",
        "import numpy as np\ndef f(x):\n    return g([x])\ng = np.vectorize(f)\nv = g([1])",
        LIMIT + (r"recursion", r"depth"),
    ),
    small(
        "np_matrix_power_huge_exponent",
        "import numpy as np\nv = np.linalg.matrix_power(np.eye(500), 10**300)",
        LIMIT,
    ),
)

# fixnumpy41: type queries, index iteration, 2-d histograms and fromfunction.
add(
    small(
        "np_ndindex_huge",
        "import numpy as np\nfor i in np.ndindex(10**5, 10**5):\n    pass",
        LIMIT,
    ),
    small(
        "np_fromfunction_huge_shape",
        "import numpy as np\nv = np.fromfunction(lambda i, j: i, (10**5, 10**5))",
        LIMIT,
    ),
)

# fixnumpy41: np.poly1d.
add(
    small(
        "np_poly1d_huge_integ",
        "import numpy as np\np = np.poly1d([1.0, 2.0]).integ(10**9)",
        LIMIT,
    ),
    small(
        "np_poly1d_composition_huge",
        "import numpy as np\np = np.poly1d(np.ones(5000))\nv = p(p)",
        LIMIT,
    ),
)

# fixnumpy41: np.fromiter, np.piecewise, float formatting, binary_repr, np.emath.
add(
    small(
        "np_fromiter_endless_generator",
        "import numpy as np\ndef gen():\n    while True:\n        yield 1.0\n"
        "v = np.fromiter(gen(), dtype=float)",
        TIME_OR_LIMIT,
    ),
    small(
        "np_piecewise_returns_object",
        "import numpy as np\nclass A:\n    pass\n"
        "v = np.piecewise(np.zeros(2), [np.ones(2) > 0], [lambda v: A()])",
        REFUSED,
    ),
    small(
        "np_binary_repr_huge_width",
        "import numpy as np\ns = np.binary_repr(1, width=10**9)",
        (r"over 10000",),
    ),
    small(
        "np_emath_huge_broadcast",
        "import numpy as np\nv = np.emath.power(np.ones((10**5, 1)), np.ones(10**5))",
        LIMIT,
    ),
)

# fixnumpy41: np.quantile's method= and weights=.
add(
    small(
        "np_quantile_object_weights",
        "import numpy as np\nclass A:\n    pass\n"
        "v = np.quantile([1.0, 2.0], 0.5, method='inverted_cdf', weights=A())",
        (r"takes arrays, numbers or lists",),
    ),
)

# fixmisc41: a program's losses built on torch.nn.modules.loss's _Loss / _WeightedLoss.
_LOSS_BASE = "from torch.nn.modules.loss import _Loss, _WeightedLoss\n"
add(
    small(
        "loss_base_forward_recursion",
        _LOSS_BASE + "class L(_Loss):\n    def forward(self, a):\n        return self(a)\n"
        "print(L()(torch.ones(1)))",
        LIMIT + (r"depth", r"recursi"),
    ),
    small(
        "loss_base_weight_not_a_tensor",
        _LOSS_BASE + "w = _WeightedLoss(weight='x' * 10**6)",
        (r"cannot assign 'str' object to buffer 'weight'",),
    ),
    small(
        "loss_base_dunder_refused",
        _LOSS_BASE + "class L(_WeightedLoss):\n    def __getattribute__(self, n):\n"
        "        return 1\nL()",
        REFUSED,
    ),
    small(
        "loss_base_reduction_huge_string",
        _LOSS_BASE + "l = _Loss(reduction='m' * 10**6)\nprint(len(l.reduction))",
        (),
        codes=frozenset({0}),
        stdout_patterns=(r"^1000000\n$",),
    ),
)

# fixmisc41: torch.nn.utils.convert_conv2d_weight_memory_format over a module tree.
add(
    small(
        "conv_weight_format_of_a_self_holding_module",
        "import torch.nn as nn\nm = nn.Sequential(nn.Conv2d(1, 1, 1))\nm.add_module('me', m)\n"
        "nn.utils.convert_conv2d_weight_memory_format(m, torch.channels_last)\n"
        "print(m[0].weight.stride())",
        LIMIT + (r"recursi", r"contains itself"),
        codes=frozenset({0, 1}),  # (PyTorch's own recursion never ends: RecursionError)
        stdout_patterns=(r"^\(1, 1, 1, 1\)\n$",),
    ),
    small(
        "conv_weight_format_not_a_module",
        "import torch.nn as nn\n"
        "nn.utils.convert_conv2d_weight_memory_format([nn.Conv2d(1, 1, 1)] * 10**6, 0)",
        (r"has no attribute 'children'",) + LIMIT,
    ),
)

# fixmisc41: meta tensors (device='meta', `with torch.device('meta'):`, .to('meta')).
add(
    small(
        "meta_tensor_over_the_element_limit",
        "x = torch.empty(10**6, 10**6, device='meta')",
        LIMIT,
    ),
    small(
        "meta_block_made_in_a_loop",
        "while True:\n    with torch.device('meta'):\n        x = torch.ones(1000)",
        TIME_OR_LIMIT,
    ),
    small(
        "meta_block_nested_deeply",
        "def f(n):\n    with torch.device('meta'):\n        return f(n + 1)\nf(0)",
        LIMIT + (r"depth", r"recursi"),
    ),
    small(
        "meta_values_read",
        "x = torch.ones(3, device='meta')\nprint(x.sum().item())",
        (r"Tensor.item\(\) cannot be called on meta tensors",),
    ),
    small(
        "meta_mask_index",
        "x = torch.ones(3, device='meta')\nprint(x[x > 0])",
        (r"register_meta function for torch.nonzero",),
    ),
    small(
        "meta_block_left_by_an_error_restores_the_cpu",
        "try:\n    with torch.device('meta'):\n        raise ValueError\nexcept ValueError:\n"
        "    pass\nprint(torch.ones(1).is_meta)",
        (),
        codes=frozenset({0}),
        stdout_patterns=(r"^False\n$",),
    ),
)

# fixmisc41: Tensor.sparse_mask.
add(
    small(
        "sparse_mask_not_sparse",
        "print(torch.ones(2).sparse_mask([1] * 10**6))",
        (r"Could not run 'aten::sparse_mask'",),
    ),
    small(
        "sparse_mask_many_entries",
        "i = torch.zeros(2, 10**7, dtype=torch.int64)\n"
        "m = torch.sparse_coo_tensor(i, torch.ones(10**7), (3, 3), check_invariants=False)\n"
        "print(torch.ones(3, 3).sparse_mask(m).to_dense())",
        LIMIT,
    ),
)

# fixmisc41: slices of a tensor's untyped storage.
add(
    small(
        "untyped_storage_slice_huge_bounds",
        "u = torch.zeros(2).untyped_storage()\nprint(u[-10**30 : 10**30].nbytes())",
        (),
        codes=frozenset({0}),
        stdout_patterns=(r"^8\n$",),
    ),
    small(
        "untyped_storage_slice_write_past_its_end",
        "x = torch.zeros(2)\ns = x.untyped_storage()[0:4]\ns[4] = 1\nprint(x)",
        (r"out of range for storage of size 4",),
    ),
    small(
        "untyped_storage_slices_in_a_loop",
        "u = torch.zeros(4).untyped_storage()\nwhile True:\n    u = u[0:16]",
        TIME_OR_LIMIT,
    ),
)

# fixmisc41: torch._dynamo.utils.counters (imports; clear() does nothing; reading is refused).
add(
    small(
        "dynamo_counters_read",
        "from torch._dynamo.utils import counters\ncounters.clear()\nprint(counters['stats'])",
        (r"`torch._dynamo.utils.counters` is not supported",),
    ),
    small(
        "dynamo_counters_reach_python",
        "import torch._dynamo.utils as u\nprint(u.counters.__class__)",
        (),
        codes=frozenset({0}),
        stdout_patterns=(r"^<class 'collections.defaultdict'>\n$",),
    ),
)

# explore124: a scheduler's `_last_lr` (and `_step_count`) read as PyTorch's fields: a copy;
# other underscored fields stay unreachable, and writing it is refused
_SCHED = (
    "p = torch.nn.Parameter(torch.zeros(1))\nopt = torch.optim.SGD([p], lr=0.1)\n"
    "s = torch.optim.lr_scheduler.{kind}(opt{args})\n"
)
add(
    small(
        "scheduler_last_lr_copy_grown_forever",
        _SCHED.format(kind="ReduceLROnPlateau", args="")
        + "lr = s._last_lr\nwhile True:\n    lr.extend(lr)",
        TIME_OR_LIMIT,
    ),
    small(
        "scheduler_private_field_not_listed",
        _SCHED.format(kind="StepLR", args=", 1") + "print(s._get_lr_called_within_step)",
        (r"has no attribute '_get_lr_called_within_step'",),
    ),
    small(
        "scheduler_last_lr_written",
        _SCHED.format(kind="ReduceLROnPlateau", args="") + "s._last_lr = [10**9] * 10**6",
        (r"cannot set attribute `_last_lr`",),
    ),
)

# lead (session 41): torch.nn.modules' private bases answer isinstance/issubclass only; a class
# built on one or an instance of one is refused, and a loop asking them stays in the limits
_ABSTRACT = "from torch.nn.modules.conv import _ConvNd\nimport torch.nn as nn\n"
add(
    small(
        "abstract_base_subclassed",
        _ABSTRACT + "class Evil(_ConvNd):\n    def forward(self, x):\n        return x\n",
        REFUSED,
    ),
    small(
        "abstract_base_instantiated",
        _ABSTRACT + "m = _ConvNd(1, 1, 1, 1, 0, 1, False, 0, 1)",
        REFUSED,
    ),
    small(
        "abstract_base_isinstance_loop",
        _ABSTRACT + "m = nn.Conv1d(1, 1, 1)\nwhile True:\n    isinstance(m, (_ConvNd,) * 1000)",
        TIME_OR_LIMIT,
    ),
    small(
        "abstract_base_members_unreachable",
        _ABSTRACT + "print(_ConvNd.derived)",
        (r"has no attribute 'derived'",),
    ),
)

# fixleft41: optimizer hooks (step pre/post, state_dict and load_state_dict pre/post).
add(
    small(
        "optim_step_hook_recurses",
        "w = torch.nn.Parameter(torch.ones(2))\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "opt.register_step_pre_hook(lambda o, a, k: o.step())\nopt.step()",
        LIMIT,
    ),
    small(
        "optim_step_hook_swaps_self",
        "w = torch.nn.Parameter(torch.ones(2))\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "opt.register_step_pre_hook(lambda o, a, k: ((5,), {}))\nopt.step()",
        REFUSED,
    ),
    small(
        "optim_hook_registers_hooks_endlessly",
        "w = torch.nn.Parameter(torch.ones(2))\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "def h(o, a, k):\n    for _ in range(10**7):\n        o.register_step_post_hook(h)\n"
        "opt.register_step_pre_hook(h)\nopt.step()",
        LIMIT,
    ),
    small(
        "optim_load_pre_hook_returns_junk",
        "w = torch.nn.Parameter(torch.ones(2))\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "opt.register_load_state_dict_pre_hook(lambda o, sd: 5)\n"
        "opt.load_state_dict(opt.state_dict())",
        (r"expects a dict",),
    ),
)

# fixleft41: nn.Module's state_dict pre/post hooks and load_state_dict post hooks.
add(
    small(
        "module_state_dict_hook_recurses",
        "m = torch.nn.Linear(2, 2)\n"
        "m.register_state_dict_pre_hook(lambda mod, p, k: mod.state_dict())\nsd = m.state_dict()",
        LIMIT,
    ),
    small(
        "module_load_post_hook_grows_keys",
        "m = torch.nn.Linear(2, 2)\n"
        "def h(mod, keys):\n    while True:\n        keys.missing_keys.append('x' * 1000)\n"
        "m.register_load_state_dict_post_hook(h)\nm.load_state_dict(m.state_dict())",
        LIMIT,
    ),
)

# lead (session 41): a scheduler subclass sets the base's number settings after its __init__;
# hostile numbers end in PyTorch's own errors or finish at once, anything else is refused
_WARM = (
    "from torch.optim.lr_scheduler import CosineAnnealingWarmRestarts as W, StepLR\n"
    "o = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)\n"
)
add(
    small(
        "scheduler_setting_zero_step_size",
        _WARM + "class A(StepLR):\n    def __init__(self, o):\n        super().__init__(o, 2)\n"
        "        self.step_size = 0\ns = A(o)\no.step()\ns.step()",
        (r"ZeroDivisionError", r"integer modulo by zero"),
    ),
    small(
        "scheduler_setting_tiny_growth_far_epoch",
        _WARM + "class B(W):\n    def __init__(self, o):\n        super().__init__(o, 1)\n"
        "        self.T_mult = 1.0000001\nb = B(o)\nb.step(10**18)\nprint(b.get_last_lr())",
        (),
        codes=frozenset({0}),
    ),
    small(
        "scheduler_setting_a_list_refused",
        _WARM + "class C(StepLR):\n    def __init__(self, o):\n        super().__init__(o, 2)\n"
        "        self.gamma = [0.5] * 10**6\nC(o)",
        (r"setting `gamma` of a scheduler is not supported",),
    ),
    small(
        "scheduler_setting_nan_refused",
        _WARM + "class D(StepLR):\n    def __init__(self, o):\n        super().__init__(o, 2)\n"
        "        self.gamma = float('nan')\nD(o)",
        (r"setting `gamma` of a scheduler is not supported",),
    ),
)

# -- probe41b: IterableDataset, ChainDataset, StackDataset through a DataLoader -----------------

_STREAM = (
    "from torch.utils.data import IterableDataset, ChainDataset, StackDataset, DataLoader\n"
    "class S(IterableDataset):\n    def __iter__(self):\n        return iter(range(2))\n"
    "    def __len__(self):\n        return 2\n"
)
_DEEP_CHAIN = _STREAM + "c = S()\nfor i in range(100000):\n    c = ChainDataset([c])\n"
add(
    small(
        "data_endless_iterable_dataset",
        "from torch.utils.data import IterableDataset, DataLoader\n"
        "class E(IterableDataset):\n    def __iter__(self):\n        while True:\n"
        "            yield torch.ones(3)\nfor b in DataLoader(E(), batch_size=10**9):\n    pass",
        TIME_OR_LIMIT,
    ),
    small("data_deep_chain_len", _DEEP_CHAIN + "n = len(c)", (r"recursed too deeply",) + LIMIT),
    small("data_deep_chain_list", _DEEP_CHAIN + "l = list(c)", (r"recursed too deeply",) + LIMIT),
    small(
        "data_deep_chain_loader",
        _DEEP_CHAIN + "l = list(DataLoader(c, batch_size=2))",
        (r"recursed too deeply",) + LIMIT,
    ),
    small(
        "data_chain_of_endless_generator",
        _STREAM + "def g():\n    while True:\n        yield S()\nl = list(ChainDataset(g()))",
        TIME_OR_LIMIT,
    ),
    small(
        "data_stack_dataset_huge_ranges",
        _STREAM + "s = StackDataset(*[range(10**12)] * 10**5)\nl = list(s)",
        TIME_OR_LIMIT,
    ),
    small("data_iterable_base_dict", _STREAM + "d = S.__dict__", (r"not supported", r"__dict__")),
)
_PLUS = "from torch.utils.data import TensorDataset\nds = TensorDataset(torch.ones(2))\nc = ds\n"
add(
    small(
        "data_plus_deep_concat",
        _PLUS + "for i in range(100000):\n    c = ds + c\nx = c[len(c) - 1]",
        (r"recursed too deeply",) + LIMIT,
    ),
    small(
        "data_plus_doubling_concat",
        _PLUS + "for i in range(100):\n    c = c + c\nx = list(c)",
        TIME_OR_LIMIT,
    ),
    small(
        "data_plus_endless_chain",
        _STREAM + "c = S()\nfor i in range(100000):\n    c = c + S()\nn = len(c)",
        (r"recursed too deeply",) + LIMIT,
    ),
)
_AUG = (
    "from torch.utils.data import Dataset, DataLoader\n"
    "class A(Dataset):\n    def __len__(self):\n        return 10**6\n"
    "    def __getitem__(self, i):\n        return torch.rand(1)\n"
)
add(
    small(
        "data_workers_many",
        _AUG + "for b in DataLoader(A(), num_workers=10**9):\n    pass",
        (r"not supported", r"num_workers"),
    ),
    small(
        "data_workers_every_batch_new_loader",
        _AUG + "while True:\n    for b in DataLoader(A(), num_workers=64):\n        break",
        TIME_OR_LIMIT,
    ),
    small(
        "data_worker_init_recursing",
        _AUG + "def f(w):\n    for b in DataLoader(A(), num_workers=2, worker_init_fn=f):\n"
        "        pass\nfor b in DataLoader(A(), num_workers=2, worker_init_fn=f):\n    pass",
        (r"recursed too deeply",) + LIMIT,
    ),
    # (fixleft42, session 42: an IterableDataset with workers runs as PyTorch's: each worker
    # iterates the stream; an endless one, or one iterating a loader of itself, is stopped)
    small(
        "data_workers_iterable_endless",
        "from torch.utils.data import IterableDataset, DataLoader\n"
        "class E(IterableDataset):\n    def __iter__(self):\n        while True:\n"
        "            yield torch.ones(3)\n"
        "for b in DataLoader(E(), batch_size=10**9, num_workers=2):\n    pass",
        TIME_OR_LIMIT,
    ),
    small(
        "data_workers_iterable_of_itself",
        "from torch.utils.data import IterableDataset, DataLoader, get_worker_info\n"
        "class S(IterableDataset):\n    def __iter__(self):\n"
        "        yield from DataLoader(self, num_workers=2)\n"
        "l = list(DataLoader(S(), num_workers=2))",
        (r"recursed too deeply",) + LIMIT,
    ),
)
add(
    small(
        "data_workers_huge_prefetch",
        _AUG + "for b in DataLoader(A(), num_workers=2, prefetch_factor=10**12):\n    pass",
        (r"not supported", r"prefetch_factor"),
    ),
    small(
        "data_workers_endless_batch_sampler_prefetch",
        "from torch.utils.data import DataLoader\n"
        "def g():\n    while True:\n        yield [0] * 10**6\n"
        "for b in DataLoader([torch.ones(10)], batch_sampler=g(), num_workers=64,"
        " prefetch_factor=64):\n    pass",
        TIME_OR_LIMIT,
    ),
    small(
        "data_generic_base_subscript_chain",
        "from torch.utils.data import Dataset\nD = Dataset\nfor i in range(10**7):\n    D = D[D]",
        TIME_OR_LIMIT,
    ),
)

# lead (session 41): copy.deepcopy / copy.copy of a generator is Python's TypeError at once
# (nothing is drawn from it, an endless one included), catchable
add(
    small(
        "deepcopy_endless_generator",
        "import copy, itertools\ng = (i for i in itertools.count())\n"
        "try:\n    copy.copy(g)\nexcept TypeError:\n    pass\ncopy.deepcopy([g] * 1000)",
        (r"cannot pickle 'generator' object",),
    ),
)

# explore127 (session 42): a torch.nn module's forward, an optimizer's step and nn.Module's
# _forward_unimplemented read as values are PyTorch's bound methods: their internals stay out
# of reach, and a call with any keywords is checked against PyTorch's signature
add(
    esc("bound_forward_func_globals", "s = torch.nn.ReLU().forward.__func__.__globals__"),
    esc(
        "bound_forward_getattr_closure", "s = getattr(torch.nn.Linear(2, 1).forward, '__closure__')"
    ),
    esc("bound_forward_self_dict", "s = torch.nn.Linear(2, 1).forward.__self__.__dict__"),
    esc(
        "bound_step_func_code",
        "s = torch.optim.SGD([torch.nn.Parameter(torch.ones(1))], lr=1).step.__func__.__code__",
    ),
    esc(
        "super_forward_globals",
        "class L(torch.nn.Linear):\n    def forward(self, x):\n"
        "        return super().forward.__globals__\nL(1, 1)(torch.ones(1))",
    ),
    esc(
        "unimplemented_forward_func",
        "class N(torch.nn.Module):\n    pass\ns = N().forward.__func__",
    ),
    small(
        "bound_forward_keywords_unknown_huge",
        "f = torch.nn.Linear(2, 1).forward\n"
        "try:\n    f(torch.ones(2), **{str(i): i for i in range(10**5)})\nexcept TypeError as e:\n"
        "    print(e)",
        (r"unexpected keyword argument|not supported|limit",),
        codes=frozenset({0, 1}),
    ),
)

# explore126 (session 42): torch.unique / unique_consecutive of an input requiring grad record a
# node with no derivative (Unique2Backward0...); its backward is PyTorch's error, catchable
add(
    small(
        "unique_grad_backward_uncaught",
        "x = torch.ones(3, 2, requires_grad=True)\ntorch.unique(x, dim=0).sum().backward()",
        (r"the derivative for 'unique_dim' is not implemented",),
    ),
    small(
        "unique_grad_caught_forever",
        "x = torch.arange(6.).requires_grad_()\nwhile True:\n    try:\n"
        "        torch.unique_consecutive(x).sum().backward()\n    except NotImplementedError:\n"
        "        pass",
        TIME_OR_LIMIT,
    ),
    small(
        "unique_grad_huge_view",
        "u = torch.unique(torch.ones(1, requires_grad=True).expand(10**9), dim=0)",
        LIMIT,
    ),
)

# explore126 (session 42): bincount(weights=) / histogram / histogramdd of tensors requiring
# grad hang from PyTorch's NotImplemented node; the limits hold on that path too
add(
    small(
        "bincount_grad_weights_huge_minlength",
        "w = torch.ones(3, requires_grad=True)\n"
        "c = torch.bincount(torch.tensor([0, 1, 1]), weights=w, minlength=10**12)",
        LIMIT,
    ),
    small(
        "histogram_grad_huge_bins",
        "h = torch.histogram(torch.ones(4, requires_grad=True), bins=10**12)",
        LIMIT,
    ),
    small(
        "histogramdd_grad_backward_uncaught",
        "p = torch.rand(5, 2, requires_grad=True)\n"
        "torch.histogramdd(p, bins=3).hist.sum().backward()",
        (r"derivative for aten::_histogramdd_from_bin_cts is not implemented",),
    ),
)

# explore126 (session 42): float64 var / std along dims and var_mean / std_mean run ATen's
# Welford steps one element at a time (up to 1024 / 16384 a reduction): repeated, the time limit
# holds
add(
    small(
        "welford_longest_reduction_forever",
        "x = torch.rand(1024, 9000, dtype=torch.float64)\nwhile True:\n"
        "    v = x.var(0).sum() + torch.var_mean(x.flatten()[:16384])[0]",
        TIME_OR_LIMIT,
    ),
)

# explore129 (session 42): program code that runs during a backward pass (a module's full
# backward hook, a custom Function's backward) sees the leaves' .grad already filled in: a
# backward started again from there, a huge or non-tensor .grad written there
add(
    small(
        "grad_in_pass_hook_restarts_backward",
        "lin = torch.nn.Linear(2, 2)\nx = torch.ones(1, 2, requires_grad=True)\n"
        "def hook(m, gi, go):\n    (m.weight.grad * 2).sum()\n    lin(x).sum().backward()\n"
        "lin.register_full_backward_hook(hook)\nlin(x).sum().backward()",
        (r"does not require grad and does not have a grad_fn",),
    ),
    small(
        "grad_in_pass_function_writes_huge_grad",
        "class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, t):\n"
        "        return t * 1\n    @staticmethod\n    def backward(ctx, g):\n"
        "        w.grad = torch.zeros(10**5, 10**5)\n        return g\n"
        "w = torch.ones(3, requires_grad=True)\nt = torch.ones(3, requires_grad=True)\n"
        "(F.apply(t) * w).sum().backward()",
        LIMIT,
    ),
    small(
        "grad_in_pass_hook_assigns_int_grad",
        "lin = torch.nn.Linear(2, 2)\nx = torch.ones(1, 2, requires_grad=True)\n"
        "def hook(m, gi, go):\n    m.weight.grad = 5\n"
        "lin.register_full_backward_hook(hook)\nlin(x).sum().backward()",
        (r"assigned grad expected to be a Tensor or None but got grad of type int",),
    ),
)

# fixtail42 (session 42): torch.dist is one record (DistBackward0) of two broadcast inputs: a
# broadcast past the element limit is refused before any work; a repeated backward of a huge
# loop of distances stops at the time or node limit
add(
    small(
        "dist_broadcast_grows_past_limit",
        "a = torch.ones(20000, 1, requires_grad=True)\ntorch.dist(a, torch.ones(20000)).backward()",
        LIMIT,
    ),
    small(
        "dist_loop_of_nodes",
        "x = torch.ones(3, requires_grad=True)\ny = x\n"
        "for i in range(10**8):\n    y = torch.dist(y, x, 3) * x",
        TIME_OR_LIMIT,
    ),
)

# explore125 (session 42): tensors of tolerances for linalg.pinv / matrix_rank broadcast the
# matrices' batch (ATen's result takes that shape): a huge one is refused before any work
add(
    small(
        "pinv_tolerance_tensor_grows_batch",
        "a = torch.ones(64, 64, requires_grad=True)\n"
        "torch.linalg.pinv(a, atol=torch.zeros(10**6, 1)).sum().backward()",
        LIMIT,
    ),
    small(
        "matrix_rank_tolerance_tensor_grows_batch",
        "torch.linalg.matrix_rank(torch.ones(64, 64), rtol=torch.zeros(20000, 1000))",
        LIMIT,
    ),
)

# explore125 (session 42): torch.distributions.Distribution.set_default_validate_args (for one
# run): only True or False; a default left off does not leak into the next run's programs
add(
    small(
        "dist_set_default_validate_args_not_bool",
        "import torch.distributions as D\nD.Distribution.set_default_validate_args('no')",
        (r"True or False",),
    ),
    small(
        "dist_set_default_validate_args_loop",
        "import torch.distributions as D\n"
        "for i in range(10**8):\n    D.Normal.set_default_validate_args(i % 2 == 0)",
        TIME_OR_LIMIT,
    ),
)

# fixcourse42: names imported from PyTorch's submodule files (torch.distributions.normal,
# torch.utils.data.dataloader...) are the package's own objects; the other names those files
# hold (the modules they import: torch, os, multiprocessing...) are refused on use
add(
    small(
        "submodule_file_reexported_torch_module",
        "from torch.distributions.normal import torch as t\nt.os.system('touch PWNED')",
        (r"not supported",),
    ),
    small(
        "submodule_file_module_attribute",
        "import torch.utils.data.dataloader as d\nd.multiprocessing.Process(target=print)",
        (r"not supported|has no attribute",),
    ),
    small(
        "submodule_file_class_dunder_globals",
        "from torch.optim.adam import Adam\ng = Adam.__init__.__globals__",
        (r"not accessible",),
    ),
    small(
        "submodule_file_import_loop",
        "for i in range(10**8):\n    from torch.distributions.one_hot_categorical import"
        " OneHotCategorical",
        TIME_OR_LIMIT,
    ),
)

# fixcourse42: pack_padded_sequence's lengths as a NumPy array (torch.as_tensor of it)
_PACK = "import numpy as np\nfrom torch.nn.utils.rnn import pack_padded_sequence as pk\n"
add(
    small(
        "pack_numpy_lengths_huge_value",
        _PACK + "p = pk(torch.ones(2, 3), np.array([10**18, 1]))",
        (r"RuntimeError|error:",),
    ),
    small(
        "pack_numpy_lengths_many",
        _PACK + "p = pk(torch.ones(3, 10**6), np.arange(10**6, 0, -1))\nprint(p.data.shape)",
        (r"torch.Size",),
        codes=frozenset({0}),
    ),
    small(
        "pack_numpy_lengths_2d",
        _PACK + "p = pk(torch.ones(2, 3), np.ones((3, 1), dtype=np.int64))",
        (r"1D CPU int64 tensor",),
    ),
)

# fixcourse42: torch.histogram's default bins, out= tuple, and non-finite ranges
add(
    small(
        "histogram_out_same_tensor_twice",
        "x = torch.ones(4)\nr = torch.histogram(x, 2, out=(x, x))",
        (r"not supported",),
    ),
    small(
        "histogram_out_huge_tuple",
        "h = torch.empty(0)\nr = torch.histogram(torch.ones(4), 2, out=(h,) * 10**6)",
        (r"expected tuple of 2 elements",),
    ),
    small(
        "histogram_default_bins_huge_range",
        "r = torch.histogram(torch.ones(10**6), range=(-1e308, 1e308))\nprint(r.hist.sum())",
        (r"tensor\(1000000\.\)",),
        codes=frozenset({0}),
    ),
    small(
        "histc_nan_everywhere",
        "r = torch.histc(torch.full((10**6,), float('nan')), bins=10**7)",
        (r"is not finite",),
    ),
)

# fixcourse42: a program class's own __setattr__ / __getattr__ (called where Python calls
# them), the base's through super(): recursion stops at the call-depth limit, names are
# plain strings, and nothing reaches Python's object model
_SA = "class A:\n    def __setattr__(self, k, v):\n"
add(
    small("setattr_recursion", _SA + "        self.x = v\nA().y = 1", LIMIT),
    small(
        "getattr_recursion",
        "class A:\n    def __getattr__(self, k):\n        return self.other\nA().y",
        LIMIT,
    ),
    esc(
        "setattr_super_dunder_name", _SA + "        super().__setattr__('__class__', v)\nA().y = 1"
    ),
    esc("setattr_super_dict_name", _SA + "        super().__setattr__('__dict__', v)\nA().y = {}"),
    esc(
        "getattr_module_super_dunder",
        "class M(torch.nn.Module):\n    def __getattr__(self, k):\n"
        "        return super().__getattr__('__globals__')\nM().foo",
    ),
    esc(
        "setattr_reads_globals", _SA + "        super().__setattr__(k, v.__globals__)\nA().y = len"
    ),
    small(
        "setattr_many_attributes",
        _SA
        + "        for i in range(10**7):\n            super().__setattr__(f'a{i}', i)\nA().y = 1",
        LIMIT + TIME_OR_LIMIT,
    ),
    esc(
        "getattr_namedtuple",
        "from typing import NamedTuple\nclass P(NamedTuple):\n    x: int\n"
        "    def __getattr__(self, k):\n        return print\nP(1).y",
    ),
    esc(
        "getattr_function_class",
        "class F(torch.autograd.Function):\n    def __getattr__(self, n):\n        return 1\n"
        "    @staticmethod\n    def forward(ctx, x):\n        return x\n",
    ),
)

# fixcourse42: torch.distributions.utils' helpers
add(
    small(
        "dist_utils_broadcast_all_huge",
        "from torch.distributions.utils import broadcast_all\n"
        "a, b = broadcast_all(torch.ones(10**5, 1), torch.ones(1, 10**5))",
        LIMIT,
    ),
    small(
        "dist_utils_broadcast_all_many",
        "from torch.distributions.utils import broadcast_all\nr = broadcast_all(*[1.0] * 10**7)",
        LIMIT + TIME_OR_LIMIT,
    ),
    esc(
        "dist_utils_lazy_property_decorator",
        "from torch.distributions.utils import lazy_property\nclass A:\n    @lazy_property\n"
        "    def f(self):\n        return open('pwned', 'w')\nA().f",
        (r"not supported",),
    ),
)

# explore128 (session 42): a class body reading a name it binds (`f = f`) falls back to the
# module's value, then the builtin, as Python's LOAD_NAME does: still the refused builtins,
# the dunder audit and the loop limit
add(
    small(
        "class_body_self_named_open",
        "class A:\n    open = open\nA.open('/etc/passwd')",
        (r"`open` is not supported",),
    ),
    small(
        "class_body_self_named_dunder",
        "class A:\n    __builtins__ = __builtins__",
        (r"not supported",),
    ),
    small(
        "class_body_self_named_loop",
        "x = 1\nfor i in range(10**7):\n    class A:\n        x = x\n    x = A.x + 1",
        TIME_OR_LIMIT,
    ),
)

# explore128 (session 42): a layer's size given as a one-element integer tensor is an index
# (PyTorch's __index__): still under the element limit
add(
    small(
        "layer_size_tensor_huge", "n = torch.tensor(10**9)\nlayer = torch.nn.Linear(n, n)", LIMIT
    ),
    small(
        "layer_size_tensor_one_element_huge",
        "n = torch.tensor([2**62])\nlayer = torch.nn.Embedding(n, n)",
        LIMIT,
    ),
)

# explore128 (session 42): `nn.Linear.__init__(self, ...)` in a subclass's __init__ (the
# library's own __init__, as super().__init__): the element limit and Python's TypeError on
# anything but an instance of the subclass
add(
    small(
        "library_init_called_huge",
        "class L(torch.nn.Linear):\n    def __init__(self):\n"
        "        torch.nn.Linear.__init__(self, 10**6, 10**6)\nL()",
        LIMIT,
    ),
    small(
        "library_init_on_other_object",
        "torch.nn.Linear.__init__(torch.ones(2), 2, 3)",
        (r"descriptor '__init__' requires a 'Linear' object",),
    ),
)

# fixleft42 (session 42): None entries kept in a module's _modules (add_module / register_module
# / `_modules[k] = None` / `self.sub = None` over a submodule): counted as submodules are, and
# passed by every walk (a module holding itself beside its None entries still ends)
add(
    small(
        "module_none_entries_counted",
        "m = torch.nn.Module()\nfor i in range(10**7):\n    m.register_module(str(i), None)",
        (r"list_items", r"number of submodules"),
        env={"GRADCLI_LOOP_ITERATIONS": "100000000", "GRADCLI_LIST_ITEMS": "1000"},
    ),
    small(
        "module_none_entries_beside_itself",
        "m = torch.nn.Sequential()\nm.add_module('a', None)\nm._modules['me'] = m\n"
        "m.add_module('b', None)\nprint(m)",
        (r"contains itself", r"recursed too deeply") + LIMIT,
    ),
)

# fixleft42 (session 42): Module.register_load_state_dict_pre_hook: a hook loading again
# recurses only as deep as the call depth; the dicts each submodule loads from (filtered copies,
# made once a hook is registered) counted against list_items
add(
    small(
        "load_state_dict_pre_hook_loading_again",
        "m = torch.nn.Linear(2, 2)\ndef again(module, sd, *rest):\n    module.load_state_dict(sd)\n"
        "m.register_load_state_dict_pre_hook(again)\nm.load_state_dict(m.state_dict())",
        (r"call_depth", r"recursed too deeply") + LIMIT,
    ),
    small(
        "load_state_dict_pre_hook_walk_counted",
        "m = torch.nn.Sequential(*[torch.nn.Linear(1, 1) for _ in range(20)])\n"
        "m.register_load_state_dict_pre_hook(lambda *a: None)\nm.load_state_dict(m.state_dict())",
        (r"list_items", r"load_state_dict\(\) walks"),
        env={"GRADCLI_LIST_ITEMS": "500"},
    ),
)

# explore131 (session 42): `match` statements: a `*name` capture of a huge range, patterns
# nested past the nesting limit, and a match in an endless loop are stopped by their limits
add(
    small(
        "match_star_capture_huge_range",
        "match range(10**12):\n    case [first, *rest]:\n        print(len(rest))",
        LIMIT,
        at=ANY,
    ),
    small(
        "match_pattern_nesting",
        "match 1:\n    case " + "[" * 150 + "x" + "]" * 150 + ":\n        pass",
        LIMIT + (r"too many nested", r"nested too deeply"),
    ),
    small(
        "match_in_endless_loop",
        "n = 0\nwhile True:\n    match n % 3:\n        case 0 | 1:\n            n += 1\n"
        "        case _:\n            n = 0",
        TIME_OR_LIMIT,
    ),
)

# explore130 (session 42): torch.distributions.register_kl: a registered function that calls
# kl_divergence on its own pair recurses under the call-depth limit; registering in a loop is
# bounded by the loop limit; a value that is not a class is refused with Python's words
add(
    small(
        "register_kl_pair_calls_itself",
        "import torch.distributions as D\n"
        "@D.register_kl(D.Normal, D.Normal)\ndef loop(p, q):\n    return D.kl_divergence(p, q)\n"
        "D.kl_divergence(D.Normal(0.0, 1.0), D.Normal(1.0, 1.0))",
        LIMIT + (r"depth",),
    ),
    small(
        "register_kl_in_a_huge_loop",
        "import torch.distributions as D\n"
        "for i in range(10**8):\n    D.register_kl(D.Normal, D.Normal)(lambda p, q: i)",
        TIME_OR_LIMIT,
    ),
    small(
        "register_kl_not_a_class",
        "import torch.distributions as D\nD.register_kl('Normal', D.Normal)",
        (r"must be a class",),
    ),
)

# explore130 (session 42): torch.autograd.graph.increment_version takes an iterable of tensors:
# an endless generator is bounded by the list-items limit, a huge loop of calls by the loop limit
add(
    small(
        "increment_version_endless_generator",
        "from torch.autograd.graph import increment_version\nimport itertools\n"
        "x = torch.ones(1)\nincrement_version(x for _ in itertools.count())",
        LIMIT,
    ),
    small(
        "increment_version_huge_loop",
        "from torch.autograd.graph import increment_version\nx = torch.ones(1)\n"
        "for i in range(10**8):\n    increment_version(x)",
        TIME_OR_LIMIT,
    ),
)

# explore130 (session 42): torch.autograd.graph.get_gradient_edge: an edge whose tensor was
# changed in place since is refused (its node is no longer the tensor's), a list of a million
# edges as inputs is bounded, an edge of a tensor without grad gets PyTorch's RuntimeError
add(
    small(
        "gradient_edge_after_change_in_place",
        "from torch.autograd.graph import get_gradient_edge\n"
        "x = torch.ones(2, requires_grad=True)\ny = x * 2\ne = get_gradient_edge(y)\n"
        "y.add_(1)\ntorch.autograd.grad(y.sum(), e)",
        (r"not supported",),
    ),
    small(
        "gradient_edge_many_inputs",
        "from torch.autograd.graph import get_gradient_edge\n"
        "x = torch.ones(2, requires_grad=True)\ny = x * 2\n"
        "torch.autograd.grad(y.sum(), [get_gradient_edge(y)] * 10**8)",
        LIMIT + (r"memory",),
    ),
    small(
        "gradient_edge_without_grad",
        "from torch.autograd.graph import get_gradient_edge\nget_gradient_edge(torch.ones(2))",
        (r"does not require gradients",),
    ),
    small(
        "gradient_edge_made_by_hand",
        "from torch.autograd.graph import GradientEdge\nx = torch.ones(2, requires_grad=True)\n"
        "torch.autograd.grad((x * 2).sum(), GradientEdge((x * 2).grad_fn, 0))",
        (r"not supported",),
    ),
)

# fixdist42 (session 42): a program's subclass of a concrete distribution (Normal,
# OneHotCategorical...): its overrides are user code under the usual limits (also where the
# base's code calls them), the base's state stays the base's, internals out of reach
_CONCRETE = "from torch.distributions import Normal, OneHotCategorical\n"
add(
    small(
        "concrete_distribution_override_recurses",
        _CONCRETE
        + "class R(Normal):\n    def log_prob(self, v):\n        return self.log_prob(v)\n"
        "R(0.0, 1.0).log_prob(torch.ones(1))",
        DEPTH,
    ),
    small(
        "concrete_distribution_super_init_loops",
        _CONCRETE + "class R(Normal):\n    def __init__(self):\n        while True:\n"
        "            super().__init__(0.0, 1.0)\nR()",
        LIMIT,
        env={"GRADCLI_LOOP_ITERATIONS": "1000"},
    ),
    small(
        "concrete_distribution_huge_sample",
        _CONCRETE + "class R(Normal):\n    pass\nR(0.0, 1.0).sample((10**6, 10**6))",
        LIMIT,
    ),
    small(
        "concrete_distribution_overwrites_base_state",
        _CONCRETE + "class R(OneHotCategorical):\n    def __init__(self, p):\n"
        "        super().__init__(p)\n        self._categorical = print\nR(torch.ones(2))",
        (r"not supported",),
    ),
    small(
        "concrete_distribution_dunder_method",
        _CONCRETE + "class R(Normal):\n    def __getattribute__(self, n):\n        return 1\n"
        "R(0.0, 1.0)",
        (r"not supported",),
    ),
    small(
        "concrete_distribution_init_on_other",
        _CONCRETE + "OneHotCategorical.__init__(print, torch.ones(2))",
        (r"descriptor '__init__' requires",),
    ),
    esc(
        "concrete_distribution_inner_internals",
        _CONCRETE + "class R(OneHotCategorical):\n    pass\n"
        "f = R(torch.ones(2))._categorical.__dict__",
    ),
    esc(
        "concrete_distribution_class_internals",
        _CONCRETE + "class R(Normal):\n    pass\nf = R.__mro__",
    ),
)

# torch.nn.modules.utils' tuple helpers: a huge n is a limit, a tensor or iterator refused, the
# helpers' internals out of reach.
_NTUPLE = "import torch\nfrom torch.nn.modules.utils import _ntuple, _pair\n"
add(
    small("ntuple_huge", _NTUPLE + "f = _ntuple(10**9)\nprint(len(f(1)))", LIMIT),
    small("ntuple_tensor", _NTUPLE + "print(_pair(torch.ones(2)))", (r"not supported",)),
    small("ntuple_generator", _NTUPLE + "print(_pair(i for i in range(3)))", (r"not supported",)),
    small("ntuple_float_n", _NTUPLE + "_ntuple(2.5)", (r"must be an int",)),
    esc("ntuple_internals", _NTUPLE + "g = _pair.__closure__"),
)
