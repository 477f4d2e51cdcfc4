"""Tensor values written on the command line: `--grad VALUE` and `--set NAME=VALUES`.

`parse_values` turns one piece of text into an array of an exact shape. The forms are

    1,0,0,0   1 0 0 0   0.5      flat numbers, reshaped row-major to the shape
    [[1,0],[0,1]]                a nested list (checked, then read with `json.loads`)
    ones  zeros  onehot:K  onehot:i,j
    @FILE                        .npy (no pickles), .npz (the array of the tensor's name),
                                 .json (a number or nested list), .csv

Values must be finite. Nothing is ever broadcast: a single number only fills a one-element
shape, and a nested list must have the shape asked for (a flat one of the right size is
reshaped, with a note saying so). The text and files are untrusted, so their size and nesting
are limited before they are parsed, and every problem is a `GradcliError`.
"""

from __future__ import annotations

import bisect
import io
import json
import keyword
import math
import operator
import os
import re
import stat
import warnings
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, LimitError, UsageError, suggest
from ..base.limits import Limit
from ..base.record import LazyPattern, Record

TEXT_BYTES = Limit("value_text_bytes", 10_000_000, "size of a value's text in bytes")
NESTING = Limit("value_nesting", 32, "nesting depth of a value's list")
FILE_BYTES = Limit("value_file_bytes", 100_000_000, "size of a value file in bytes")

FILE_EXTENSIONS = (".npy", ".npz", ".json", ".csv")
KEYWORDS = ("ones", "zeros", "onehot")

# A number as the user may type it: `1`, `-2.5`, `+.5`, `1.`, `3e-4`. ASCII digits only.
_NUM = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_FLAT_TOKEN = LazyPattern(rf"{_NUM}|[+-]?(?:nan|inf|infinity)", re.IGNORECASE)
_NUMBER_IN_LIST = LazyPattern(_NUM)
_INT_TOKEN = LazyPattern(r"[+-]?[0-9]+")
_SEPARATOR = LazyPattern(r"\s*,\s*|\s+")
_NOT_LIST_CHAR = LazyPattern(r"[^0-9+\-.eE,\[\]\s]")
# The same searches as byte tables, for ASCII text: `bytes.translate` and `bytes.find` run
# in C at memory speed, where a regular expression over a 99 MB file takes seconds.
_NOT_LIST_TABLE = bytes(int(_NOT_LIST_CHAR.match(chr(i)) is not None) for i in range(256))
_NUMBER_TABLE = bytes(ord("n" if chr(i) in "0123456789.eE+-" else " ") for i in range(256))
_NON_FINITE_WORD = LazyPattern(r"nan|inf", re.IGNORECASE)
_WHITESPACE = LazyPattern(r"\s")


class _Parsed(Record):
    """Numbers read from the text or a file, before they are fitted to the shape."""

    _fields = ("array", "flat", "label")
    array: np.ndarray  # float64
    flat: bool  # a 0-d or 1-D value, which may be reshaped row-major
    label: str  # how to name it in messages: `--grad`, "--grad file `g.npy`"


# --------------------------------------------------------------------------------------------
# The public functions


def parse_values(
    text: str,
    shape: tuple[int, ...],
    *,
    what: str = "--grad",
    dtype: Any = np.float64,
    allow_special: bool = True,
    base_dir: str | None = None,
    target: str | None = None,
    name: str | None = None,
) -> tuple[np.ndarray, str | None]:
    """Parse `text` into an array of exactly `shape`.

    Returns `(array, note)`: `note` is None, or a sentence saying what was adapted (a flat
    value reshaped). `what` names the option in messages (`--grad`, `--set x`); `target`
    names the tensor the value is for (`the output \\`z\\``); by default it is `the output`
    for `--grad` and `` `x` `` for `--set x`. `allow_special` enables `ones`, `zeros` and
    `onehot:K`. `@FILE` paths are relative to `base_dir` (default: the current directory).
    `name` is the tensor's name: a file gradcli wrote with several tensors (JSON of `forward`,
    `backward`, `hvp`; CSV with `x[0,1]` row labels) gives the value of that name.
    Raises `GradcliError` (a `LimitError` for a limit) for anything wrong.
    """
    what = str(what)
    shape = _check_shape(shape, what)
    dt = _check_dtype(dtype, what)
    if target is None:
        target = _default_target(what)
    if not isinstance(text, str):
        raise GradcliError(
            f"{what} must be text, not {type(text).__name__}",
            expected="text such as `1,0,0`, `[[1,0],[0,1]]` or `@FILE`",
        )
    _check_text_size(text, what)
    size = math.prod(shape)
    limits.TENSOR_ELEMENTS.check(size, f"the number of elements of {target}")

    try:
        return _parse(text.strip(), shape, what, dt, allow_special, base_dir, target, name)
    except (MemoryError, RecursionError):
        # Defence in depth: the limits above should keep every input well away from these.
        raise LimitError(
            f"{what} is too large to read",
            hint="give a smaller value, or save it with numpy.save and pass @FILE.npy",
        ) from None


