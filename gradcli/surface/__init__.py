"""The surface layer: what a PyTorch program sees (tensor constructors, random numbers, ...)."""
