# Connectionist temporal classification: aligning a sequence of frame-wise
# predictions with a shorter label sequence, as in speech recognition.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

T = 12  # input sequence length (frames)
C = 6  # number of classes, including the blank at index 0
N = 3  # batch size
S = 5  # longest target length

# frame-wise scores from some acoustic model
logits = torch.randn(T, N, C, requires_grad=True)
log_probs = logits.log_softmax(dim=2)

# padded targets: labels 1..C-1 (0 is the blank)
targets = torch.randint(1, C, (N, S), dtype=torch.long)
input_lengths = torch.full((N,), T, dtype=torch.long)
target_lengths = torch.tensor([5, 3, 4])

ctc_loss = nn.CTCLoss()
print(ctc_loss)
loss = ctc_loss(log_probs, targets, input_lengths, target_lengths)
print("loss:", loss)
loss.backward()
print("grad shape:", logits.grad.shape)
print("grad of the first frame:\n", logits.grad[0])
print(f"grad sums to {logits.grad.sum().item():.4f} over each frame's classes")

# per-sequence losses, summed, with shorter inputs
per_seq = F.ctc_loss(log_probs, targets, [12, 10, 8], [5, 3, 4], reduction="none")
print("per sequence:", per_seq)
print(per_seq.grad_fn.name())
print(F.ctc_loss(log_probs, targets, [12, 10, 8], [5, 3, 4], reduction="sum"))

# targets concatenated into one 1-D tensor
flat = torch.cat([targets[0, :5], targets[1, :3], targets[2, :4]])
print(F.ctc_loss(log_probs, flat, (12, 12, 12), (5, 3, 4)))

# an impossible alignment: the target needs more frames than the input has
short = F.ctc_loss(log_probs, targets, [2, 12, 12], [5, 3, 4], reduction="none")
print("impossible:", short)
safe = nn.CTCLoss(zero_infinity=True)
print(safe(log_probs, targets, [2, 12, 12], [5, 3, 4]))

# one unbatched sequence in float64, blank at the last class
lp = torch.randn(8, 4, dtype=torch.double).log_softmax(1).requires_grad_()
one = F.ctc_loss(lp, torch.tensor([1, 2, 2]), (8,), (3,), blank=3)
one.backward()
print(one)
print(lp.grad)

try:
    F.ctc_loss(log_probs, targets, [13, 12, 12], [5, 3, 4])
except RuntimeError as e:
    print("RuntimeError:", e)