def _parse(
    s: str,
    shape: tuple[int, ...],
    what: str,
    dt: np.dtype,
    allow_special: bool,
    base_dir: str | None,
    target: str,
    name: str | None = None,
) -> tuple[np.ndarray, str | None]:
    if not s:
        raise GradcliError(
            f"{what} is empty",
            expected=_expected_forms(allow_special),
            hint="give one number per element, e.g. `1,0,0`",
        )
    if s[0] == "@":
        parsed = _parse_file(s[1:], what, base_dir, shape, name)
    elif s[0] == "[":
        parsed = _parse_list_text(s, what, shape)
    else:
        special = _parse_special(s, shape, what, target, allow_special)
        if special is not None:
            return _cast(special, dt, what), None
        parsed = _parse_flat(s, what, allow_special)
    array, note = _fit(parsed, shape, target, allow_special)
    return _cast(array, dt, parsed.label), note


def parse_assignment(text: str) -> tuple[str, str]:
    """`"x=1,2,3"` -> `("x", "1,2,3")`; spaces around the name and the value are dropped.

    A missing `=`, a name that is not an identifier, or no value is a `UsageError`.
    """
    expected = "NAME=VALUES, like `x=1,2,3` or `w=[[1,0],[0,1]]`"
    if not isinstance(text, str):
        raise UsageError("--set expects NAME=VALUES", expected=expected)
    name, sep, value = text.partition("=")
    if not sep:
        raise UsageError(
            f"--set expects NAME=VALUES, but `{_show(text)}` has no `=`",
            found=_show(text),
            expected=expected,
        )
    name, value = name.strip(), value.strip()
    if not name:
        raise UsageError(
            "--set has no name before `=`",
            found=_show(text),
            expected=expected,
        )
    if not name.isidentifier() or keyword.iskeyword(name):
        raise UsageError(
            f"--set: `{_show(name)}` is not a valid name",
            found=_show(name),
            expected="a Python identifier such as `x` or `weight`",
        )
    if not value:
        raise UsageError(
            f"--set {name}= has no values after `=`",
            found=_show(text),
            expected=expected,
        )
    return name, value


# --------------------------------------------------------------------------------------------
# Arguments and limits


def _check_shape(shape: Any, what: str) -> tuple[int, ...]:
    try:
        dims = tuple(operator.index(d) for d in shape)
    except TypeError:
        raise GradcliError(f"{what}: internal error: bad shape {shape!r}") from None
    if any(d < 0 for d in dims):
        raise GradcliError(f"{what}: internal error: negative dimension in shape {dims!r}")
    return dims


def _check_dtype(dtype: Any, what: str) -> np.dtype:
    try:
        dt = np.dtype(dtype)
    except Exception:
        raise GradcliError(f"{what}: internal error: unknown dtype {dtype!r}") from None
    if dt.kind not in "biufc":
        raise GradcliError(f"{what}: internal error: unsupported dtype {dt}")
    return dt


def _check_text_size(text: str, what: str) -> None:
    limit = TEXT_BYTES.value
    # A character is at least one byte: only count bytes of text that might fit.
    amount = len(text) if len(text) > limit else len(text.encode("utf-8", "surrogatepass"))
    TEXT_BYTES.check(amount, f"the size of the {what} text in bytes")


def _default_target(what: str) -> str:
    if what.startswith("--set "):
        name = what[len("--set ") :].strip()
        if name:
            return f"`{name}`"
    return "the output"


# --------------------------------------------------------------------------------------------
# Flat numbers, keywords


def _parse_flat(s: str, label: str, allow_special: bool) -> _Parsed:
    tokens = _SEPARATOR.split(s)
    values: list[float] = []
    for i, tok in enumerate(tokens):
        if not tok:
            raise GradcliError(
                f"{label}: the value at index {i} is empty",
                found=_show(s),
                expected="numbers separated by commas or spaces, like `1,0,0`",
                hint="remove the extra comma",
            )
        if not _FLAT_TOKEN.fullmatch(tok):
            raise GradcliError(
                f"{label}: `{_show(tok)}` (the value at index {i}) is not a number",
                found=_show(tok),
                expected=_expected_forms(allow_special),
                hint=_token_hint(tok, allow_special),
            )
        value = float(tok)
        if not math.isfinite(value):
            raise _non_finite(label, f"the value at index {i}", tok)
        values.append(value)
    return _Parsed(np.array(values, dtype=np.float64), True, label)


def _token_hint(tok: str, allow_special: bool) -> str | None:
    if allow_special:
        word = tok.split(":", 1)[0].lower()
        close = suggest(word, KEYWORDS)
        if close:
            return close
    if tok.startswith("("):
        return "write nested lists with [ ], like [[1,0],[0,1]]"
    if "[" in tok or "]" in tok:
        return "a nested list must start with `[`, like [[1,0],[0,1]]"
    return None


def _parse_special(
    s: str, shape: tuple[int, ...], what: str, target: str, allow_special: bool
) -> np.ndarray | None:
    low = s.lower()
    if low in ("ones", "zeros"):
        word = low
    elif low.startswith("onehot"):
        word = "onehot"
    else:
        return None
    if not allow_special:
        raise GradcliError(
            f"{what} does not accept `{word}`",
            found=_show(s),
            expected="numbers, a nested list or @FILE",
            hint="give the numbers, e.g. `1,0,0` or `[[1,0],[0,1]]`, or `@FILE`",
        )
    if word == "ones":
        return np.ones(shape, dtype=np.float64)
    if word == "zeros":
        return np.zeros(shape, dtype=np.float64)
    return _parse_onehot(s, low, shape, what, target)


