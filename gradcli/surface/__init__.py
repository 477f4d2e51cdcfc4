"""Layer 4: the PyTorch-shaped surface: argument conventions, constructors, compositions,
`torch.nn` modules, the Tensor methods and printing exactly as PyTorch prints.

Importing any module of this package completes `Tensor` (`names` installs its methods, its
indexing and comparison operators, `.T` / `.mT` and PyTorch's repr), as importing `ops`
installs its arithmetic: a tensor never exists half-made above the records' layer. Like
`ops`, nothing on the path of `gradcli --help` imports it.
"""

from . import names  # noqa: F401 - installs the Tensor methods
