# Helper code from a training library: it inspects the classes it is given (custom autograd
# Functions, nn.Module subclasses) before using them, and names them in its log lines.
import torch
import torch.nn as nn


class ScaleGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.scale, None


class ReverseGrad(ScaleGrad):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = -scale
        return x.view_as(x)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.act = nn.Tanh()

    def forward(self, x):
        return self.act(self.fc(x))


class WideEncoder(Encoder):
    pass


def apply_op(op, x, scale):
    if not issubclass(op, torch.autograd.Function):
        raise TypeError(f"{op.__name__} is not an autograd Function")
    print(f"applying {op.__name__} (a ScaleGrad: {issubclass(op, ScaleGrad)})")
    return op.apply(x, scale)


def describe(model):
    kinds = [type(m).__name__ for m in model.modules()]
    print(f"{model.__class__.__name__}: {kinds}")
    print(isinstance(model, Encoder), isinstance(model, nn.Module), type(model) is WideEncoder)


torch.manual_seed(0)
x = torch.randn(4, 3, requires_grad=True)
model = WideEncoder()
describe(model)
print(
    issubclass(WideEncoder, nn.Module),
    issubclass(WideEncoder, Encoder),
    issubclass(Encoder, WideEncoder),
    issubclass(nn.Linear, nn.Module),
)
print(
    issubclass(ScaleGrad, nn.Module),
    issubclass(Encoder, torch.autograd.Function),
    issubclass(ReverseGrad, (nn.Module, ScaleGrad)),
)
print(isinstance(ScaleGrad, torch.autograd.Function))

for op in (ScaleGrad, ReverseGrad):
    x.grad = None
    out = apply_op(op, model(x), 0.5).sum()
    out.backward()
    print(x.grad)

for bad in (Encoder,):
    try:
        apply_op(bad, x, 1.0)
    except TypeError as e:
        print("TypeError:", e)