def _parse_onehot(s: str, low: str, shape: tuple[int, ...], what: str, target: str) -> np.ndarray:
    size = math.prod(shape)
    shp = _fmt_shape(shape)
    m = re.fullmatch(r"onehot\s*:\s*(.*)", low, re.DOTALL)
    if not m or not m.group(1).strip():
        raise GradcliError(
            f"{what}: `{_show(s)}` needs an index",
            found=_show(s),
            expected="`onehot:K` (a flat row-major index) or `onehot:i,j` (one index per axis)",
        )
    body = m.group(1).strip()
    if len(body) >= 2 and (body[0], body[-1]) in (("(", ")"), ("[", "]")):
        body = body[1:-1].strip()
    parts = _SEPARATOR.split(body)
    indices = []
    for p in parts:
        if not _INT_TOKEN.fullmatch(p):
            raise GradcliError(
                f"{what}: `{_show(p)}` in `{_show(s)}` is not an integer index",
                found=_show(p),
                expected="`onehot:K` or `onehot:i,j` with whole numbers",
            )
        digits = p.lstrip("+-").lstrip("0")
        indices.append(int(p) if len(digits) <= 30 else (-1 if p[0] == "-" else 10**30))
    if size == 0:
        raise GradcliError(
            f"{what}: `onehot` needs an element, but {target} has shape {shp} (0 elements)",
            found=_show(s),
        )
    if len(indices) == 1:
        k = indices[0]
        if not 0 <= k < size:
            raise GradcliError(
                f"{what}: onehot index {k} is out of range: {target} has shape {shp} "
                f"({_count(size, 'element')}), so K must be in 0..{size - 1}",
                found=str(k),
                expected=f"0..{size - 1}",
                hint="K is a flat row-major index; `onehot:i,j` takes one index per axis",
            )
        flat = k
    elif len(indices) == len(shape):
        for axis, (i, n) in enumerate(zip(indices, shape, strict=True)):
            if not 0 <= i < n:
                rng = f"0..{n - 1}" if n else "nothing (the axis is empty)"
                raise GradcliError(
                    f"{what}: onehot index {i} for axis {axis} is out of range: {target} has "
                    f"shape {shp}, so it must be in {rng}",
                    found=str(i),
                    expected=rng,
                )
        flat = int(np.ravel_multi_index(tuple(indices), shape))
    else:
        raise GradcliError(
            f"{what}: `{_show(s)}` has {len(indices)} indices but {target} has shape {shp} "
            f"({_count(len(shape), 'axis', 'axes')})",
            found=_show(s),
            expected=f"one flat index in 0..{size - 1}, or {len(shape)} indices",
        )
    out = np.zeros(size, dtype=np.float64)
    out[flat] = 1.0
    return out.reshape(shape)


# --------------------------------------------------------------------------------------------
# Nested lists (inline and .json files)


def _parse_list_text(s: str, label: str, shape: tuple[int, ...] | None = None) -> _Parsed:
    """A nested list (or, in a .json file, a single number), checked before `json.loads`.

    Every check before the parse costs a few passes over the text and no more memory than a
    copy of it, so that a 99 MB file of spaces, of empty lists or of one long number is
    refused (or read) without gigabytes."""
    bad = _first_not_list_char(s)
    if bad is not None:
        if _NON_FINITE_WORD.search(s):
            raise GradcliError(
                f"{label}: values must be finite numbers, not nan or inf",
                found=_show(s),
                expected="finite numbers",
            )
        raise GradcliError(
            f"{label}: unexpected character `{_show(s[bad])}` at position {bad} of a nested list",
            found=_snippet(s, bad),
            expected="numbers, commas and [ ], like [[1,0],[0,1]]",
        )
    _check_sizes(s, label, shape)
    _check_brackets(s, label)
    _check_lists(s, label, shape)
    if len(s) > _BIG_TEXT:
        # Runs of blanks count for nothing: one space for each (positions shift, but a text
        # this large is not read by its positions). The search is slow on large text: only
        # when there is a blank to squeeze.
        if not s.isascii() or any(c in s for c in _ASCII_BLANKS):
            s = _BLANKS.sub(" ", s)
    else:
        s = _WHITESPACE.sub(" ", s)  # one character for one: positions stay the same
    try:
        # Most lists are plain JSON already. (`parse_int=float`: no int digit limit.)
        obj = json.loads(s, parse_int=float)
    except (ValueError, RecursionError):
        obj = _loads_lenient(s, label)
    if isinstance(obj, float):
        array = np.array(obj, dtype=np.float64)
        flat = True
    elif isinstance(obj, list):
        try:
            array = np.array(obj, dtype=np.float64)
        except (ValueError, TypeError):
            _nested_shape(obj, (), label)  # raises the ragged-list error
            raise GradcliError(f"{label} is not a regular nested list") from None
        flat = array.ndim <= 1
    else:  # pragma: no cover - only numbers and lists can be here
        raise GradcliError(f"{label} is not a nested list of numbers")
    finite = np.isfinite(array)
    if not finite.all():  # a number like 1e999 that JSON read as inf
        _loads_lenient(s, label)  # names the number
        pos = np.unravel_index(int(np.argmin(finite)), array.shape)
        raise GradcliError(
            f"{label}: the value at index {_fmt_index(pos)} is too large to be a finite number",
            expected="finite numbers",
        )
    return _Parsed(array, flat, label)


