# torch.autograd.grad(..., is_grads_batched=True): the first axis of each grad_output is a
# batch, all rows in one pass; PyTorch's checks and messages.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x**2
for go in [torch.ones(3), torch.ones(2, 2), [torch.ones(4, 3)]]:
    try:
        print(torch.autograd.grad(y, x, grad_outputs=go, is_grads_batched=True, retain_graph=True))
    except RuntimeError as e:
        print(e)
try:
    print(
        torch.autograd.grad(
            [y, y * 2],
            x,
            grad_outputs=[torch.ones(2, 3), torch.ones(3, 3)],
            is_grads_batched=True,
            retain_graph=True,
        )
    )
except ValueError as e:
    print(e)
print(
    torch.autograd.grad(
        [y.sum(), y * 2],
        x,
        grad_outputs=[torch.ones(2), torch.ones(2, 3)],
        is_grads_batched=True,
        retain_graph=True,
    )
)
w = torch.ones(2, requires_grad=True)
print(
    torch.autograd.grad(
        y,
        [x, w],
        grad_outputs=torch.eye(3),
        is_grads_batched=True,
        allow_unused=True,
        materialize_grads=True,
        retain_graph=True,
    )
)
(h,) = torch.autograd.grad(
    y, x, grad_outputs=torch.eye(3), is_grads_batched=True, create_graph=True
)
print(h)
print(torch.autograd.grad(h.sum(), x))
