import torch
import torch.nn as nn

torch.manual_seed(1)

model = nn.Sequential(
    nn.Linear(4, 6),
    nn.ReLU(),
    nn.Linear(6, 3),
    nn.Softmax(dim=1),
)

activation = {}


def get_activation(name):
    def hook(model, input, output):
        activation[name] = output.detach()

    return hook


h0 = model[0].register_forward_hook(get_activation("fc1"))
h2 = model[2].register_forward_hook(get_activation("fc2"))
x = torch.randn(2, 4)
output = model(x)
print(sorted(activation))
print(activation["fc1"])
print(activation["fc2"].shape, activation["fc2"].requires_grad)
print(output.sum(dim=1))


def show_input(module, inputs):
    print("pre-hook on", type(module).__name__, "with", len(inputs), "input(s) of shape", inputs[0].shape)


p = model[1].register_forward_pre_hook(show_input)
model(x)
h0.remove()
h2.remove()
p.remove()
activation.clear()
model(x)
print(activation)
