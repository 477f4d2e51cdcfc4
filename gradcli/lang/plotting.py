"""`import matplotlib.pyplot as plt` in a pasted notebook cell: the plotting calls run and draw
nothing, so the autograd code around them runs and prints as it does in PyTorch.

gradcli has no matplotlib and never imports it. `plt.<anything>(...)`, and every method of
what those calls return (a figure, axes, a line), accept any arguments and return another
drawing; `plt.subplots(r, c)` returns a figure and axes laid out as matplotlib's (one, a row,
or a grid to index, iterate or `.flatten()`), `plt.plot(...)` a list of one line (for `line, =
plt.plot(...)`). Nothing is drawn or written (`plt.savefig` saves nothing); one warning on
standard error says so. What matplotlib refuses and tutorials meet is kept: a tensor that
requires grad cannot be plotted (matplotlib calls its `.numpy()`)."""

from __future__ import annotations

from typing import Any

from ..base.errors import GradcliError
from ..core.tensor import Tensor, grad_enabled
from .values import Builtin, Generator, Namespace, current

_WARNING = "matplotlib: gradcli draws no figures; the plotting calls ran and did nothing"
_HINT = "gradcli prints what the program prints; plot the numbers with PyTorch itself"
_MAX_GRID = 64  # rows or columns of subplots: a grid is a few panels, not a tensor


class Drawing:
    """A figure, axes, a line, `plt.style`...: whatever matplotlib returns. Any attribute a
    program names is another drawing, and calling one draws nothing."""

    __slots__ = ("name",)

    def __init__(self, name: str = "drawing"):
        self.name = name

    def program_attribute(self, attr: str) -> Drawing:
        return Drawing(attr)

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        return _draw(self.name, args, kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _draw(self.name, list(args), kwargs)

    def __repr__(self) -> str:
        return f"<matplotlib {self.name} (not drawn by gradcli)>"


class Axes:
    """`plt.subplots(2, 3)`'s axes: a grid of drawings, indexed `axes[0, 1]`, `axes[1]`,
    iterated by rows, flattened."""

    __slots__ = ("shape",)

    def __init__(self, shape: tuple[int, ...]):
        self.shape = shape

    @staticmethod
    def _at(rest: tuple[int, ...]) -> Any:
        return Axes(rest) if rest else Drawing("axes")

    def program_len(self) -> int:
        return self.shape[0]

    def program_iter(self) -> Generator:
        return Generator(self._at(self.shape[1:]) for _ in range(self.shape[0]))

    def program_getitem(self, key: Any) -> Any:
        keys = key if isinstance(key, tuple) else (key,)
        if len(keys) > len(self.shape):
            raise GradcliError(
                f"too many indices for array: array is {len(self.shape)}-dimensional, but "
                f"{len(keys)} were indexed"
            ).mirror("IndexError")
        for k, n in zip(keys, self.shape):
            if isinstance(k, bool) or not isinstance(k, int):
                raise GradcliError(
                    "only integers can index the axes of plt.subplots() in gradcli"
                ).mirror("IndexError")
            if not -n <= k < n:
                raise GradcliError(f"index {k} is out of bounds for axis 0 with size {n}").mirror(
                    "IndexError"
                )
        return self._at(self.shape[len(keys) :])

    def program_attribute(self, attr: str) -> Any:
        total = 1
        for n in self.shape:
            total *= n
        if attr == "flat":
            return Axes((total,))
        if attr in ("flatten", "ravel"):
            return Builtin(f"axes.{attr}", lambda *_a, **_k: Axes((total,)))
        if attr == "shape":
            return self.shape
        raise GradcliError(
            f"'numpy.ndarray' object has no attribute '{attr}'",
            hint="index the axes first: axes[0].plot(...), or axes.flatten()",
        ).mirror("AttributeError")

    def __repr__(self) -> str:
        return f"<matplotlib axes {self.shape} (not drawn by gradcli)>"


def _check_arguments(values: Any) -> None:
    for v in values:
        if isinstance(v, Tensor) and v.requires_grad and grad_enabled():
            raise GradcliError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            ).mirror("RuntimeError")


def _draw(name: str, args: list, kwargs: dict) -> Any:
    _check_arguments(args)
    _check_arguments(kwargs.values())
    current().kernel_warning(_WARNING, _HINT, once=True)
    if name in ("show", "savefig", "close", "pause", "use"):
        return None
    if name == "plot":
        return [Drawing("line")]
    if name == "subplots":
        return _subplots(*args, **kwargs)
    return Drawing(name)


def _subplots(nrows: Any = 1, ncols: Any = 1, *_: Any, squeeze: Any = True, **__: Any) -> tuple:
    for n in (nrows, ncols):
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= _MAX_GRID:
            raise GradcliError(
                f"Number of rows and columns must be integers from 1 to {_MAX_GRID} in gradcli, "
                f"not {n!r}"
            ).mirror("ValueError")
    shape = (nrows, ncols)
    if squeeze:
        shape = tuple(n for n in shape if n != 1)
    return Drawing("figure"), Axes(shape) if shape else Drawing("axes")


class Pyplot(Namespace):
    """`matplotlib.pyplot`: every name is a drawing."""

    __slots__ = ()

    def program_attribute(self, attr: str) -> Any:
        return {} if attr == "rcParams" else Drawing(attr)


def members() -> dict[str, Any]:
    """`matplotlib`'s members, as `import matplotlib` / `import matplotlib.pyplot as plt` /
    `from matplotlib import pyplot as plt` reach them."""
    return {
        "pyplot": Pyplot("matplotlib.pyplot", {}),
        # `import matplotlib.ticker as ticker` (the autograd tutorials' plots): its locators
        # and formatters are drawings too.
        "ticker": Pyplot("matplotlib.ticker", {}),
        "use": Drawing("use"),
    }
