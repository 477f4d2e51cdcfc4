import torch
import torch.nn.functional as F

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]], requires_grad=True)
target = torch.tensor([0, 2])
print(target.dtype)

loss = F.cross_entropy(logits, target)
print(loss)
loss.backward()
print(logits.grad)

# the gradient is (softmax - one_hot) / batch
probs = F.softmax(logits, dim=1)
one_hot = F.one_hot(target, num_classes=3).float()
print((probs - one_hot) / 2)
