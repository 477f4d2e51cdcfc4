# Keeping a copy of the weights before an inner loop (MAML-style): deepcopy of the
# parameters() generator fails in Python's words; a list of them, or the state_dict, works.
import copy

import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
try:
    saved = copy.deepcopy(model.parameters())
except TypeError as err:
    print("TypeError:", err)
try:
    copy.copy(p.detach() for p in model.parameters())
except TypeError as err:
    print("TypeError:", err)

saved = copy.deepcopy(list(model.parameters()))
snapshot = copy.deepcopy(model.state_dict())
opt = torch.optim.SGD(model.parameters(), lr=0.5)
model(torch.ones(4, 3)).pow(2).mean().backward()
opt.step()
print([torch.equal(a, b) for a, b in zip(saved, model.parameters())])
model.load_state_dict(snapshot)
print(torch.equal(model.weight, saved[0]), saved[0].requires_grad, saved[0].grad)
