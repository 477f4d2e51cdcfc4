"""Layer 6: the library features over programs and tensors: load/resolve, results,
Jacobians, Hessians, finite differences, comparisons, symbolic (sympy), check, the PyTorch
reference, the op catalog, graph data, export. No typer, no rich."""
