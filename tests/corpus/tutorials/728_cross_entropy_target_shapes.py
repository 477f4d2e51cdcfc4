# Which targets does cross_entropy accept? Class indices (int64, one per sample), class
# probabilities (floats shaped as the input), and what PyTorch says about everything else.
import torch
import torch.nn.functional as F

logits = torch.tensor([[0.5, 1.0, -1.0], [2.0, -1.0, 0.25]])
single = torch.tensor([0.5, 1.0, -1.0])

print("indices:", F.cross_entropy(logits, torch.tensor([1, 0])))
print("unbatched index:", F.cross_entropy(single, torch.tensor(2)))
print("one-item index:", F.cross_entropy(single, torch.tensor([2])))
probs = torch.tensor([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]])
print("probabilities:", F.cross_entropy(logits, probs))
print("per sample:", F.cross_entropy(logits, probs, reduction="none"))
print("smoothed:", F.cross_entropy(logits, probs, label_smoothing=0.1))
print("unbatched probabilities:", F.cross_entropy(single, torch.tensor([0.1, 0.1, 0.8])))

attempts = {
    "scalar logit, scalar float": (torch.tensor(0.5), torch.tensor(0.3)),
    "scalar logit, scalar index": (torch.tensor(0.5), torch.tensor(0)),
    "scalar logit, index list": (torch.tensor(0.5), torch.tensor([0])),
    "float indices": (logits, torch.tensor([1.0, 0.0])),
    "int32 indices": (logits, torch.tensor([1, 0], dtype=torch.int32)),
    "bool indices": (logits, torch.tensor([True, False])),
    "wrong batch": (logits, torch.tensor([1, 0, 2])),
    "scalar index for a batch": (logits, torch.tensor(1)),
    "probabilities of the wrong shape": (logits, torch.tensor([[0.5, 0.5, 0.0]])),
    "index matrix": (logits, torch.tensor([[1], [0]])),
    "index out of range": (logits, torch.tensor([1, 3])),
    "two indices for one sample": (single, torch.tensor([1, 0])),
    "float index for one sample": (single, torch.tensor(1.0)),
    "integer probabilities": (logits, torch.tensor([[0, 1, 0], [1, 0, 0]])),
}
for name, (inp, target) in attempts.items():
    try:
        print(f"{name}: {F.cross_entropy(inp, target)}")
    except (RuntimeError, ValueError, IndexError) as e:
        print(f"{name}: {type(e).__name__}: {e}")

log_probs = F.log_softmax(logits, dim=1)
print("nll:", F.nll_loss(log_probs, torch.tensor([2, 1])))
print("nll unbatched:", F.nll_loss(log_probs[0], torch.tensor(1)))
for name, (inp, target) in {
    "nll of a scalar": (torch.tensor(-0.5), torch.tensor(0)),
    "nll float target": (log_probs, torch.tensor([2.0, 1.0])),
    "nll probability target": (log_probs, probs),
    "nll scalar target for a batch": (log_probs, torch.tensor(1)),
}.items():
    try:
        print(f"{name}: {F.nll_loss(inp, target)}")
    except (RuntimeError, ValueError, IndexError) as e:
        print(f"{name}: {type(e).__name__}: {e}")

loss_fn = torch.nn.CrossEntropyLoss()
try:
    loss_fn(torch.tensor(2.0), torch.tensor(1.0))
except IndexError as e:
    print("module:", e)
w = logits.clone().requires_grad_(True)
loss = F.cross_entropy(w, probs)
loss.backward()
print(w.grad)
