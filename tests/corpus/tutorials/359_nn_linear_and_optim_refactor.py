# Refactoring with nn.Linear and optim: get_model returns the model and its optimizer;
# the loop is opt.step(); opt.zero_grad().
import torch
import torch.nn.functional as F
from torch import nn, optim

torch.manual_seed(11)
x_train = torch.randn(40, 4)
y_train = (x_train[:, 0] + x_train[:, 1] > 0).long() + (x_train[:, 2] > 1).long()


class Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 3)

    def forward(self, xb):
        return self.lin(xb)


lr = 0.2


def get_model():
    model = Logistic()
    return model, optim.SGD(model.parameters(), lr=lr)


model, opt = get_model()
loss_func = F.cross_entropy
print(model)
print(opt.param_groups[0]["lr"], len(opt.param_groups[0]["params"]))
bs = 8
for epoch in range(5):
    for i in range((len(x_train) - 1) // bs + 1):
        start_i = i * bs
        xb = x_train[start_i : start_i + bs]
        yb = y_train[start_i : start_i + bs]
        loss = loss_func(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    print(f"epoch {epoch}: {loss_func(model(x_train), y_train).item():.5f}")
print(model.lin.weight.grad)
