# Collecting per-batch predictions into one tensor, starting from an empty torch.Tensor().
import torch

torch.manual_seed(7)
w = torch.tensor([0.5, -1.0], requires_grad=True)
data = torch.arange(12.0).reshape(6, 2) / 6

preds = torch.Tensor()
grads = torch.FloatTensor()
print("start:", preds, preds.shape, grads.dtype)
for batch in data.split(2):
    out = torch.sigmoid(batch @ w)
    out.sum().backward()
    preds = torch.cat((preds, out.detach()))
    grads = torch.cat([grads, w.grad.clone().unsqueeze(0)])
    w.grad.zero_()

print("predictions:", preds)
print("gradients per batch:")
print(grads)
print("empty double:", torch.DoubleTensor(), "empty long:", torch.LongTensor())
