# Calling a module's methods with the wrong arguments: PyTorch's methods are Python
# functions, so the errors are Python's own words, named by the class that defines them.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
attempts = {
    "get_parameter()": lambda: model.get_parameter(),
    "get_submodule(0, 1)": lambda: model.get_submodule("0", 1),
    "register_buffer('running')": lambda: model.register_buffer("running"),
    "load_state_dict()": lambda: model.load_state_dict(),
    "train(True, False)": lambda: model.train(True, False),
    "reset_parameters(1)": lambda: model[0].reset_parameters(1),
    "add_module('head')": lambda: model.add_module("head"),
    "zero_grad(True, 1)": lambda: model.zero_grad(True, 1),
    "to()": lambda: model.requires_grad_(True, False),
}
for what, call in attempts.items():
    try:
        call()
        print(what, "ran")
    except TypeError as err:
        print(f"{what:28s} TypeError: {err}")
print(model.get_parameter("2.bias").shape, model.get_submodule("0"))
