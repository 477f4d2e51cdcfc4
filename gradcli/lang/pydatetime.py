"""`datetime` as training scripts use it: the clock read to name a checkpoint or a run's log
directory (`datetime.now().strftime('%Y%m%d_%H%M%S')`), dates and durations made, added and
subtracted (`end - start`, `timedelta(minutes=5)`, `.total_seconds()`), printed as Python
prints them.

The values are Python's own `datetime`, `date` and `timedelta` (immutable, of a few numbers
each): a program reaches the methods and fields listed here, and Python's operators on them
(`operators.binop`); no time zone, no parsing of text against a format, no sleep. Reading the
clock is what `time.time()` already lets a program do."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from typing import Any

from ..base.errors import GradcliError, NotSupported
from ..core.tensor import Tensor, typename
from . import operators, pyobjects
from .formatting import strftime
from .values import Builtin, PyType, as_index


def _no_zone(tz: Any) -> None:
    if tz is not None:
        raise NotSupported(
            "time zones (tz=, tzinfo=) are not supported by gradcli's datetime",
            hint="use the local time: datetime.now()",
        )


def _python(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """One of Python's constructors or methods with the program's values (an integer tensor
    of one element taken by its index, as Python takes it): its errors in its own words, as
    the program's (TypeError, ValueError, OverflowError)."""
    if any(isinstance(v, Tensor) for v in (*args, *kwargs.values())):
        args = tuple(as_index(v) for v in args)
        kwargs = {k: as_index(v) for k, v in kwargs.items()}
    for v in (*args, *kwargs.values()):
        if not isinstance(v, (int, float, str)) and type(v).__module__ != "datetime":
            raise GradcliError(
                f"an argument of type {typename(v)} is not supported here",
                hint="give Python numbers (int(t) of a tensor)",
            ).mirror("TypeError")
    try:
        return fn(*args, **kwargs)
    except TypeError as e:
        raise GradcliError(str(e)).mirror("TypeError") from None
    except ValueError as e:
        raise GradcliError(str(e)).mirror("ValueError") from None
    except OverflowError as e:
        raise GradcliError(str(e)).mirror("OverflowError") from None


def _now(tz: Any = None) -> _dt.datetime:
    _no_zone(tz)
    return _dt.datetime.now()


def _make_datetime(*args: Any, tzinfo: Any = None, **kwargs: Any) -> _dt.datetime:
    _no_zone(tzinfo)
    return _python(_dt.datetime, *args, **kwargs)


def _replace(v: Any, **kwargs: Any) -> Any:
    _no_zone(kwargs.pop("tzinfo", None))
    return _python(v.replace, **kwargs)


_COMMON: dict[str, Callable[..., Any]] = {
    "strftime": strftime,
    "isoformat": lambda v, *a, **k: _python(v.isoformat, *a, **k),
    "weekday": lambda v: v.weekday(),
    "isoweekday": lambda v: v.isoweekday(),
    "ctime": lambda v: v.ctime(),
    "replace": _replace,
}
_DATETIME_METHODS: dict[str, Callable[..., Any]] = {
    **_COMMON,
    "timestamp": lambda v: v.timestamp(),
    "date": lambda v: v.date(),
}
_TIMEDELTA_METHODS: dict[str, Callable[..., Any]] = {
    "total_seconds": lambda v: v.total_seconds(),
}

DATETIME = PyType(
    "datetime",
    (_dt.datetime,),
    _make_datetime,
    shown="datetime.datetime",
    members={
        "now": Builtin("datetime.datetime.now", _now),
        "today": Builtin("datetime.datetime.today", lambda: _dt.datetime.today()),
        "fromtimestamp": Builtin(
            "datetime.datetime.fromtimestamp",
            lambda t, tz=None: (_no_zone(tz), _python(_dt.datetime.fromtimestamp, t))[1],
        ),
        "fromisoformat": Builtin(
            "datetime.datetime.fromisoformat",
            lambda s: _python(_dt.datetime.fromisoformat, s),
        ),
    },
)
DATE = PyType(
    "date",
    (_dt.date,),
    lambda *a, **k: _python(_dt.date, *a, **k),
    shown="datetime.date",
    members={
        "today": Builtin("datetime.date.today", lambda: _dt.date.today()),
        "fromisoformat": Builtin(
            "datetime.date.fromisoformat", lambda s: _python(_dt.date.fromisoformat, s)
        ),
    },
)
_PARTS = ("days", "seconds", "microseconds", "milliseconds", "minutes", "hours", "weeks")


def _timedelta(*args: Any, **kwargs: Any) -> _dt.timedelta:
    for k, v in (*zip(_PARTS, args), *kwargs.items()):
        if isinstance(v, Tensor):  # (timedelta takes Python's int and float only)
            raise GradcliError(f"unsupported type for timedelta {k} component: Tensor").mirror(
                "TypeError"
            )
    return _python(_dt.timedelta, *args, **kwargs)


def _refused(name: str) -> Builtin:
    def call(*args: Any, **kwargs: Any) -> Any:
        raise NotSupported(
            f"`{name}` is not supported by gradcli",
            hint="make dates with datetime(...), datetime.now() or fromisoformat(text)",
        )

    return Builtin(name, call)


TIMEDELTA = PyType("timedelta", (_dt.timedelta,), _timedelta, shown="datetime.timedelta")
for _kind, _names in (
    (DATETIME, ("strptime", "utcnow", "utcfromtimestamp", "combine", "fromordinal")),
    (DATE, ("fromtimestamp", "fromordinal", "fromisocalendar")),
):
    for _name in _names:
        _kind.members[_name] = _refused(f"{_kind.shown}.{_name}")

operators._TIMEDELTA[0] = _dt.timedelta
pyobjects.TABLES.update(
    {_dt.datetime: _DATETIME_METHODS, _dt.date: _COMMON, _dt.timedelta: _TIMEDELTA_METHODS}
)
pyobjects.NUMBER_ATTRIBUTES.update(
    {
        _dt.datetime: ("year", "month", "day", "hour", "minute", "second", "microsecond"),
        _dt.date: ("year", "month", "day"),
        _dt.timedelta: ("days", "seconds", "microseconds"),
    }
)


def members() -> dict[str, Any]:
    """The `datetime` module's names a program uses."""
    return {"datetime": DATETIME, "date": DATE, "timedelta": TIMEDELTA}
