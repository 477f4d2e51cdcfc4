# The curvature of a small classifier's loss: the Hessian of cross-entropy with respect to
# the logits and to a weight matrix, with torch.func.hessian (forward-over-reverse). Its outer
# jacfwd runs forward mode through softmax and log_softmax and through their backward; the
# digits printed here are PyTorch's own rounding of those forward formulas.
import torch
import torch.nn.functional as F
from torch.func import hessian, jacfwd, jvp

torch.set_printoptions(precision=8)

logits = torch.tensor([[1.5, -0.25, 0.5], [0.1, 0.2, -1.3]])
labels = torch.tensor([0, 2])

H = hessian(lambda z: F.cross_entropy(z, labels))(logits)
print("d2 loss / d z0 d z0:")
print(H[0, :, 0, :])
print("the Hessian of the second sample:")
print(H[1, :, 1, :])

features = torch.tensor([[0.3, -1.2], [2.0, 0.4]])
W = torch.tensor([[0.5, -0.5, 1.0], [0.25, 0.75, -1.5]])
HW = hessian(lambda w: F.cross_entropy(features @ w, labels))(W)
print("curvature along W[0, 1]:")
print(HW[0, 1])

# softmax's forward mode on its own: how the probabilities move when the logits move
probs, moved = jvp(lambda z: F.softmax(z, dim=1), (logits,), (torch.ones_like(logits),))
print("a shift of every logit leaves the probabilities:", moved)
direction = torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.0]])
print("along another direction:", jvp(lambda z: F.softmax(z, dim=1), (logits,), (direction,))[1])
print("log-probabilities:", jvp(lambda z: F.log_softmax(z, dim=1), (logits,), (direction,))[1])

# the Jacobian of softmax over one row, forward mode
print(jacfwd(lambda z: F.softmax(z, dim=0))(logits[0]))
