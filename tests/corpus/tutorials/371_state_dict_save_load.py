# Printing a model's and an optimizer's state_dict (as the saving-and-loading recipe does),
# then load_state_dict into a fresh model: the same outputs.
import torch
import torch.nn as nn
import torch.optim as optim


class TheModelClass(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 6)
        self.fc2 = nn.Linear(6, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


torch.manual_seed(0)
model = TheModelClass()
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)

print("Model's state_dict:")
for param_tensor in model.state_dict():
    print(param_tensor, "\t", model.state_dict()[param_tensor].size())

print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])

x = torch.randn(2, 4)
other = TheModelClass()
print(torch.equal(model(x), other(x)))
result = other.load_state_dict(model.state_dict())
print(result)
print(torch.equal(model(x), other(x)))
sd = model.state_dict()
print(list(sd.keys()))
print(sd["fc2.bias"])
print(sd["fc1.weight"].requires_grad, model.fc1.weight.requires_grad)
