"""Layer 3: the op records by family (elementwise, binary, linalg, reduction, shape, loss,
custom), and the Tensor arithmetic their rules are written with, bound to the records.

Importing any module of this package installs that arithmetic (`arithmetic`, which imports
the families every program uses) and `Tensor.backward`: a VJP rule is written `g * x.cos()`,
so no record is usable without them. The other families (convolutions, batch norm, the
losses, the special functions...) are imported where a program first uses them
(`base.lazy.lazy_module`): start-up does not pay for what a program does not name. Reading
`gradcli.ops.REGISTRY` imports every family and gives the registry complete, in the order of
`FAMILIES` whatever ran first (the catalog, export and the op tests read it). Nothing on the
path of `gradcli --help` imports this package.
"""

from typing import Any

from ..core import autograd  # noqa: F401 - installs Tensor.backward
from . import arithmetic  # noqa: F401 - installs the operators every rule uses

# Every module that registers records, in the registry's order.
FAMILIES = (
    "binary",
    "elementwise",
    "shape",
    "complexnum",
    "linalg",
    "reduction",
    "matrices",
    "lu",
    "scan",
    "scatter",
    "activation",
    "batchnorm",
    "conv",
    "resample",
    "gridsample",
    "groupnorm",
    "layernorm",
    "renorm",
    "trilinear",
    "special",
    "fft",
    "loss",
    "ctc",
    "segment",
)


def load_all() -> dict:
    """Import every family; the registry, complete and in the order of `FAMILIES`."""
    import importlib

    from ..core.op import ORIGIN, REGISTRY

    for family in FAMILIES:
        importlib.import_module(f"{__name__}.{family}")
    rank = {f"{__name__}.{f}": i for i, f in enumerate(FAMILIES)}

    def key(name: str) -> tuple[int, int]:
        module, seq = ORIGIN[name]
        return rank.get(module, len(rank)), seq

    order = sorted(REGISTRY, key=key)
    if list(REGISTRY) != order:
        ops = {name: REGISTRY[name] for name in order}
        REGISTRY.clear()
        REGISTRY.update(ops)
    return REGISTRY


def __getattr__(name: str) -> Any:
    if name == "REGISTRY":
        return load_all()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