_BIG_TEXT = 1 << 20  # characters: past this, runs of blanks are squeezed before parsing
_BLANKS = LazyPattern(r"\s+")
_ASCII_BLANKS = [chr(i) for i in range(128) if chr(i).isspace()]
_LONG_RUN = 400
_LONG_NUMBER = LazyPattern(rf"[0-9.eE+\-]{{{_LONG_RUN},}}")
_CHUNK = 1 << 22  # characters of a bracket scan at a time


def _max_lists(shape: tuple[int, ...]) -> int:
    """The lists of a nested list of `shape` (1 + shape[0] + shape[0] * shape[1] + ...)."""
    total, prod = 1, 1
    for d in shape[:-1]:
        prod *= d
        total += prod
    return total


def _first_not_list_char(s: str) -> int | None:
    """The position of the first character no nested list of numbers holds, if any."""
    if s.isascii():
        pos = s.encode("ascii").translate(_NOT_LIST_TABLE).find(1)
        return None if pos < 0 else pos
    bad = _NOT_LIST_CHAR.search(s)  # `\s` is Unicode's whitespace here
    return None if bad is None else bad.start()


def _long_number(s: str) -> tuple[int, int] | None:
    """(position, length) of the first run of 400 or more number characters, if any."""
    if not s.isascii():
        long = _LONG_NUMBER.search(s)
        return None if long is None else (long.start(), len(long.group()))
    marks = s.encode("ascii").translate(_NUMBER_TABLE)
    start = marks.find(b"n" * _LONG_RUN)
    if start < 0:
        return None
    end = marks.find(b" ", start)
    return start, (len(marks) if end < 0 else end) - start


def _check_sizes(s: str, label: str, shape: tuple[int, ...] | None) -> None:
    """Refuse, before any parsing, more values or lists than any tensor may have, and numbers
    no float needs (a number of 400 characters)."""
    # At most one value more than there are commas: refuse a list too big before building it.
    limits.TENSOR_ELEMENTS.check(s.count(",") + 1, f"the number of values in {label}")
    long = _long_number(s)
    if long is not None:
        start, n = long
        raise GradcliError(
            f"{label}: a number of {n:,} characters at position {start}",
            found=_snippet(s, start),
            expected="numbers of at most a few dozen digits",
        )


def _check_lists(s: str, label: str, shape: tuple[int, ...] | None) -> None:
    """Refuse far more lists than a value of `shape` has (99 MB of `[],` would take gigabytes
    as Python lists)."""
    if shape is None:
        return
    lists = s.count("[")
    most = _max_lists(shape)
    if lists > 4 * most + 64:
        raise GradcliError(
            f"{label} has {lists:,} lists, but a value of shape {_fmt_shape(shape)} has "
            f"{_count(most, 'list')}",
            found=f"{lists:,} lists",
            expected=f"a nested list of shape {_fmt_shape(shape)}",
        )


def _check_brackets(s: str, label: str) -> None:
    """Nesting depth and balance of the brackets, in chunks (a few bytes per character at
    most, whatever the size of the text)."""
    depth = 0
    deepest = 0
    for start in range(0, len(s), _CHUNK):
        piece = s[start : start + _CHUNK]
        if "[" not in piece and "]" not in piece:
            continue
        codes = np.frombuffer(piece.encode("ascii", "replace"), dtype=np.uint8)
        steps = (codes == ord("[")).astype(np.int32) - (codes == ord("]"))
        depths = np.cumsum(steps, dtype=np.int32) + depth
        deepest = max(deepest, int(depths.max()))
        NESTING.check(deepest, f"the nesting depth of {label}")
        if depths.min() < 0:
            pos = start + int(np.argmin(depths >= 0))
            raise GradcliError(
                f"{label} has a `]` with no `[` to close, at position {pos}",
                found=_snippet(s, pos),
                expected="balanced brackets, like [[1,0],[0,1]]",
            )
        depth = int(depths[-1])
    if depth > 0:
        raise GradcliError(
            f"{label} has {_count(depth, 'unclosed `[`', 'unclosed `[`s')}",
            found=_snippet(s, len(s)),
            expected="balanced brackets, like [[1,0],[0,1]]",
            hint="add the missing `]`",
        )


