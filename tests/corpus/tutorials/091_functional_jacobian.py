import torch
from torch.autograd.functional import jacobian


def exp_reducer(x):
    return x.exp().sum(dim=1)


inputs = torch.tensor([[0.0, 0.5], [1.0, -1.0]])
J = jacobian(exp_reducer, inputs)
print(J)
print(J.shape)


def f(x, y):
    return x * y + y ** 2, x.sin()


x = torch.tensor([1.0, 2.0])
y = torch.tensor([0.5, -0.5])
jac = jacobian(f, (x, y))
print(len(jac), len(jac[0]))
for i, row in enumerate(jac):
    for j, block in enumerate(row):
        print(f"d out{i} / d in{j}:\n{block}")

print(jacobian(lambda t: t ** 2, torch.tensor([1.0, 2.0, 3.0]), vectorize=True))
