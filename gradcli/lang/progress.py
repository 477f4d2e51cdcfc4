"""`tqdm` as training loops use it: `for xb, yb in tqdm(loader):`, `trange(epochs)`,
`pbar.set_description(...)`, `pbar.set_postfix(loss=...)`, `with tqdm(total=n) as pbar:`,
`tqdm.write(...)`.

The bar itself is drawn by tqdm on standard error, never on standard output: a gradcli
program's standard output is what the script prints, so the bar is not drawn at all (the
iteration, the lengths and `tqdm.write`, which prints to standard output, are tqdm's)."""

from __future__ import annotations

from typing import Any

from ..base.errors import GradcliError
from .values import Generator, current, is_iterator, iterate, length


class Progress:
    """What `tqdm(iterable, ...)` returns: the iterable's items, and no-op bar methods."""

    PROGRAM_ATTRIBUTES = (
        "set_description",
        "set_description_str",
        "set_postfix",
        "set_postfix_str",
        "update",
        "refresh",
        "close",
        "clear",
        "reset",
        "write",
        "total",
        "n",
        "desc",
    )
    as_value: Any = None  # `with tqdm(...) as pbar:` binds the bar itself (set in __init__)

    def __init__(
        self,
        iterable: Any = None,
        desc: Any = None,
        total: Any = None,
        *,
        eager: bool = False,
        **_: Any,
    ):
        if eager and iterable is not None and not is_iterator(iterable):
            # tqdm.auto's bar (tqdm.asyncio's) makes an iterator of the iterable when it is
            # made, and iterates a second one: a DataLoader draws one more base seed.
            from .builtins import BUILTINS

            BUILTINS["iter"].fn(iterable)
        self.iterable = iterable
        self.desc = desc
        if total is None and iterable is not None:
            # as tqdm: the iterable's len() when it has one (a DataLoader's, a dataset's)
            total = length(iterable)
            own = getattr(type(iterable), "program_len", None)
            if total is None and own is not None:
                total = own(iterable)
        self.total = total
        self.n = 0
        self.as_value = self

    def program_iter(self) -> Generator:
        if self.iterable is None:
            raise GradcliError("'NoneType' object is not iterable").mirror("TypeError")
        items = iterate(self.iterable, "for")

        def counted() -> Any:
            for item in items:
                yield item
                self.n += 1

        return Generator(counted())

    def program_len(self) -> int:
        if self.total is None:
            raise GradcliError(f"object of type '{type(self).__name__}' has no len()").mirror(
                "TypeError"
            )
        return int(self.total)

    def set_description(self, desc: Any = None, refresh: bool = True) -> None:
        self.desc = desc

    def set_description_str(self, desc: Any = None, refresh: bool = True) -> None:
        self.desc = desc

    def set_postfix(self, ordered_dict: Any = None, refresh: bool = True, **kwargs: Any) -> None:
        pass

    def set_postfix_str(self, s: Any = "", refresh: bool = True) -> None:
        pass

    def update(self, n: Any = 1) -> None:
        self.n += n

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        pass

    def clear(self) -> None:
        pass

    def reset(self, total: Any = None) -> None:
        self.n = 0
        if total is not None:
            self.total = total

    # `with tqdm(total=n) as pbar:`
    def enter(self) -> None:
        pass

    def exit(self) -> None:
        pass

    @staticmethod
    def write(s: Any, file: Any = None, end: str = "\n", nolock: bool = False) -> None:
        current().do_print(s, end=end)

    def __repr__(self) -> str:
        return f"{self.n}/{self.total if self.total is not None else '?'}"

    def program_typename(self) -> str:
        return "tqdm"


class Tqdm:
    """`tqdm` itself: calling it makes a bar (`tqdm(loader, desc="train")`); `tqdm.write(s)`
    prints a line."""

    PROGRAM_ATTRIBUTES = ("write",)

    def __init__(self, name: str, of_range: bool = False, eager: bool = False):
        self.name = name
        self.of_range = of_range
        self.eager = eager

    def __call__(self, *args: Any, **kwargs: Any) -> Progress:
        kwargs.pop("eager", None)
        if self.of_range:  # trange(n) is tqdm(range(n))
            return Progress(range(*args), eager=self.eager, **kwargs)
        return Progress(*args[:1], eager=self.eager, **kwargs)

    def write(self, s: Any, file: Any = None, end: str = "\n", nolock: bool = False) -> None:
        Progress.write(s, end=end)

    def __repr__(self) -> str:
        return f"<class 'tqdm.std.{self.name}'>" if not self.of_range else "<function trange>"


def members(eager: bool = False) -> dict[str, Any]:
    """`tqdm` and `trange`: tqdm's own (`tqdm`, `tqdm.std`, `tqdm.autonotebook` outside a
    notebook), or with `eager`, tqdm.auto's and tqdm.asyncio's (see `Progress`)."""
    return {
        "tqdm": Tqdm("tqdm", eager=eager),
        "trange": Tqdm("trange", of_range=True, eager=eager),
    }
