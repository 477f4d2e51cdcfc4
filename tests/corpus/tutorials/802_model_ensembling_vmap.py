# Model ensembling with torch.func, after the PyTorch tutorial: stack the
# parameters of several copies of a small MLP, run them all at once with vmap
# over functional_call, on the same minibatch and on one minibatch per model,
# and check against running each model. The base model is a deep copy moved to
# the 'meta' device: it only lends functional_call its structure.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, stack_module_state, vmap

torch.manual_seed(0)


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 16)
        self.fc2 = nn.Linear(16, 8)
        self.fc3 = nn.Linear(8, 3)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


num_models = 4
models = [SimpleMLP() for _ in range(num_models)]
data = torch.randn(num_models, 5, 6)
targets = torch.randint(0, 3, (5,))
minibatch = data[0]

predictions_diff_minibatch = [model(data[i]) for i, model in enumerate(models)]
predictions_same_minibatch = [model(minibatch) for model in models]

params, buffers = stack_module_state(models)
print(list(params.keys()), buffers)
print(params["fc1.weight"].shape, params["fc1.weight"].is_leaf, params["fc1.weight"].requires_grad)

base_model = copy.deepcopy(models[0])
base_model = base_model.to("meta")
print(base_model)


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


out_diff = vmap(fmodel)(params, buffers, data)
out_same = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(out_diff.shape, out_same.shape)
print(torch.allclose(out_diff, torch.stack(predictions_diff_minibatch), atol=1e-6))
print(torch.allclose(out_same, torch.stack(predictions_same_minibatch), atol=1e-6))
print(out_same[1, :2])

# One optimizer step on the stacked parameters: every model trains at once.
opt = torch.optim.SGD(params.values(), lr=0.1)
loss = sum(F.cross_entropy(out_same[i], targets) for i in range(num_models))
loss.backward()
print(round(loss.item(), 4), params["fc3.bias"].grad)
opt.step()
after = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(torch.allclose(after, out_same), after[1, :2])
