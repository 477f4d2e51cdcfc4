# A small typed training helper as written with typing_extensions' names (the backport many
# codebases import from): the hints are never checked; assert_type gives its value back.
import torch
from torch import Tensor, nn
from typing_extensions import Optional, Tuple, assert_type


def step(model: nn.Module, x: Tensor, y: Tensor, opt: Optional[torch.optim.Optimizer] = None) -> Tuple[float, Tensor]:
    loss = nn.functional.mse_loss(model(x), y)
    if opt is not None:
        opt.zero_grad()
        loss.backward()
        opt.step()
    return assert_type(loss.item(), float), assert_type(model.weight.grad, Tensor)


torch.manual_seed(7)
m = nn.Linear(3, 1)
sgd = torch.optim.SGD(m.parameters(), lr=0.1)
x = torch.randn(16, 3)
y = x @ torch.tensor([[1.0], [-1.0], [0.5]])
for i in range(3):
    l, g = step(m, x, y, sgd)
    print(i, round(l, 5), g)
print(Optional[Tensor], Tuple[int, ...])
