# Ranking predictions with NumPy: argsort gives ascending order, [::-1] reads it backwards.
# A backwards view cannot become a tensor by sharing (PyTorch refuses negative strides);
# .copy() first, or reverse the tensor with flip.
import numpy as np
import torch

torch.manual_seed(11)
logits = torch.randn(6, requires_grad=True)
probs = torch.softmax(logits, dim=0)
scores = probs.detach().numpy()

best_first = np.argsort(scores)[::-1]
print(best_first, scores[best_first[:2]].round(4))

grid = np.arange(12).reshape(3, 4)
print(grid[::-1, ::2])
print(grid[1, ::-3], grid[..., ::-1][2])

view = scores[::-1]
for make in (torch.from_numpy, torch.tensor, torch.as_tensor, torch.FloatTensor):
    try:
        make(view)
    except ValueError as e:
        print(make.__name__, "ValueError:", str(e)[:55])

top = torch.from_numpy(view.copy())
print(torch.equal(top, probs.detach().flip(0)))

loss = -(probs[torch.from_numpy(best_first[:3].copy())]).log().sum()
loss.backward()
print(loss.item())
print(logits.grad)
