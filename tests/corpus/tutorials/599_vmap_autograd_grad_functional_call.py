# torch.vmap over torch.autograd.grad (the docs' batched vector-Jacobian products), and
# per-sample gradients with torch.func.functional_call
import torch
from torch.func import functional_call, grad, vmap

torch.manual_seed(0)
N = 5
f = lambda x: x ** 2
x = torch.randn(N, requires_grad=True)
y = f(x)
I_N = torch.eye(N)

# Sequential approach
jacobian_rows = [torch.autograd.grad(y, x, v, retain_graph=True)[0] for v in I_N.unbind()]
jacobian = torch.stack(jacobian_rows)
print(jacobian)


# vectorized gradient computation
def get_vjp(v):
    return torch.autograd.grad(y, x, v)


jacobian2 = torch.vmap(get_vjp)(I_N)
print(jacobian2)
print(torch.equal(jacobian, jacobian2[0]))
try:
    torch.autograd.grad(y, x, torch.ones(N))
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])

model = torch.nn.Linear(3, 2)
params = {k: v.detach() for k, v in model.named_parameters()}
data = torch.randn(4, 3)
targets = torch.randn(4, 2)


def compute_loss(params, sample, target):
    prediction = functional_call(model, params, (sample.unsqueeze(0),))
    return torch.nn.functional.mse_loss(prediction, target.unsqueeze(0))


per_sample = vmap(grad(compute_loss), in_dims=(None, 0, 0))(params, data, targets)
for k, g in per_sample.items():
    print(k, g.shape)
    print(g)
print(torch.allclose(per_sample["bias"].mean(0), torch.func.grad(lambda p: sum(compute_loss(p, data[i], targets[i]) for i in range(4)) / 4)(params)["bias"]))

w = model.weight.detach().clone().requires_grad_()
out = functional_call(model, {"weight": w, "bias": params["bias"]}, (data,))
print(out.grad_fn.name(), [f[0].name() if f[0] is not None else None for f in out.grad_fn.next_functions])