def _loads_lenient(s: str, label: str) -> Any:
    """`json.loads` after writing each number as a canonical float.

    JSON is stricter than people type (`+1`, `.5`, `1.`). Errors give positions in `s`.
    """
    pieces: list[str] = []
    old_starts: list[int] = []
    new_starts: list[int] = []
    new_ends: list[int] = []
    last = new_len = 0
    for m in _NUMBER_IN_LIST.finditer(s):
        tok = m.group()
        value = float(tok)
        if not math.isfinite(value):
            raise _non_finite(label, "a value", tok)
        rep = f" {value!r} "
        pieces.append(s[last : m.start()])
        new_len += m.start() - last
        old_starts.append(m.start())
        new_starts.append(new_len)
        pieces.append(rep)
        new_len += len(rep)
        new_ends.append(new_len)
        last = m.end()
    pieces.append(s[last:])
    canonical = "".join(pieces)
    try:
        return json.loads(canonical, parse_int=float)
    except json.JSONDecodeError as e:
        # Map the position back into the text the user wrote: a position in a replaced
        # number is that number's start; one between numbers is shifted like the gap.
        i = bisect.bisect_right(new_starts, e.pos) - 1
        if i < 0:
            pos = e.pos
        elif e.pos < new_ends[i]:
            pos = old_starts[i]
        else:
            old_end = old_starts[i] + len(_NUMBER_IN_LIST.match(s, old_starts[i]).group())
            pos = old_end + (e.pos - new_ends[i])
        pos = max(0, min(pos, len(s)))
        hint = "write it like [[1,0],[0,1]]"
        if e.msg.startswith("Extra data"):
            hint = "put everything in one outer [ ], like [[1,0],[0,1]]"
        elif "delimiter" in e.msg:
            hint = "separate the items of a list with commas"
        raise GradcliError(
            f"{label} is not a valid nested list: {e.msg[:1].lower()}{e.msg[1:]} at position {pos}",
            found=_snippet(s, pos),
            expected="a nested list of numbers, like [[1,0],[0,1]]",
            hint=hint,
        ) from None
    except (ValueError, RecursionError) as e:  # pragma: no cover - guarded by the checks
        raise GradcliError(f"{label} is not a valid nested list: {_show(str(e), 80)}") from None


def _nested_shape(obj: list, path: tuple[int, ...], label: str) -> tuple[int, ...]:
    """The shape of a regular nested list of floats; ragged lists are an error."""
    if not obj:
        return (0,)
    if all(type(x) is float for x in obj):
        return (len(obj),)
    first = _item_shape(obj[0], path + (0,), label)
    for i in range(1, len(obj)):
        here = _item_shape(obj[i], path + (i,), label)
        if here != first:
            raise GradcliError(
                f"{label} is a ragged list: {_where(path + (i,))} is {_describe(here)} but "
                f"{_where(path + (0,))} is {_describe(first)}",
                expected="every item of a list to have the same shape",
            )
    return (len(obj),) + first


def _item_shape(x: object, path: tuple[int, ...], label: str) -> tuple[int, ...] | None:
    return None if isinstance(x, float) else _nested_shape(x, path, label)  # type: ignore[arg-type]


def _describe(shape: tuple[int, ...] | None) -> str:
    if shape is None:
        return "a number"
    if len(shape) == 1:
        return f"a list of {_count(shape[0], 'item')}"
    return f"a list of shape {_fmt_shape(shape)}"


def _where(path: tuple[int, ...]) -> str:
    return "item " + "".join(f"[{i}]" for i in path)


# --------------------------------------------------------------------------------------------
# Files


def _parse_file(
    spec: str,
    what: str,
    base_dir: str | None,
    shape: tuple[int, ...] | None = None,
    name: str | None = None,
) -> _Parsed:
    fname = spec.strip()
    if not fname:
        raise GradcliError(
            f"{what}: `@` must be followed by a file name",
            expected="@FILE with FILE a .npy, .npz, .json or .csv file",
            hint="e.g. @grad.npy",
        )
    label = f"{what} file `{_show(fname, 80)}`"
    data = _read_file(fname, label, base_dir)
    ext = os.path.splitext(fname)[1].lower()
    if ext == ".npy":
        return _parse_npy(data, label)
    if ext == ".npz":
        return _parse_npz(data, label, name)
    text = _decode(data, label)
    del data
    stripped = text.strip()
    if not stripped:
        raise GradcliError(f"{label} is empty", expected="numbers")
    if ext == ".json":
        if stripped[0] == "{":
            return _parse_json_object(stripped, label, shape, name)
        return _parse_list_text(stripped, label, shape)
    return _parse_csv(text, label, shape, name)


# The keys of gradcli's own JSON that hold tensors by name: `forward`, `backward`, `hvp`.
JSON_TENSORS = ("values", "grads", "hvp", "v")


def _parse_json_object(
    text: str, label: str, shape: tuple[int, ...] | None, name: str | None
) -> _Parsed:
    """A JSON object gradcli wrote (`forward`, `backward`, `hvp` with --format json): the
    value of the tensor `name` in it."""
    _check_sizes(text, label, None)
    _check_brackets(_BRACES.sub(lambda m: "[" if m.group() == "{" else "]", text), label)
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise GradcliError(
            f"{label} is not valid JSON: {_show(str(e), 120)}",
            expected="a nested list of numbers, or the JSON gradcli writes",
        ) from None
    tensors: dict[str, Any] = {}
    if isinstance(obj, dict):
        for key in JSON_TENSORS:
            part = obj.get(key)
            if isinstance(part, dict):
                for k, v in part.items():
                    tensors.setdefault(str(k), v)
    if not tensors:
        raise GradcliError(
            f"{label} holds no tensor values",
            expected="a nested list of numbers, or the JSON of gradcli forward, backward or "
            "hvp (`values`, `grads`, `hvp` by name)",
        )
    if name is not None and name in tensors:
        chosen = tensors[name]
    elif len(tensors) == 1:
        chosen = next(iter(tensors.values()))
    else:
        names = ", ".join(f"`{_show(k, 40)}`" for k in list(tensors)[:10])
        more = f" and {len(tensors) - 10} more" if len(tensors) > 10 else ""
        raise GradcliError(
            f"{label} has no value for `{_show(name or '?', 40)}`",
            found=f"values for {names}{more}",
            expected=f"the value of `{_show(name or '?', 40)}`",
        )
    try:
        array = np.array(chosen, dtype=np.float64)
    except (ValueError, TypeError):
        raise GradcliError(
            f"{label}: the value is not a regular nested list of numbers",
            expected="a nested list of numbers",
        ) from None
    finite = np.isfinite(array)
    if not finite.all():
        pos = np.unravel_index(int(np.argmin(finite)), array.shape)
        raise _non_finite(label, f"the value at index {_fmt_index(pos)}", str(array[pos]))
    return _Parsed(array, array.ndim <= 1, label)


