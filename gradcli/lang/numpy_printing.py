"""`numpy.set_printoptions` / `numpy.get_printoptions`: how NumPy arrays print, as notebooks set
it beside torch (`np.set_printoptions(suppress=True, precision=4)`).

A NumPy array in a program prints with NumPy's own `str`, so these set NumPy's options in the
process, for one run: `reset()` puts NumPy's defaults back when a run starts. Each value is
checked here (NumPy itself takes most values unchecked and fails when an array is printed), so
an error points at the call that set it; `formatter`, `legacy` and `override_repr` (functions
and old-version modes) are refused. `text_floor` is the least length an array's text takes
under the options in force, checked against the string limit before the text is made (a
`threshold=sys.maxsize` lifts NumPy's summarizing).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base.errors import GradcliError

# NumPy's defaults (numpy.get_printoptions() in a fresh process).
DEFAULTS: dict[str, Any] = {
    "edgeitems": 3,
    "threshold": 1000,
    "floatmode": "maxprec",
    "precision": 8,
    "suppress": False,
    "linewidth": 75,
    "nanstr": "nan",
    "infstr": "inf",
    "sign": "-",
}
_FLOATMODES = ("fixed", "unique", "maxprec", "maxprec_equal")
_HINT = (
    "numpy.set_printoptions(precision=N, threshold=N, edgeitems=N, linewidth=N, "
    "suppress=True/False, nanstr='...', infstr='...', sign='-'/'+'/' ', floatmode='...')"
)
_CHANGED = [False]  # whether a run changed NumPy's options (reset() then puts them back)


def reset() -> None:
    """NumPy's default print options (and error settings), at the start of a run."""
    import sys

    more = sys.modules.get("gradcli.lang.numpy_more")
    if more is not None:
        more.reset_errors()
    if _CHANGED[0]:
        np.set_printoptions(**DEFAULTS, formatter=None, legacy=False, override_repr=None)
        _CHANGED[0] = False


def _error(message: str, kind: str = "TypeError") -> GradcliError:
    return GradcliError(message, hint=_HINT).mirror(kind)


def _count(v: Any, name: str) -> int:
    if isinstance(v, np.integer):
        v = int(v)
    if isinstance(v, bool) or not isinstance(v, int):
        if name == "precision":  # NumPy's words (it checks only this one's type)
            raise _error("precision must be an integer")
        raise _error(f"{name} must be an integer, not {type(v).__name__}")
    if v < 0:
        raise _error(f"{name} must be a non-negative integer, got {v}", "ValueError")
    return v


def _text(v: Any, name: str) -> str:
    if not isinstance(v, str):
        raise _error(f"{name} must be a string, not {type(v).__name__}")
    if len(v) > 100:
        raise _error(f"{name} is longer than 100 characters", "ValueError")
    return v


def set_printoptions(
    precision: Any = None,
    threshold: Any = None,
    edgeitems: Any = None,
    linewidth: Any = None,
    suppress: Any = None,
    nanstr: Any = None,
    infstr: Any = None,
    formatter: Any = None,
    sign: Any = None,
    floatmode: Any = None,
    *,
    legacy: Any = None,
    override_repr: Any = None,
) -> None:
    """`numpy.set_printoptions`: the options given change, the others stay (as NumPy)."""
    for name, v in (("formatter", formatter), ("legacy", legacy), ("override_repr", override_repr)):
        if v is not None:
            raise GradcliError(
                f"numpy.set_printoptions({name}=...) is not supported by gradcli", hint=_HINT
            )
    opts: dict[str, Any] = {}
    if precision is not None:
        opts["precision"] = _count(precision, "precision")
    if threshold is not None:
        if isinstance(threshold, bool) or not isinstance(
            threshold, (int, float, np.integer, np.floating)
        ):
            raise _error("threshold must be numeric")  # (NumPy's words)
        if math.isnan(threshold):
            raise _error(
                "threshold must be non-NAN, try sys.maxsize for untruncated representation",
                "ValueError",
            )
        opts["threshold"] = threshold
    if edgeitems is not None:
        opts["edgeitems"] = _count(edgeitems, "edgeitems")
    if linewidth is not None:
        opts["linewidth"] = _count(linewidth, "linewidth")
    if suppress is not None:
        opts["suppress"] = bool(suppress) if isinstance(suppress, (bool, int)) else None
        if opts["suppress"] is None:
            raise _error(f"suppress must be True or False, not {type(suppress).__name__}")
    if nanstr is not None:
        opts["nanstr"] = _text(nanstr, "nanstr")
    if infstr is not None:
        opts["infstr"] = _text(infstr, "infstr")
    if sign is not None:
        if sign not in ("-", "+", " "):
            raise _error("sign option must be one of ' ', '+', or '-'", "ValueError")
        opts["sign"] = sign
    if floatmode is not None:
        if floatmode not in _FLOATMODES:
            raise _error(
                'floatmode option must be one of "fixed", "unique", "maxprec", "maxprec_equal"',
                "ValueError",
            )
        opts["floatmode"] = floatmode
    _CHANGED[0] = True
    np.set_printoptions(**opts)


def get_printoptions() -> dict[str, Any]:
    """`numpy.get_printoptions()`: the options in force, as NumPy's dictionary."""
    return dict(np.get_printoptions())


def text_floor(v: np.ndarray) -> int:
    """The least length the text of array `v` has under the options in force: a character and
    a separator for each element shown, and the digits `precision` fixes in 'fixed' mode."""
    if not _CHANGED[0]:
        return 0
    opts = np.get_printoptions()
    n = int(v.size)
    if n > opts["threshold"]:
        return 0  # summarized: NumPy shows the edge items only
    each = 2
    if opts["floatmode"] == "fixed" and v.dtype.kind in "fc":
        each += int(opts["precision"])
    return n * each


class PrintOptions:
    """`with numpy.printoptions(**options) as opts:`: the options set for the block (checked
    as `set_printoptions` checks them, when the block is entered, as NumPy's), `opts` the
    options in force, and the ones before restored when it ends, whatever happens in it."""

    program_context = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args = args
        self.kwargs = kwargs
        self.saved: dict[str, Any] | None = None
        self.as_value: Any = None

    def program_typename(self) -> str:
        return "_GeneratorContextManager"

    def enter(self) -> None:
        saved = dict(np.get_printoptions())
        set_printoptions(*self.args, **self.kwargs)
        self.saved = saved
        self.as_value = get_printoptions()

    def exit(self) -> None:
        if self.saved is not None:
            np.set_printoptions(**self.saved)
            self.saved = None


def printoptions(*args: Any, **kwargs: Any) -> PrintOptions:
    """`numpy.printoptions(...)`: the context manager (its options are checked on entry)."""
    return PrintOptions(*args, **kwargs)
