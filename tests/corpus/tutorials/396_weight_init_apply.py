# Weight initialisation through model.apply: xavier_uniform_, kaiming_normal_, zeros_,
# constant_; isinstance checks; the statistics of the initialised weights.
import torch
import torch.nn as nn

torch.manual_seed(0)


def init_weights(m):
    if isinstance(m, nn.Linear):
        torch.nn.init.xavier_uniform_(m.weight)
        m.bias.data.fill_(0.01)


model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
model.apply(init_weights)
print(model[0].bias[:4])
print(f"{model[0].weight.abs().max().item():.4f} <= {(6 / (8 + 16)) ** 0.5:.4f}")


def kaiming(m):
    if isinstance(m, nn.Linear):
        nn.init.kaiming_normal_(m.weight, mode="fan_in", nonlinearity="relu")
        nn.init.zeros_(m.bias)


model.apply(kaiming)
print(f"{model[2].weight.std().item():.4f}", model[2].bias)
nn.init.constant_(model[2].weight, 0.5)
print(model[2].weight[0])
with torch.no_grad():
    model[0].weight.normal_(0.0, 0.02)
print(f"{model[0].weight.mean().item():.5f}")
print(nn.init.calculate_gain("relu"), nn.init.calculate_gain("tanh"))
