"""The options the commands share, declared once.

Groups of options are dataclasses whose fields carry their typer declaration
(`ProgramOptions`: the program and how to run it; `OutputOptions`: format, file, precision;
`CommonOptions`: `--debug` and the limits). A command names a group as one parameter,
`p: ProgramOptions`, and `expand_options` turns it into the group's options on the command line
and back into one `ProgramOptions` value when the command runs. The options a few commands
share with their own help (`--of`, `--wrt`, `--grad`) are annotated types.

Every option sits in a help panel: Program, Method, Output, Limits.

The annotations here are evaluated when the module runs (no `from __future__ import
annotations`): typer reads them as objects, and evaluating the strings again when each command
is built cost more at start-up than the module itself. The groups are `OptionGroup`s, not
dataclasses (making a dataclass generates and execs its methods).
"""

import functools
import inspect
import typing
from collections.abc import Callable
from enum import Enum
from typing import Annotated, Any

import typer
from typer._click.types import ParamType

PROGRAM = "Program"
METHOD = "Method"
OUTPUT = "Output"
LIMITS = "Limits"


class Format(str, Enum):
    """Every output format; a command's result supports some of them (`output.emit` refuses
    the others in one place)."""

    table = "table"
    plain = "plain"
    json = "json"
    csv = "csv"
    npy = "npy"
    dot = "dot"
    mermaid = "mermaid"


class DType(str, Enum):
    float64 = "float64"
    float32 = "float32"


class OptionGroup:
    """A group of options: its fields are its annotated class attributes (the base class's
    first, as a dataclass orders them; a subclass may re-annotate one), the values the class
    attributes' unless given to the constructor by name."""

    _fields: tuple[str, ...] = ()
    _hints: dict[str, Any] = {}

    def __init_subclass__(cls) -> None:
        hints: dict[str, Any] = {}
        for k in reversed(cls.__mro__[: cls.__mro__.index(OptionGroup)]):
            hints.update(k.__dict__.get("__annotations__", {}))
        cls._fields = tuple(hints)
        cls._hints = hints

    def __init__(self, *args: Any, **values: Any) -> None:
        if len(args) > len(self._fields):
            raise TypeError(f"{type(self).__name__}() takes {len(self._fields)} arguments")
        values.update(zip(self._fields, args))
        for name in self._fields:
            setattr(self, name, values.pop(name) if name in values else getattr(type(self), name))
        if values:
            raise TypeError(f"{type(self).__name__}() got unexpected {sorted(values)}")

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__name__}({inner})"

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and all(
            getattr(self, f) == getattr(other, f) for f in self._fields
        )

    __hash__ = None  # type: ignore[assignment] - mutable, as a dataclass with eq


class _Name(ParamType):
    """Text named by its metavar alone in help (no `<str>` after `PROGRAM`)."""

    name = "text"

    def get_metavar(self, param: Any, ctx: Any = None) -> str:
        return ""

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        return value


class _IntFrom(ParamType):
    """An integer in [low, high], checked as click's IntRange checks it, but without the
    range printed beside the metavar in help (`DIGITS [0<=x<=17]` left the help text a narrow
    column at 60 columns): the option's help says the range in words."""

    name = "integer"

    def __init__(self, low: int, high: int | None = None) -> None:
        self.low, self.high = low, high

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        if isinstance(value, int):
            n = value
        else:
            try:
                n = int(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is not a whole number.", param, ctx)
        if n < self.low or (self.high is not None and n > self.high):
            where = f"from {self.low} to {self.high}" if self.high is not None else f">= {self.low}"
            self.fail(f"{n} is not {where}.", param, ctx)
        return n


class ProgramOptions(OptionGroup):
    """Where the program comes from and how it is run."""

    program: Annotated[
        str | None,
        typer.Argument(
            help="The program file, or - for standard input (or give its text with -e).",
            metavar="PROGRAM",
            show_default=False,
            click_type=_Name(),
        ),
    ] = None
    expr: Annotated[
        str | None,
        typer.Option(
            "-e",
            "--expr",
            help="The program's text itself, instead of a file.",
            metavar="TEXT",
            rich_help_panel=PROGRAM,
            show_default=False,
        ),
    ] = None
    set_: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="Replace a leaf tensor's data (values as --grad takes them: 1,2,3, a nested "
            "list, @FILE); repeatable.",
            metavar="NAME=VALUES",
            rich_help_panel=PROGRAM,
            show_default=False,
        ),
    ] = None
    seed: Annotated[
        int,
        typer.Option(
            "--seed",
            help="The seed of rand and randn until the program calls torch.manual_seed.",
            metavar="N",
            rich_help_panel=PROGRAM,
        ),
    ] = 0
    dtype: Annotated[
        DType,
        typer.Option(
            "--dtype",
            help="The default float dtype: float64 or float32.",
            metavar="DTYPE",
            rich_help_panel=PROGRAM,
        ),
    ] = DType.float64


