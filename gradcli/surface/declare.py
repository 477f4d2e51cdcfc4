"""One declaration per user-facing name: where a program reaches it, the function it calls and
the op records it is built on.

A family module (`composite`, `rearrange`, `linalg`, ...) declares its names in a table,

    NAMES = declare(
        # names        where           function   records
        ("sum",        "torch Tensor", sum,       "sum"),
        ("clamp clip", "torch Tensor", clamp,     "clamp"),
        ("Softmax",    "nn",           make,      "softmax"),
        ("median",     "torch Tensor", median,    "composition of index mul sum"),
        ("zeros",      "torch",        zeros,     ""),
    )

and `names` gathers every family's table into the interpreter's namespaces and the Tensor
methods; the catalog (`gradcli ops`) and the README's operation table read the same tables.
`tests/surface/test_declarations.py` runs every declared name and checks that the records it
applies are the declared ones.

names    the name and its aliases, as a program writes them after `torch.`, `x.`, `F.`, `nn.`,
         `torch.linalg.` (operators by their dunder, `__add__`)
where    where each is reachable: `torch` (torch.X, and F.X too), `Tensor` (the method x.X),
         `Tensor_` (also x.X_, the method in place), `F` (F.X only: where F's differs from
         torch's), `nn` (the module nn.X), `linalg` (torch.linalg.X), `special`
         (torch.special.X), `fft` (torch.fft.X), `property` (x.X)
records  the op records the function applies to the tensors it differentiates through: the
         names of `gradcli.ops.REGISTRY`, space-separated, the main one first (the name is that
         record, under PyTorch's name and argument conventions); "composition of ..." for a
         name built on several records or on one that is not its own operation (`flip` is
         indexing); "" for a name with no derivative (constructors, comparisons, argmax)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base.record import Record

WHERE = ("torch", "Tensor", "Tensor_", "F", "nn", "linalg", "special", "fft", "property")
COMPOSITION = "composition of "


class Name(Record):
    """One user-facing name (one alias of a declaration row)."""

    _fields = ("name", "where", "fn", "records", "composition")
    name: str
    where: tuple[str, ...]
    fn: Callable[..., Any]
    records: tuple[str, ...]
    composition: bool

    def qualified(self) -> list[str]:
        """The name as each place spells it: `torch.sum`, `Tensor.sum`, `nn.Softmax`."""
        return [f"{w}.{self.name}" for w in self.where]


def declare(*rows: tuple[str, str, Callable[..., Any], str]) -> list[Name]:
    """The `Name`s of a family's table (see the module's docstring)."""
    out = []
    for names, where, fn, records in rows:
        places = tuple(where.split())
        for w in places:
            if w not in WHERE:
                raise ValueError(f"declare: {names!r} is reachable at unknown {w!r}")
        composition = records.startswith(COMPOSITION)
        recs = tuple(records.removeprefix(COMPOSITION).split())
        for name in names.split():
            out.append(Name(name, places, fn, recs, composition))
    return out
