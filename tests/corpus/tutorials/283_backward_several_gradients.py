import torch
# Several outputs with a gradient of the wrong shape: PyTorch names it by searching its list
# with ==, which for tensors can itself fail; gradcli says what PyTorch says.
a = torch.ones(3, requires_grad=True)
cases = [
    ([a * 1, a * 2], [torch.ones(3), torch.ones(2)]),
    ([a[:1] * 1, a[:2] * 2], [torch.ones(1), torch.ones(1)]),
    ([a[:1] * 1, a[:2] * 2], [torch.ones(1), torch.zeros(1)]),
    ([a * 1, a * 2, a * 3], [torch.ones(3), torch.ones(3), torch.ones(2, 1)]),
    ([a * 1, a * 2], [None, torch.ones(2)]),
    ([a * 1, a * 2], [torch.ones(3), torch.ones(3, 1)]),
]
for outs, grads in cases:
    try:
        torch.autograd.backward(outs, grads)
        print("ran")
    except RuntimeError as e:
        print(e)
    try:
        torch.autograd.grad(outs, [a], grads)
        print("ran")
    except RuntimeError as e:
        print(e)