class RunProgramOptions(ProgramOptions):
    """`gradcli run` runs the program as PyTorch would: float32 by default."""

    dtype: Annotated[
        DType,
        typer.Option(
            "--dtype",
            help="The default float dtype: float32 (as PyTorch) or float64.",
            metavar="DTYPE",
            rich_help_panel=PROGRAM,
        ),
    ] = DType.float32


FORMAT_HELP = (
    "{formats}. Default: the --output file's extension, else table on a terminal, plain in a pipe."
)
OUTPUT_HELP = "Write to FILE (- is standard output); {extensions} pick the format."

# The extensions of --output that pick each format (output.SUFFIX, read the other way).
EXTENSIONS = {
    "json": ".json",
    "csv": ".csv",
    "npy": ".npy .npz",
    "plain": ".txt",
    "dot": ".dot",
    "mermaid": ".mmd",
}


class OutputOptions(OptionGroup):
    """How and where a result is written."""

    format: Annotated[
        Format | None,
        typer.Option(
            "--format",
            "-f",
            help=FORMAT_HELP.format(formats="table, plain, json, csv or npy"),
            metavar="FORMAT",
            rich_help_panel=OUTPUT,
            show_default=False,
        ),
    ] = None
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help=OUTPUT_HELP.format(extensions=".json .csv .npy .npz .txt"),
            metavar="FILE",
            rich_help_panel=OUTPUT,
            show_default=False,
        ),
    ] = None
    precision: Annotated[
        int | None,
        typer.Option(
            "--precision",
            click_type=_IntFrom(0, 17),
            help="Digits after the decimal point, 0 to 17 (default: 4 in tables; in plain and "
            "csv every digit that reads back exactly; json has them all).",
            metavar="DIGITS",
            rich_help_panel=OUTPUT,
            show_default=False,
        ),
    ] = None
    strict_finite: Annotated[
        bool,
        typer.Option(
            "--strict-finite",
            help="Exit with status 1 when a result holds NaN or infinity (after writing it, "
            "and a warning naming the operation that made the first one).",
            rich_help_panel=OUTPUT,
        ),
    ] = False


class CommonOptions(OptionGroup):
    """Accepted by every command (and `--debug` before the command too)."""

    debug: Annotated[
        bool,
        typer.Option(
            "--debug",
            help="Show internal tracebacks (for bug reports).",
            rich_help_panel=LIMITS,
        ),
    ] = False
    time_limit: Annotated[
        int | None,
        typer.Option(
            "--time-limit",
            click_type=_IntFrom(1),
            help="Seconds the command may take (default 10; the environment variable: "
            "GRADCLI_TIME_SECONDS).",
            metavar="SECONDS",
            rich_help_panel=LIMITS,
            show_default=False,
        ),
    ] = None
    memory_limit: Annotated[
        int | None,
        typer.Option(
            "--memory-limit",
            click_type=_IntFrom(1),
            help="Megabytes of memory the command may add (default 700; the environment "
            "variable: GRADCLI_MEMORY_MB).",
            metavar="MB",
            rich_help_panel=LIMITS,
            show_default=False,
        ),
    ] = None

    def environment(self) -> dict[str, str]:
        """The limits given on the command line, as the environment variables they set."""
        env = {}
        if self.time_limit is not None:
            env["GRADCLI_TIME_SECONDS"] = str(self.time_limit)
        if self.memory_limit is not None:
            env["GRADCLI_MEMORY_MB"] = str(self.memory_limit)
        return env


OPTION_GROUPS = (ProgramOptions, OutputOptions, CommonOptions)


