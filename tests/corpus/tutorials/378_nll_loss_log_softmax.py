# nn.NLLLoss after nn.LogSoftmax(dim=1), as the NLLLoss docs pair them; class weights and
# ignore_index; the equality with CrossEntropyLoss on the raw scores.
import torch
import torch.nn as nn

torch.manual_seed(2)
m = nn.LogSoftmax(dim=1)
loss = nn.NLLLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.tensor([1, 0, 4])
output = loss(m(input), target)
output.backward()
print(output)
print(input.grad)
print(torch.allclose(output, nn.CrossEntropyLoss()(input, target)))

weights = torch.tensor([1.0, 1.0, 2.0, 1.0, 0.5])
print(nn.NLLLoss(weight=weights)(m(input), target))
print(nn.NLLLoss(ignore_index=0)(m(input), target))
print(nn.NLLLoss(reduction="none")(m(input), target))
log_probs = m(input)
print(log_probs.exp().sum(dim=1))
print(-log_probs[range(3), target].mean())
