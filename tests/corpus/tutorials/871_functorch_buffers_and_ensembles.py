# functorch's older ensembling recipe: make_functional_with_buffers and
# combine_state_for_ensemble, run with vmap.
import torch
import torch.nn as nn
import functorch

torch.manual_seed(1)

net = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.ReLU(), nn.Linear(3, 1))
fnet, params, buffers = functorch.make_functional_with_buffers(net)
print(fnet)
print(len(params), len(buffers))
for b in buffers:
    print(b)

x = torch.randn(6, 2)
out = fnet(params, buffers, x)
print(out.shape, out.grad_fn.name())
# the running statistics moved, in the functional model's buffers only
print(buffers[0])
print(net[1].running_mean)

# the gradient of a loss with respect to the parameters
def loss(params, buffers, x):
    return fnet(params, buffers, x).square().mean()


g = functorch.grad(loss)(params, buffers, x)
print([tuple(t.shape) for t in g])
print(g[-1])

# an ensemble of three small models, evaluated at once
models = [nn.Linear(2, 2) for _ in range(3)]
fmodel, eparams, ebuffers = functorch.combine_state_for_ensemble(models)
print(type(fmodel).__name__, len(eparams), ebuffers)
print(eparams[0].shape, eparams[0].requires_grad)
print(torch.equal(eparams[1][2], models[2].bias))

data = torch.randn(4, 2)
preds = functorch.vmap(fmodel, in_dims=(0, 0, None))(eparams, ebuffers, data)
print(preds.shape)
print(torch.allclose(preds[1], models[1](data)))

# each model its own minibatch
batches = torch.randn(3, 4, 2)
each = functorch.vmap(fmodel)(eparams, ebuffers, batches)
print(torch.allclose(each[0], models[0](batches[0])))

# the checks on the models, in PyTorch's words
for bad in ([], [nn.Linear(2, 2), nn.Tanh()]):
    try:
        functorch.combine_state_for_ensemble(bad)
    except RuntimeError as e:
        print(e)
m1, m2 = nn.Linear(1, 1), nn.Linear(1, 1)
m2.eval()
try:
    functorch.combine_state_for_ensemble([m1, m2])
except RuntimeError as e:
    print(e)
