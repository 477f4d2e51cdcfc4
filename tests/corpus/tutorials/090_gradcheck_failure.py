import torch


class BadSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return grad_output * x  # wrong: should be 2 * x


x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
ok = torch.autograd.gradcheck(BadSquare.apply, (x,), raise_exception=False)
print("gradcheck passed:", ok)

try:
    torch.autograd.gradcheck(BadSquare.apply, (x,))
except RuntimeError as e:
    print(str(e).splitlines()[0])

x32 = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    torch.autograd.gradcheck(torch.sin, (x32,))
except Exception as e:
    print(type(e).__name__)
