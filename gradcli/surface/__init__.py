"""Layer 4: the PyTorch-shaped surface: argument conventions, constructors, compositions,
`torch.nn` modules, the Tensor methods and printing exactly as PyTorch prints."""
