# Mixins on nn.Module subclasses, as training code shares helpers between models.
import torch
import torch.nn as nn


class CountParamsMixin:
    def num_params(self, trainable_only=True):
        return sum(p.numel() for p in self.parameters() if p.requires_grad or not trainable_only)


class FreezeMixin:
    frozen_note = "frozen"

    def freeze(self):
        for p in self.parameters():
            p.requires_grad_(False)
        return self

    @property
    def is_frozen(self):
        return not any(p.requires_grad for p in self.parameters())


class GradNormMixin:
    def grad_norm(self):
        total = 0.0
        for p in self.parameters():
            if p.grad is not None:
                total += p.grad.pow(2).sum().item()
        return total ** 0.5


class MLP(CountParamsMixin, FreezeMixin, GradNormMixin, nn.Module):
    def __init__(self, d_in, d_hidden, d_out):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, d_hidden), nn.ReLU(), nn.Linear(d_hidden, d_out))

    def forward(self, x):
        return self.net(x)


torch.manual_seed(0)
model = MLP(3, 5, 2)
print(model)
print("parameters:", model.num_params())
print(isinstance(model, nn.Module), isinstance(model, FreezeMixin), isinstance(model, GradNormMixin))
print(isinstance(model, (CountParamsMixin, int)), type(model).__name__)

x = torch.randn(4, 3)
loss = model(x).pow(2).mean()
loss.backward()
print(f"grad norm {model.grad_norm():.4f}")

# a mixin's class attribute and property, through the instance
print(model.frozen_note, model.is_frozen)
FreezeMixin.freeze(model.net[0])
print(model.num_params(), model.num_params(trainable_only=False), model.is_frozen)
print(model.freeze() is model, model.is_frozen, model.num_params())
model.requires_grad_(True)


# a mixin whose method comes before nn.Module's: extra_repr and train
class VerboseMixin:
    def extra_repr(self):
        return "verbose=True"

    def train(self, mode=True):
        print("switching to", "train" if mode else "eval")
        return super().train(mode)


class Head(VerboseMixin, nn.Module):
    def __init__(self):
        super().__init__()
        self.out = nn.Linear(2, 1)


h = Head()
print(h)
h.eval()
print(h.training, h.out.training)
h.train()
print(h.training)


# the mixin after nn.Module: nn.Module's own methods come first
class LateMixin:
    def zero_grad(self):
        print("never called")

    def describe(self):
        return "late mixin"


class Late(nn.Module, LateMixin):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(2))


m = Late()
(m.w * 3).sum().backward()
print(m.w.grad)
m.zero_grad()
print(m.w.grad, m.describe())

# an optimizer over a mixed-in model
opt = torch.optim.SGD(model.parameters(), lr=0.1)
before = model.net[2].bias.clone()
opt.zero_grad()
model(x).sum().backward()
opt.step()
print(model.net[2].bias - before)
