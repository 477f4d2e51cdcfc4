"""The options the commands share (the program, `-e`, `--set`, `--seed`, `--dtype`, `--format`,
`--output`, `--precision`, `--of`, `--wrt`), declared once as annotated types."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer


class Format(str, Enum):
    table = "table"
    plain = "plain"
    json = "json"


class DType(str, Enum):
    float64 = "float64"
    float32 = "float32"


ProgramArg = Annotated[
    str | None,
    typer.Argument(help="The program file, or - for standard input.", show_default=False),
]


ExprOpt = Annotated[str | None, typer.Option("-e", "--expr", help="The program text itself.")]


SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set", help="Replace a tensor's data: NAME=VALUES (repeatable).", metavar="NAME=VALUES"
    ),
]


SeedOpt = Annotated[int, typer.Option("--seed", help="Seed for rand/randn.")]


DTypeOpt = Annotated[DType, typer.Option("--dtype", help="Default float dtype.")]


FormatOpt = Annotated[
    Format | None,
    typer.Option(
        "--format", "-f", help="Output format (default: table on a terminal, plain when piped)."
    ),
]


OutputOpt = Annotated[Path | None, typer.Option("--output", "-o", help="Write to FILE.")]


PrecisionOpt = Annotated[
    int | None, typer.Option("--precision", min=1, max=17, help="Significant digits shown.")
]


OfOpt = Annotated[
    str | None, typer.Option("--of", help="The output tensor (default: the last assigned).")
]


WrtOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--wrt", help="An input tensor (repeatable; default: every leaf that requires grad)."
    ),
]
