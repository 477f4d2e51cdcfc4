# A module's __dict__ and vars(module), as tutorials print them to explain where nn.Module
# keeps things: parameters, buffers and submodules live in their own tables, the plain
# attributes beside them.
import torch
import torch.nn as nn


class Regressor(nn.Module):
    def __init__(self, n_features, dropout=0.1):
        super().__init__()
        self.n_features = n_features
        self.dropout_p = dropout
        self.hidden = nn.Linear(n_features, 4)
        self.head = nn.Linear(4, 1)
        self.temperature = nn.Parameter(torch.tensor(1.0))
        self.register_buffer("seen", torch.zeros(()))

    def forward(self, x):
        self.seen += x.shape[0]
        return self.head(torch.relu(self.hidden(x))) / self.temperature


model = Regressor(3)
print(list(model.__dict__))
plain = {k: v for k, v in vars(model).items() if not k.startswith("_")}
print(plain)
print("hidden" in model.__dict__, "hidden" in model.__dict__["_modules"])
print(list(model.__dict__["_parameters"].keys()), list(model.__dict__["_buffers"].keys()))
print(model.__dict__["_non_persistent_buffers_set"], model.__dict__["_is_full_backward_hook"])
model.eval()
model.n_features = 5
print(model.__dict__["training"], model.__dict__["n_features"])
handle = model.register_forward_pre_hook(lambda mod, inputs: None)
print(len(model.__dict__["_forward_pre_hooks"]), len(model.__dict__["_forward_hooks"]))
handle.remove()
print(len(vars(model)["_forward_pre_hooks"]))
