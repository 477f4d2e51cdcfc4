# A hand-written optimizer that validates its hyper-parameters with the `numbers` module,
# as optimizers copied from papers' code do, then trains a small regression.
import numbers

import torch
from torch.optim import Optimizer

torch.manual_seed(11)


class SignSGD(Optimizer):
    def __init__(self, params, lr=0.01, momentum=0.0):
        if not isinstance(lr, numbers.Real) or lr <= 0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not isinstance(momentum, numbers.Number) or not 0.0 <= momentum < 1.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        super().__init__(params, dict(lr=lr, momentum=momentum))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                buf = state.get("buf")
                if buf is None:
                    buf = state["buf"] = torch.zeros_like(p)
                buf.mul_(group["momentum"]).add_(p.grad)
                p.add_(buf.sign(), alpha=-group["lr"])


w = torch.zeros(3, requires_grad=True)
x = torch.randn(20, 3)
y = x @ torch.tensor([1.5, -2.0, 0.5])
opt = SignSGD([w], lr=0.05, momentum=0.5)
for step in range(30):
    opt.zero_grad()
    loss = ((x @ w - y) ** 2).mean()
    loss.backward()
    opt.step()
print(w.detach())

for bad in [(-1.0, 0.0), (0.1, 1.5), (torch.tensor(0.1), 0.0), (0.1, "0.9")]:
    try:
        SignSGD([w], *bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
print(isinstance(2, numbers.Integral), isinstance(2.0, numbers.Integral))
print(isinstance(torch.tensor(3).item(), numbers.Integral), numbers.Real)
