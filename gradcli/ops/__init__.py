"""Layer 3: the op records by family (elementwise, binary, linalg, reduction, shape, loss,
custom), and the Tensor arithmetic their rules are written with, bound to the records."""