def expand_options(
    f: Callable[..., Any], formats: tuple[str, ...] | None = None
) -> Callable[..., Any]:
    """A command whose parameters annotated with an option group (`p: ProgramOptions`) take
    that group's options on the command line, and one value of the group when they run.
    `formats` (the command's output formats) rewrites the help of --format and --output to
    name those, and only those."""
    sig = inspect.signature(f, eval_str=True)
    params: list[inspect.Parameter] = []
    groups: dict[str, tuple[type, list[str]]] = {}
    for p in sig.parameters.values():
        cls = p.annotation
        if isinstance(cls, type) and issubclass(cls, OptionGroup):
            names = []
            for name, annotation, default in _group_fields(cls):
                if cls is OutputOptions and formats and name in ("format", "output"):
                    annotation = _with_help(annotation, _format_help(name, formats))
                params.append(
                    inspect.Parameter(
                        name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
                    )
                )
                names.append(name)
            groups[p.name] = (cls, names)
        else:
            params.append(p.replace(kind=inspect.Parameter.KEYWORD_ONLY))
    # The positional argument first (typer lists arguments in the order they are declared).
    params.sort(key=lambda q: 0 if _is_argument(q) else 1)

    @functools.wraps(f)
    def wrapper(**kw: Any) -> Any:
        for pname, (cls, names) in groups.items():
            kw[pname] = cls(**{n: kw.pop(n) for n in names})
        _refuse_output_onto_program(kw.values())
        return f(**kw)

    wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {q.name: q.annotation for q in params}
    return wrapper


def _group_fields(cls: type[OptionGroup]) -> list[tuple[str, Any, Any]]:
    """An option group's fields: name, annotation, default."""
    return [(name, cls._hints[name], getattr(cls, name)) for name in cls._fields]


def _format_help(field: str, formats: tuple[str, ...]) -> str:
    if field == "format":
        listed = ", ".join(formats[:-1]) + " or " + formats[-1] if len(formats) > 1 else formats[0]
        return FORMAT_HELP.format(formats=listed)
    extensions = " ".join(EXTENSIONS[f] for f in formats if f in EXTENSIONS)
    return OUTPUT_HELP.format(extensions=extensions)


def _with_help(annotation: Any, text: str) -> Any:
    """`Annotated[T, typer.Option(...)]` with the option's help replaced by `text`."""
    import copy

    base, *meta = typing.get_args(annotation)
    meta = [copy.copy(m) for m in meta]
    for m in meta:
        if isinstance(m, typer.models.OptionInfo):
            m.help = text
    return Annotated[(base, *meta)]  # type: ignore[return-value]


def _refuse_output_onto_program(values: Any) -> None:
    """Remembers `--output` (State.output) so that `-o PROGRAM` is refused when the program is
    read, before any work (not once the work is done, which may be long or stopped by a limit
    first); `emit` refuses the other inputs (`@FILE`) when it writes."""
    from .state import State

    out = next((v for v in values if isinstance(v, OutputOptions)), None)
    State.output = None if out is None or out.output in (None, "-") else out.output


def _is_argument(p: inspect.Parameter) -> bool:
    return any(
        isinstance(m, typer.models.ArgumentInfo) for m in getattr(p.annotation, "__metadata__", ())
    )


# --- options several commands share, with their own help -----------------------------------

OfOpt = Annotated[
    str | None,
    typer.Option(
        "--of",
        help="The output tensor (default: the last assigned tensor that requires grad).",
        metavar="NAME",
        rich_help_panel=METHOD,
        show_default=False,
    ),
]

WrtOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--wrt",
        help="An input tensor (repeatable; default: every leaf that requires grad).",
        metavar="NAME",
        rich_help_panel=METHOD,
        show_default=False,
    ),
]

GradOpt = Annotated[
    str | None,
    typer.Option(
        "--grad",
        "-g",
        help="The upstream gradient: 1,0,0,0 (flat, row-major) | [[1,0],[0,1]] | ones | "
        "onehot:K | @FILE (.npy .npz .json .csv, as gradcli writes them). Default: 1 for a "
        "one-element output.",
        metavar="VALUES",
        rich_help_panel=METHOD,
        show_default=False,
    ),
]

HeatOpt = Annotated[
    bool,
    typer.Option(
        "--heat",
        help="A heat map of the matrix instead of its numbers (table or plain): blue < 0 < "
        "red, or a character ramp without colour.",
        rich_help_panel=OUTPUT,
    ),
]