_BRACES = LazyPattern(r"[{}]")


# Every file read for `@FILE` in this process, so `--output` can refuse to overwrite one.
FILES_READ: list[str] = []


def _read_file(name: str, label: str, base_dir: str | None) -> bytes:
    where = f"`{_show(base_dir, 80)}`" if base_dir is not None else "the current directory"
    try:
        path = os.path.expanduser(name)
        if base_dir is not None:
            path = os.path.join(base_dir, path)
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        raise GradcliError(
            f"{label} does not exist",
            found=_show(name, 80),
            hint=f"a relative path is relative to {where}",
        ) from None
    except PermissionError:
        raise GradcliError(f"{label} cannot be read: permission denied") from None
    except (OSError, ValueError) as e:
        raise GradcliError(f"{label} cannot be read: {_reason(e)}") from None
    if stat.S_ISDIR(st.st_mode):
        raise GradcliError(f"{label} is a directory, not a file", expected="a file")
    if not stat.S_ISREG(st.st_mode):
        raise GradcliError(f"{label} is not a regular file", expected="a regular file")
    ext = os.path.splitext(name)[1].lower()
    if ext not in FILE_EXTENSIONS:
        raise GradcliError(
            f"{label} has an unsupported extension `{_show(ext) or '(none)'}`",
            found=_show(ext) or "no extension",
            expected="a .npy, .npz, .json or .csv file",
            hint="save an array with numpy.save(...) as .npy, or write it as .json or .csv",
        )
    FILE_BYTES.check(st.st_size, f"the size of {label} in bytes")
    FILES_READ.append(path)
    limit = FILE_BYTES.value
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)  # the file may have grown since it was looked at
    except PermissionError:
        raise GradcliError(f"{label} cannot be read: permission denied") from None
    except (OSError, ValueError) as e:
        raise GradcliError(f"{label} cannot be read: {_reason(e)}") from None
    FILE_BYTES.check(len(data), f"the size of {label} in bytes")
    return data


def _reason(e: Exception) -> str:
    if isinstance(e, OSError) and e.strerror:
        return e.strerror.lower()
    return _show(str(e), 80) or type(e).__name__


