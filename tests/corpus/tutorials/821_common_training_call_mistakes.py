# Common mistakes when wiring up a training step, and the TypeError each one raises.
# A forum answer style walkthrough: run the broken line, print the error, fix it.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(4, 3)
y = torch.randn(4, 1)


class Regressor(nn.Module):
    def __init__(self, n_in, n_out=1):
        super().__init__()
        self.body = nn.Linear(n_in, n_out)

    def forward(self, x):
        return self.body(x)


def attempt(what, step):
    try:
        out = step()
        print(f"{what}: ok ->", out)
    except TypeError as err:
        print(f"{what}: {err}")


model = Regressor(3)
loss_fn = nn.MSELoss()

attempt("loss without target", lambda: loss_fn(model(x)))
attempt("loss with target", lambda: round(loss_fn(model(x), y).item(), 4))
attempt("model given two inputs", lambda: model(x, y))
attempt("model without input", lambda: model())
attempt("constructor without size", lambda: Regressor())
attempt("constructor with a typo", lambda: Regressor(3, n_outs=2))
attempt("optimizer without params", lambda: torch.optim.Adam(lr=0.1))
attempt("optimizer with a typo", lambda: torch.optim.SGD(model.parameters(), lr=0.1, momentun=0.9))
attempt("F.mse_loss keyword", lambda: round(F.mse_loss(input=model(x), target=y).item(), 4))
attempt("F.mse_loss typo", lambda: F.mse_loss(model(x), targets=y))
attempt("tanh module twice", lambda: nn.Tanh()(x, x))
attempt("linear layer", lambda: nn.Linear(3))
attempt("unsqueeze a float", lambda: x.unsqueeze(1.0))
attempt("softmax without dim", lambda: torch.softmax(x))
attempt("mean of a list", lambda: torch.mean([1.0, 2.0]))
attempt("grad without inputs", lambda: torch.autograd.grad(loss_fn(model(x), y)))

opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(3):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
