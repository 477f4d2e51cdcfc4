# Gradients of real losses through complex decompositions (eig, eigh, svd, qr, cholesky,
# slogdet, pinv, lstsq), each a function of the matrix that does not depend on the
# eigenvectors' or singular vectors' phases. Printed to 6 decimals (the last bits of LAPACK's
# values are rounding noise).
import torch


def show(name, t):
    re = torch.round(t.real * 1e6) / 1e6 + 0.0
    im = torch.round(t.imag * 1e6) / 1e6 + 0.0
    print(name, re.tolist(), im.tolist())


A = torch.tensor(
    [
        [1.0 + 0.5j, 0.3 - 0.2j, -0.4j],
        [0.2 + 0.1j, 2.0 - 0.3j, 0.5],
        [-0.3, 0.1 + 0.4j, 1.5 + 0.2j],
    ],
    dtype=torch.complex128,
    requires_grad=True,
)

L, V = torch.linalg.eig(A)
(L.abs().sum() + (V.abs() ** 2)[0].sum()).backward()
show("eig", A.grad)
A.grad = None

torch.linalg.eigvals(A).real.sum().backward()
show("eigvals", A.grad)
A.grad = None

H = A @ A.mH
w, Q = torch.linalg.eigh(H)
(w[-1] + (Q.abs() ** 4).sum()).backward()
show("eigh", A.grad)
A.grad = None

U, S, Vh = torch.linalg.svd(A[:, :2])
(S.sum() + (U[:, :1] @ Vh[:1, :]).real.sum()).backward()
show("svd", A.grad)
A.grad = None

Qr, R = torch.linalg.qr(A)
(R.diagonal().real.sum() + Qr.abs().sum()).backward()
show("qr", A.grad)
A.grad = None

H = A @ A.mH
C = torch.linalg.cholesky(H + torch.eye(3))
(C.abs() ** 2).sum().backward()
show("cholesky", A.grad)
A.grad = None

sign, logabsdet = torch.linalg.slogdet(A)
(logabsdet + sign.angle()).backward()
show("slogdet", A.grad)
A.grad = None

P = torch.linalg.pinv(A[:, :2])
b = torch.tensor([[1.0 + 0j], [0.5j], [-1.0 + 0.25j]], dtype=torch.complex128)
x = torch.linalg.lstsq(A[:, :2], b).solution
((P.abs() ** 2).sum() + x.abs().sum()).backward()
show("pinv+lstsq", A.grad)

try:
    torch.linalg.eigh(A @ A.mH)[1][0, 1].imag.backward()
except RuntimeError as e:
    print(e)
