"""Layer 3: the op records by family (elementwise, binary, linalg, reduction, shape, loss,
custom), and the Tensor arithmetic their rules are written with, bound to the records.

Importing any module of this package installs that arithmetic (`arithmetic`, which imports
every family) and `Tensor.backward`: a VJP rule is written `g * x.cos()`, so no record is
usable without them. This is the one package `__init__` that imports something; nothing on
the path of `gradcli --help` imports it. `REGISTRY` here is complete: every family is imported.
"""

from ..core import autograd  # noqa: F401 - installs Tensor.backward
from ..core.op import REGISTRY  # noqa: F401 - re-exported, complete
from . import (
    arithmetic,  # noqa: F401 - installs the operators every rule uses
    scan,  # noqa: F401 - the cumulative records (registered on import)
    scatter,  # noqa: F401 - registers scatter, scatter_add
)

# isort: split
from . import (  # noqa: F401 - their records join the registry (after the others)
    activation,
    batchnorm,
    conv,
    gridsample,
    groupnorm,
    layernorm,
    resample,
    special,
)
