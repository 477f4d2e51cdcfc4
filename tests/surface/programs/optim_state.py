# optimizer.state: keyed by parameter, {} before a step, PyTorch's defaultdict repr.
import torch

w = torch.tensor([1.0, -2.0], requires_grad=True)
v = torch.tensor([0.5], requires_grad=True)
opt = torch.optim.SGD([w, v], lr=0.1, momentum=0.9)
print(opt.state[w])
(w * w).sum().backward()
opt.step()
print(opt.state[w]["momentum_buffer"])
print(opt.state[v])
adam = torch.optim.Adam([w], lr=0.1)
(w * w).sum().backward()
adam.step()
print(adam.state[w]["step"], adam.state[w]["exp_avg"])
print(adam.state)
