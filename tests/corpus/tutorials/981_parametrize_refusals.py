# Parametrization errors and unsafe=True
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as parametrize


class Transposed(nn.Module):
    def forward(self, X):
        return X.t()


class Half(nn.Module):
    def forward(self, X):
        return X.half()


class NoInverse(nn.Module):
    def forward(self, X):
        return 2 * X


class Split(nn.Module):
    # the weight as the sum of two tensors
    def forward(self, A, B):
        return A + B

    def right_inverse(self, W):
        return W / 2, W / 2


torch.manual_seed(1)
m = nn.Linear(2, 3)
for p in (Transposed(), Half()):
    try:
        parametrize.register_parametrization(m, "weight", p)
    except ValueError as e:
        print("ValueError:", e)
try:
    parametrize.register_parametrization(m, "kernel", NoInverse())
except ValueError as e:
    print("ValueError:", e)
try:
    parametrize.remove_parametrizations(m, "weight")
except ValueError as e:
    print("ValueError:", e)

parametrize.register_parametrization(m, "weight", Transposed(), unsafe=True)
print(m.weight.shape)
print(m.parametrizations.weight.unsafe)

m2 = nn.Linear(2, 2)
parametrize.register_parametrization(m2, "weight", NoInverse())
try:
    m2.weight = torch.zeros(2, 2)
except RuntimeError as e:
    print("RuntimeError:", e)

m3 = nn.Linear(2, 2)
w = m3.weight.detach().clone()
parametrize.register_parametrization(m3, "weight", Split())
print(m3)
print(sorted(n for n, _ in m3.named_parameters()))
print(torch.allclose(m3.weight, w))
print(m3.parametrizations.weight.original0)
try:
    parametrize.remove_parametrizations(m3, "weight", leave_parametrized=False)
except ValueError as e:
    print("ValueError:", e)
parametrize.remove_parametrizations(m3, "weight")
print(m3.weight)
