"""One error family for everything a user can get wrong.

A `GradcliError` carries what went wrong, where (a `Span` into the program's source, when
there is one), what was found, what was expected and a hint. Only the CLI turns it into an
exit status; the library raises it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cached_property
from typing import Any

from .record import LazyPattern, Record

# Python's own line breaks (str.splitlines also breaks at \f, \v, \x1c-\x1e, \x85, \u2028...,
# which Python's tokenizer does not, so the line numbers of `ast` would not match).
_LINE_BREAK = LazyPattern(r"\r\n|\r|\n")


class Source(Record):
    """A program's text and the name to show for it (a path, `<-e>` or `<stdin>`)."""

    _fields = ("text", "name")
    _defaults = {"name": "<program>"}
    text: str
    name: str

    @cached_property
    def lines(self) -> list[str]:
        return _LINE_BREAK.split(self.text)

    def line(self, lineno: int) -> str:
        lines = self.lines
        return lines[lineno - 1] if 1 <= lineno <= len(lines) else ""

    def span(self, node: object) -> Span | None:
        """The span of an `ast` node. `ast` columns count UTF-8 bytes; a Span counts characters."""
        lineno = getattr(node, "lineno", None)
        if lineno is None:
            return None
        end_lineno = getattr(node, "end_lineno", None) or lineno
        col = _char_col(self.line(lineno), getattr(node, "col_offset", 0) or 0)
        end = getattr(node, "end_col_offset", None)
        if end_lineno == lineno and end is not None:
            end_col = _char_col(self.line(lineno), end)
        else:
            end_col = len(self.line(lineno))
        return Span(self, lineno, col, max(end_col, col + 1))


def _char_col(line: str, byte_col: int) -> int:
    return len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))


class Span(Record):
    """A place in a source: 1-based line, 0-based character columns [col, end_col)."""

    _fields = ("source", "line", "col", "end_col")
    source: Source
    line: int
    col: int
    end_col: int

    def where(self) -> str:
        return f"{_safe(self.source.name)}:{self.line}:{self.col + 1}"


