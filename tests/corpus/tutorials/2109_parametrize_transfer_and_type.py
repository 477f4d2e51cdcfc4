# Copying a parametrization (a symmetric weight) from one layer to a fresh one: both then
# share the same original Parameter, so a step through either trains it.
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as parametrize

torch.manual_seed(3)


class Symmetric(nn.Module):
    def forward(self, w):
        return w.triu() + w.triu(1).transpose(0, 1)


teacher = nn.Linear(3, 3)
print(parametrize.type_before_parametrizations(teacher))
parametrize.register_parametrization(teacher, "weight", Symmetric())
print(type(teacher).__name__, parametrize.type_before_parametrizations(teacher))

student = nn.Linear(3, 3)
parametrize.transfer_parametrizations_and_params(teacher, student, "weight")
print(parametrize.is_parametrized(student), torch.equal(student.weight, teacher.weight))
shared = student.parametrizations.weight.original
print(shared is teacher.parametrizations.weight.original)

opt = torch.optim.SGD(student.parameters(), lr=0.1)
student(torch.ones(2, 3)).pow(2).sum().backward()
opt.step()
print(teacher.weight)
print(student.bias.grad)
