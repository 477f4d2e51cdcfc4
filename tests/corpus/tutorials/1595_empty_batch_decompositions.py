# Batched spectral analysis of covariance matrices: a filter may leave no matrices at all,
# and the decompositions must still return (empty) results of the right shapes.
import torch

torch.manual_seed(0)
samples = torch.randn(4, 10, 3)
covs = samples.mT @ samples / 9
keep = torch.linalg.det(covs) > 1e6          # nothing passes this threshold
selected = covs[keep]
print(selected.shape)

evals, evecs = torch.linalg.eigh(selected)
print(evals.shape, evecs.shape)
print(torch.linalg.eigvalsh(selected))
U, S, Vh = torch.linalg.svd(selected, full_matrices=False)
print(U.shape, S.shape, Vh.shape)
sign, logabs = torch.linalg.slogdet(selected)
print(sign, logabs)
Q, R = torch.linalg.qr(selected)
print(Q.shape, R.shape)

# the same pipeline on the matrices that do pass a sensible threshold
ok = covs[torch.linalg.det(covs) > 0.1]
w = torch.linalg.eigvalsh(ok)
print(ok.shape[0], w)
x = selected.clone().requires_grad_()
torch.linalg.eigvalsh(x).sum().backward()
print(x.grad.shape)