class GradcliError(Exception):
    """Anything the user got wrong. `exit_code` 1 (program or input) unless a subclass says.

    `python_class` names the Python/PyTorch exception the error mirrors (PyTorch raises
    `RuntimeError` for most of what the kernel refuses): a program's `except RuntimeError:`
    catches it, and `print(e)` shows its message. None marks what no `except` may catch: a
    limit, or something gradcli does not support (a program written for PyTorch would not have
    met it there).
    """

    exit_code = 1
    python_class: str | None = "RuntimeError"

    def __init__(
        self,
        message: str,
        *,
        span: Span | None = None,
        found: str | None = None,
        expected: str | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.found = found
        self.expected = expected
        self.hint = hint
        # The Python exception behind this error, if any (a NumPy error on a bad argument),
        # kept for `--debug` (re-raising with a span would drop `__cause__`).
        self.cause: BaseException | None = None

    # The message is PyTorch's own, word for word: a program's `except` may catch it even
    # where the words say "not supported" (gradcli's own refusals say that too).
    pytorch_words = False

    def pytorch(self) -> GradcliError:
        """Mark the message as PyTorch's own words (see `pytorch_words`)."""
        self.pytorch_words = True
        return self

    def mirror(self, python_class: str | None) -> GradcliError:
        """The same error, as the Python exception class it mirrors (`TypeError`...)."""
        self.python_class = python_class
        return self

    def with_span(self, span: Span | None) -> GradcliError:
        """Attach a span if the error does not have one yet (errors raised deep in the engine
        learn their position from the statement that was running)."""
        if self.span is None and span is not None:
            self.span = span
        return self

    def format(self) -> str:
        """The whole message as plain text: location, source line with a caret, details.

        The source line is shown as a terminal shows it (tabs expanded, wide characters counted
        twice, control characters made visible, a long line cut to a window around the span),
        with the caret under exactly the characters the span covers. The text is safe to
        write to any UTF-8 stream.
        """
        head = f"error: {_safe(self.message)}"
        if self.span is not None:
            head = f"{self.span.where()}: {head}"
        out = [head]
        if self.span is not None:
            text = self.span.source.line(self.span.line)
            if text.strip():
                num = str(self.span.line)
                pad = " " * len(num)
                shown, caret = _excerpt(text, self.span.col, self.span.end_col)
                out.append(f" {num} | {shown}")
                out.append(f" {pad} | {caret}")
        for label, value in (
            ("found", self.found),
            ("expected", self.expected),
            ("hint", self.hint),
        ):
            if value:
                out.append(f"  {label}: {_safe(value)}")
        return _printable("\n".join(out))

    def __str__(self) -> str:
        return self.message


EXCERPT_WIDTH = 100  # terminal columns of source shown around an error


def _cells(ch: str) -> int:
    """Terminal columns a character takes (after `_visible`)."""
    if unicodedata.combining(ch) or ch in "\u200b\u200c\u200d\ufeff":
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


# Characters that reorder or hide text on a terminal ("Trojan source"): never shown as they are.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _visible(ch: str, column: int) -> str:
    """A character as shown in an excerpt: tabs to spaces, control characters as `?`."""
    if ch == "\t":
        return " " * (4 - column % 4)
    if ch in "\u200b\u200c\u200d\ufeff":
        return ""
    cat = unicodedata.category(ch)
    if cat in ("Cc", "Cs", "Co", "Cn") or cat in ("Zl", "Zp") or ch in _BIDI:
        return "?"
    return ch


def _safe(text: str) -> str:
    """A message as it may go to a terminal: control characters (escape sequences, bidi
    overrides) written as escapes, so that no message can drive the terminal."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(
        c
        if c in "\n\t" or (c.isprintable() and c not in _BIDI)
        else c.encode("unicode_escape", "backslashreplace").decode("ascii")
        for c in text
    )


def _excerpt(text: str, col: int, end_col: int) -> tuple[str, str]:
    """The line as shown, and the caret line under characters [col, end_col)."""
    col = max(0, min(col, len(text)))
    end_col = max(col + 1, min(end_col, len(text)))
    if len(text) > 4 * EXCERPT_WIDTH:
        # Only the characters that can be in the window (a character takes at least a column).
        lo = max(0, col - EXCERPT_WIDTH)
        hi = min(len(text), min(end_col, col + EXCERPT_WIDTH) + EXCERPT_WIDTH)
        shown, caret = _excerpt(text[lo:hi], col - lo, min(end_col, hi) - lo)
        if lo > 0 and not shown.startswith("…"):
            shown, caret = "…" + shown, " " + caret
        if hi < len(text) and not shown.endswith("…"):
            shown += "…"
        return shown, caret
    pieces: list[str] = []
    starts: list[int] = []  # terminal column where each character starts
    column = 0
    for ch in text:
        starts.append(column)
        v = _visible(ch, column)
        pieces.append(v)
        column += sum(_cells(c) for c in v)
    starts.append(column)
    a, b = starts[col], starts[end_col] if end_col < len(starts) else column
    b = max(b, a + 1)
    # A window of EXCERPT_WIDTH columns around the span (the span itself cut if it is longer).
    lo = 0
    if column > EXCERPT_WIDTH:
        lo = max(0, min(a - EXCERPT_WIDTH // 3, column - EXCERPT_WIDTH))
    hi = lo + EXCERPT_WIDTH
    shown_idx = [i for i in range(len(pieces)) if starts[i] >= lo and starts[i + 1] <= hi]
    if not shown_idx:
        return "", "^"
    first, last = shown_idx[0], shown_idx[-1]
    shown = "".join(pieces[first : last + 1])
    left = "…" if starts[first] > 0 else ""
    right = "…" if starts[last + 1] < column else ""
    shift = starts[first] - len(left)
    a2, b2 = max(a, starts[first]) - shift, min(b, starts[last + 1]) - shift
    caret = " " * a2 + "^" * max(1, b2 - a2)
    return left + shown + right, caret


def _printable(text: str) -> str:
    """Text that can be written to a UTF-8 stream (lone surrogates escaped)."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


class ArgumentTypeError(GradcliError):
    """PyTorch's argument parser's TypeError for an argument of the wrong type:
    `add(): argument 'other' (position 2) must be Tensor, not str`. `position` is the
    argument's place in the function's call (`torch.add(x, 'a')`); the interpreter's call
    (`lang.calls`) says it as the program's call has it: one less for a method
    (`x.add('a')`: position 1), none for a keyword (`torch.exp(input=2.0)`)."""

    python_class = "TypeError"

    def __init__(
        self,
        fn: str,
        param: str,
        position: int | None,
        expected: str,
        got: str,
        unplaced: str = "",
        **kw: Any,
    ) -> None:
        # fn "": raised where the function is not known (`ops.arithmetic.tensor_arg`): the
        # call names it (`place`); until then (a call inside gradcli) the words `unplaced`
        self.fn, self.param, self.position = fn, param, position
        self.expected_type, self.got = expected, got
        super().__init__(self._words(position) if fn else unplaced, **kw)

    def _words(self, position: int | None) -> str:
        place = f" (position {position})" if position is not None else ""
        return (
            f"{self.fn}(): argument '{self.param}'{place} must be {self.expected_type}, "
            f"not {self.got}"
        )

    def placed(self, kwargs: dict, bound: bool) -> ArgumentTypeError:
        """The error as the call the program wrote has the argument."""
        if not self.fn:
            return self
        if self.param in kwargs:
            position = None
        elif bound and self.position is not None:
            position = self.position - 1
        else:
            return self
        return self.place(self.fn, position)

    def place(self, fn: str, position: int | None) -> ArgumentTypeError:
        """The words for the argument at `position` (None: a keyword) of a call of `fn`."""
        self.fn, self.position = fn, position
        self.args = (self._words(position),)
        self.message = self.args[0]
        return self


class UsageError(GradcliError):
    """The command line itself is wrong (exit status 2, as click uses)."""

    exit_code = 2
    python_class = None


class LimitError(GradcliError):
    """A named safety limit was reached (never caught by a program's `except`; `limit`: its
    name, when one limit is meant)."""

    python_class = None

    def __init__(self, message: str, *, limit: str | None = None, **kw: object) -> None:
        super().__init__(message, **kw)  # type: ignore[arg-type]
        self.limit = limit


class NotSupported(GradcliError):
    """Something PyTorch has and gradcli does not (never caught by a program's `except`)."""

    python_class = None


# Names PyTorch has and gradcli does not (or not where the program looked), with what to
# write instead: by meaning, before any spelling (`logit` is not `log`).
MEANING: dict[str, str] = {
    **{
        n: f"it is in torch.nn.functional: F.{n}(x) (or the module nn.{m}())"
        for n, m in (
            ("hardtanh", "Hardtanh"),
            ("elu", "ELU"),
            ("softsign", "Softsign"),
            ("mish", "Mish"),
        )
    },
    # complex tensors: the half-precision complex dtype and the spectral functions gradcli
    # lacks say so
    **{
        n: "complex32 (torch.chalf) is not supported by gradcli: use torch.complex64 "
        "(torch.cfloat) or torch.complex128 (torch.cdouble)"
        for n in ("chalf", "complex32")
    },
    # sparse results of products: what gradcli's sparse tensors do instead
    "smm": "a sparse product's sparse result is not supported by gradcli: torch.sparse.mm(a, b) "
    "(or a @ b) gives the dense product of a sparse a and a dense b",
}


# Whole names PyTorch has and gradcli refuses by design, with what to write instead.
_IN_ONE_PROCESS = (
    "a gradcli program runs in one process: call the target function directly, e.g. "
    "`work(1)` for mp.Process(target=work, args=(1,)) (Hogwild-style training becomes one "
    "training loop; model.share_memory() is accepted and changes nothing)"
)
_NO_FILES = (
    "a gradcli program reads and writes no files: make the data in the program (np.array, "
    "np.random.default_rng(0).normal(...)) and print what you would have saved"
)
QUALIFIED_MEANING: dict[str, str] = {
    **{
        f"torch.multiprocessing.{n}": _IN_ONE_PROCESS
        for n in ("Process", "spawn", "start_processes", "Pool", "Queue", "SimpleQueue")
    },
    **{
        f"numpy.{n}": _NO_FILES
        for n in (
            "save savez savez_compressed load savetxt loadtxt genfromtxt fromfile memmap fromregex"
        ).split()
    },
    # (frames, a window, an FFT: what stft computes, with gradients)
    "torch.stft": "frame and transform it yourself: (x.unfold(-1, n_fft, hop_length) * "
    "window) and torch.fft.rfft(frames, dim=-1), transposed to (freq, frame) as stft's "
    "center=False result",
    "torch.istft": "invert the frames yourself: torch.fft.irfft(spec.transpose(-1, -2), "
    "n=n_fft) times the window, overlapped and added with index_add_ / F.fold, divided by the "
    "summed squared window",
}


def suggest(
    name: str, candidates: Iterable[str], meaning: bool = False, known: bool = False
) -> str | None:
    """`did you mean ...?` for a misspelt name, or None: no hint is better than a wrong one.
    `meaning`: the name is an operation's, and a name PyTorch has that gradcli lacks gets
    what to write instead (MEANING) first. `known`: PyTorch has `name` itself, so a name that
    differs in case or a character (`SparseAdam`, `sparse_adam`) is another thing, not its
    spelling: no guess."""
    import difflib  # only on the error path

    if meaning and name.lower() in MEANING:
        return MEANING[name.lower()]
    if known:
        return None  # a name PyTorch has is not a slip of the keys for another one
    names = [c for c in candidates if isinstance(c, str)]
    same = [c for c in names if c.lower() == name.lower() and c != name]
    if same:
        return f"did you mean `{same[0]}`?"
    lower = {c.lower(): c for c in reversed(names)}
    wanted = name.lower()
    for close in difflib.get_close_matches(wanted, list(lower), n=5, cutoff=0.6):
        if close != wanted and _a_misspelling(wanted, close):
            return f"did you mean `{lower[close]}`?"
    return None


def _a_misspelling(typed: str, close: str) -> bool:
    """`close` is what `typed` could be a slip of the keys for: at most one edit (an insertion,
    deletion, substitution or swap of neighbours) in four characters, never fewer than one,
    and not a name that differs only in its digits (`CircularPad3d` is no `CircularPad2d`)."""
    if _digits_only(typed) == _digits_only(close):
        return False
    return _edits(typed, close) <= max(1, min(len(typed), len(close)) // 4)


def _digits_only(text: str) -> str:
    return "".join("#" if c.isdigit() else c for c in text)


def _edits(a: str, b: str) -> int:
    """The optimal-string-alignment distance: insertions, deletions, substitutions and swaps
    of two neighbouring characters (`onehto`/`onehot` is one)."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def call_did_not_fit(
    e: BaseException,
    here: bool = False,
    callers: frozenset = frozenset(),
    args: tuple | list | None = None,
    kwargs: dict | None = None,
) -> bool:
    """Whether a TypeError came from a call whose arguments did not fit, not from inside the
    function called (a gradcli bug there stays one). The last frame of its traceback says:
    the frame that caught it (`here`), one of `callers` (frames that call with the program's
    values), or a wrapper `(*args, **kwargs)` that passed `args` (and `kwargs`, when given)
    on as they came, the last items of `args` identical (nn.Linear(3), m(x, x), x.add_())."""
    first = tb = e.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    if (here and tb is first) or code in callers:
        return True
    if args is None or not (code.co_flags & 0x04 and code.co_flags & 0x08):  # *a and **kw
        return False
    at = code.co_argcount + code.co_kwonlyargcount
    got, got_kw = (tb.tb_frame.f_locals.get(n) for n in code.co_varnames[at : at + 2])
    if not isinstance(got, tuple) or len(got) > len(args):
        return False
    if not all(a is b for a, b in zip(got, args[len(args) - len(got) :])):
        return False
    if kwargs is None:
        return True
    return (
        isinstance(got_kw, dict)
        and got_kw.keys() == kwargs.keys()
        and all(got_kw[k] is kwargs[k] for k in got_kw)
    )
