# nn.CrossEntropyLoss as its docs show it: class-index targets, class-probability targets,
# label smoothing, per-class weights, reduction='none'; gradients of the logits.
import torch
import torch.nn as nn

torch.manual_seed(0)
loss = nn.CrossEntropyLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.empty(3, dtype=torch.long).random_(5)
print(target)
output = loss(input, target)
output.backward()
print(output)
print(input.grad)

input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5).softmax(dim=1)
output = loss(input, target)
output.backward()
print(output)
print(input.grad)

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]])
labels = torch.tensor([0, 2])
print(nn.CrossEntropyLoss(label_smoothing=0.1)(logits, labels))
print(nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5]))(logits, labels))
print(nn.CrossEntropyLoss(reduction="none")(logits, labels))
print(nn.CrossEntropyLoss(reduction="sum")(logits, labels))
print(nn.CrossEntropyLoss(ignore_index=2)(logits, labels))
