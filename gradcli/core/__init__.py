"""Layer 2: the autograd kernel: `Tensor`, grad mode, the `Op` record and its registry, the
graph walk, reverse mode (`apply`, `unbroadcast`, backward, grad) and forward mode (JVP).
No PyTorch names, no CLI, no sandbox policy."""
