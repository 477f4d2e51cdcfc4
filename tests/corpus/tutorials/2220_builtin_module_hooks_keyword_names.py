# Keyword-argument hooks on torch.nn's own layers: a layer called as `layer(input=x)` shows
# its hooks the keyword under PyTorch's forward's name (`input`, `target`), and a pre-hook
# may hand a new `input=` back. Logging the inputs of each layer by name, as debugging
# write-ups do.
import torch
import torch.nn as nn

torch.manual_seed(0)
seen = []


def log_inputs(module, args, kwargs):
    seen.append((type(module).__name__, len(args), sorted(kwargs)))


def halve_input(module, args, kwargs):
    if "input" in kwargs:
        return args, {"input": kwargs["input"] / 2}
    return None


def show_output(module, args, kwargs, output):
    print(type(module).__name__, "keywords:", sorted(kwargs), "->", tuple(output.shape))


layers = [nn.Linear(3, 2), nn.ReLU(), nn.LayerNorm(3), nn.Embedding(5, 2), nn.Flatten()]
for layer in layers:
    layer.register_forward_pre_hook(log_inputs, with_kwargs=True)
    layer.register_forward_hook(show_output, with_kwargs=True)

x = torch.randn(2, 3)
layers[0](input=x)
layers[1](input=x)
layers[2](x)
layers[3](input=torch.tensor([1, 4]))
layers[4](input=x.reshape(2, 3, 1))
print(seen)

loss_fn = nn.MSELoss()
loss_fn.register_forward_hook(show_output, with_kwargs=True)
loss = loss_fn(input=torch.zeros(2), target=torch.ones(2))
print(loss.item())

lin = nn.Linear(3, 1)
lin.register_forward_pre_hook(halve_input, with_kwargs=True)
x = torch.ones(1, 3, requires_grad=True)
out = lin(input=x)
out.sum().backward()
print(torch.allclose(x.grad, lin.weight / 2))
print(torch.allclose(out, (x / 2) @ lin.weight.T + lin.bias))

try:
    lin(inp=x)
except TypeError as e:
    print("TypeError:", e)