def _decode(data: bytes, label: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise GradcliError(
            f"{label} is not UTF-8 text (byte {e.start})", expected="a text file"
        ) from None


def _npy_header(fh: Any, label: str, kind: str, writer: str) -> tuple[tuple[int, ...], Any]:
    """The shape and dtype of the .npy header at `fh` (read without the data)."""
    fmt = np.lib.format
    try:
        version = fmt.read_magic(fh)
        if version == (1, 0):
            dims, _, dt = fmt.read_array_header_1_0(fh)
        elif version == (2, 0):
            dims, _, dt = fmt.read_array_header_2_0(fh)
        else:
            raise ValueError(f"unsupported .npy format version {version[0]}.{version[1]}")
    except Exception as e:
        raise GradcliError(
            f"{label} is not a valid {kind} file: {_show(str(e), 120)}",
            expected=f"a file written by {writer}",
        ) from None
    return dims, dt


def _parse_npy(data: bytes, label: str) -> _Parsed:
    fp = io.BytesIO(data)
    dims, dt = _npy_header(fp, label, ".npy", "numpy.save")
    if dt.hasobject or dt.kind not in "biuf" or dt.fields is not None or dt.subdtype:
        raise GradcliError(
            f"{label} holds `{_show(str(dt), 60)}` values",
            found=_show(str(dt), 60),
            expected="real numbers (bool, int or float)",
        )
    count = math.prod(dims)
    if count * dt.itemsize > len(data) - fp.tell():
        raise GradcliError(
            f"{label} is truncated: its header promises shape {_fmt_shape(dims)} "
            f"({_count(count, 'element')}) but the file is too short",
            expected="a file written by numpy.save",
        )
    try:
        array = np.load(io.BytesIO(data), allow_pickle=False)
        with np.errstate(all="ignore"):
            array = np.asarray(array, dtype=np.float64)
    except Exception as e:
        raise GradcliError(f"{label} is not a valid .npy file: {_show(str(e), 120)}") from None
    finite = np.isfinite(array)
    if not finite.all():
        pos = np.unravel_index(int(np.argmin(finite)), array.shape)
        raise _non_finite(label, f"the value at index {_fmt_index(pos)}", str(array[pos]))
    return _Parsed(array, array.ndim <= 1, label)


def _parse_npz(data: bytes, label: str, name: str | None) -> _Parsed:
    """An .npz archive (what `-o FILE.npz` writes: one array a tensor, by name): the array of
    the tensor `name`, or its only array. Each member's header is read and its size checked
    before the member is (a compressed archive could hold far more than its own size)."""
    import zipfile

    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [m for m in archive.infolist() if m.filename.endswith(".npy")]
    except (zipfile.BadZipFile, OSError, ValueError) as e:
        raise GradcliError(
            f"{label} is not a valid .npz file: {_show(str(e), 120)}",
            expected="a file written by numpy.savez",
        ) from None
    arrays = {m.filename[:-4]: m for m in members}
    if not arrays:
        raise GradcliError(f"{label} holds no arrays", expected="a file written by numpy.savez")
    if name is not None and name in arrays:
        member = arrays[name]
    elif len(arrays) == 1:
        member = next(iter(arrays.values()))
    else:
        names = ", ".join(f"`{_show(k, 40)}`" for k in list(arrays)[:10])
        more = f" and {len(arrays) - 10} more" if len(arrays) > 10 else ""
        raise GradcliError(
            f"{label} has no array named `{_show(name or '?', 40)}`",
            found=f"arrays {names}{more}",
            expected=f"the array `{_show(name or '?', 40)}`",
        )
    try:
        with archive.open(member) as fh:
            dims, dt = _npy_header(fh, label, ".npz", "numpy.savez")
    except GradcliError:
        raise
    except Exception as e:
        raise GradcliError(
            f"{label} is not a valid .npz file: {_show(str(e), 120)}",
            expected="a file written by numpy.savez",
        ) from None
    what = f"{label} (array `{_show(member.filename[:-4], 40)}`)"
    limits.TENSOR_ELEMENTS.check(math.prod(dims), f"the number of elements of {what}")
    if dt.itemsize * math.prod(dims) > FILE_BYTES.value:
        FILE_BYTES.check(dt.itemsize * math.prod(dims), f"the size of {what} in bytes")
    try:
        with archive.open(member) as fh:
            inner = fh.read(FILE_BYTES.value + 1)
    except Exception as e:
        raise GradcliError(f"{label} cannot be read: {_show(str(e), 120)}") from None
    return _parse_npy(inner, what)


def _parse_csv(
    text: str, label: str, shape: tuple[int, ...] | None = None, name: str | None = None
) -> _Parsed:
    """CSV: gradcli's own (a header row of column labels, a column of row labels: what
    `--format csv` writes), or bare rows of numbers separated by commas or blanks.

    gradcli's 2-D form of a tensor (rows the leading indices, columns the last one) reads back
    as the tensor; rows labelled `x[...]` of several tensors (`name,value`) give those of
    `name`."""
    # Every cell is between separators: refuse too many before splitting anything.
    cells = text.count(",") + text.count("\n") + 1
    if cells > limits.TENSOR_ELEMENTS.value:
        limits.TENSOR_ELEMENTS.check(cells, f"the number of values in {label}")
    if "," not in text:
        return _parse_blank_separated(text, label)
    from .matrix import CsvFormatError, read_matrix_csv

    try:
        m = read_matrix_csv(text)
    except CsvFormatError as e:
        raise GradcliError(
            f"{label} {_show(str(e), 200)}",
            expected="rows of numbers separated by commas (gradcli's CSV: a header row, then "
            "a label and the numbers on each row)",
        ) from None
    values, lines = m.values, m.lines
    if m.row_labels is not None and name is not None:
        picked = _rows_of(name, m.row_labels)
        if picked is not None:
            values, lines = values[picked], tuple(lines[i] for i in picked)
    if not np.isfinite(values).all():
        r, c = np.unravel_index(int(np.argmin(np.isfinite(values))), values.shape)
        col = int(c) + (2 if m.row_labels is not None else 1)
        import csv as _csv

        line = text.splitlines()[lines[r] - 1] if lines else ""
        cells = next(_csv.reader([line]), [])
        tok = cells[col - 1].strip() if len(cells) >= col else str(values[r, c])
        raise _non_finite(
            f"{label} line {lines[r] if lines else r + 1}", f"the value in column {col}", tok
        )
    if shape is not None and len(shape) >= 2 and values.size == math.prod(shape):
        if values.shape == (math.prod(shape[:-1]), shape[-1]):
            # gradcli's 2-D form of the tensor: read back row-major, exactly.
            return _Parsed(values.reshape(shape), False, label)
    if values.shape[0] == 1 or values.shape[1] == 1:
        return _Parsed(values.reshape(-1), True, label)
    return _Parsed(values, False, label)


def _rows_of(name: str, labels: tuple[str, ...]) -> list[int] | None:
    """The rows labelled `name` or `name[...]`, when the labels name several tensors."""
    bases = [lab.split("[", 1)[0] for lab in labels]
    if len(set(bases)) <= 1:
        return None
    rows = [i for i, b in enumerate(bases) if b == name]
    return rows or None


def _parse_blank_separated(text: str, label: str) -> _Parsed:
    rows: list[list[float]] = []
    first_line = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s:
            continue
        row = []
        for j, tok in enumerate(s.split()):
            where = f"{label} line {lineno}"
            if not _FLAT_TOKEN.fullmatch(tok):
                raise GradcliError(
                    f"{where}: `{_show(tok)}` (column {j + 1}) is not a number",
                    found=_show(tok),
                    expected="rows of numbers separated by commas",
                )
            value = float(tok)
            if not math.isfinite(value):
                raise _non_finite(where, f"the value in column {j + 1}", tok)
            row.append(value)
        if rows and len(row) != len(rows[0]):
            raise GradcliError(
                f"{label}: line {lineno} has {_count(len(row), 'value')} but line {first_line} "
                f"has {len(rows[0])}",
                expected="the same number of values on every row",
            )
        if not rows:
            first_line = lineno
        rows.append(row)
        limits.TENSOR_ELEMENTS.check(len(rows) * len(row), f"the number of values in {label}")
    if not rows:  # pragma: no cover - empty text is caught before
        raise GradcliError(f"{label} is empty", expected="numbers")
    array = np.array(rows, dtype=np.float64)
    if array.shape[0] == 1 or array.shape[1] == 1:
        return _Parsed(array.reshape(-1), True, label)
    return _Parsed(array, False, label)


# --------------------------------------------------------------------------------------------
# Fitting to the shape, and the final dtype


def _fit(
    parsed: _Parsed, shape: tuple[int, ...], target: str, allow_special: bool
) -> tuple[np.ndarray, str | None]:
    array, label = parsed.array, parsed.label
    if array.shape == shape:
        return array, None
    n, size = array.size, math.prod(shape)
    shp = f"{_fmt_shape(shape)} ({_count(size, 'element')})"
    if parsed.flat:
        if n == size:
            note = None
            if n > 1:
                note = (
                    f"the flat {label} of {n} values was reshaped to {target}'s shape "
                    f"{_fmt_shape(shape)}"
                )
            return array.reshape(shape), note
        if n == 1:
            value = float(array.reshape(-1)[0])
            word = "zeros" if value == 0 else "ones"
            hint = f"write `{word}`, or give all {size} values" if allow_special else None
            raise GradcliError(
                f"{label} is a single number but {target} has shape {shp}",
                found="1 value",
                expected=f"{size} values",
                hint=hint or f"give all {size} values",
            )
        raise GradcliError(
            f"{label} has {_count(n, 'value')} but {target} has shape {shp}",
            found=_count(n, "value"),
            expected=f"{size} values",
        )
    found = f"{_fmt_shape(array.shape)} ({_count(n, 'element')})"
    hint = None
    if n == size:
        hint = (
            f"a flat list of the {n} values is reshaped row-major; "
            f"a nested one must have shape {_fmt_shape(shape)}"
        )
    raise GradcliError(
        f"{label} has shape {found} but {target} has shape {shp}",
        found=found,
        expected=shp,
        hint=hint,
    )


def _cast(array: np.ndarray, dt: np.dtype, label: str) -> np.ndarray:
    if dt == np.float64:
        return array
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if dt.kind in "fc":
            out = array.astype(dt)
            finite = np.isfinite(out)
            if not finite.all():
                pos = np.unravel_index(int(np.argmin(finite)), out.shape)
                raise GradcliError(
                    f"{label}: the value {array[pos]!r} at index {_fmt_index(pos)} is too large "
                    f"for {dt.name}",
                    expected=f"finite {dt.name} values",
                )
            return out
        if dt.kind == "b":
            if not np.isin(array, (0.0, 1.0)).all():
                raise GradcliError(f"{label}: values must be 0 or 1", expected="0 or 1")
            return array != 0
        info = np.iinfo(dt)
        ok = (array == np.trunc(array)) & (array >= info.min) & (array <= info.max)
        if not ok.all():
            pos = np.unravel_index(int(np.argmin(ok)), array.shape)
            raise GradcliError(
                f"{label}: the value {array[pos]!r} at index {_fmt_index(pos)} is not a whole "
                f"number that fits in {dt.name}",
                expected=f"whole numbers in {info.min}..{info.max}",
            )
        return array.astype(dt)


# --------------------------------------------------------------------------------------------
# Message helpers


def _non_finite(label: str, which: str, tok: str) -> GradcliError:
    low = tok.lower().lstrip("+-")
    if low.startswith(("nan", "inf")):
        message = f"{label}: {which} is `{_show(tok)}`; values must be finite numbers"
    else:
        message = f"{label}: {which}, `{_show(tok)}`, is too large to be a finite number"
    return GradcliError(message, found=_show(tok), expected="finite numbers")


def _expected_forms(allow_special: bool) -> str:
    forms = "numbers like `1,0,0`, a nested list like `[[1,0],[0,1]]`"
    if allow_special:
        forms += ", `ones`, `zeros`, `onehot:K`"
    return forms + " or `@FILE`"


def _fmt_shape(shape: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(d) for d in shape) + "]"


def _fmt_index(pos: tuple[Any, ...]) -> str:
    return "[" + ", ".join(str(int(i)) for i in pos) + "]"


def _count(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _show(s: str | None, limit: int = 40) -> str:
    """Text safe to put in a message: shortened, with control characters escaped."""
    if s is None:
        return ""
    if len(s) > limit:
        s = s[: limit - 3] + "..."
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in s)


def _snippet(s: str, pos: int, width: int = 20) -> str:
    start = max(0, pos - width)
    end = min(len(s), pos + width)
    head = "..." if start > 0 else ""
    tail = "..." if end < len(s) else ""
    return f"{head}{_show(s[start:end], 2 * width + 5)}{tail}"
