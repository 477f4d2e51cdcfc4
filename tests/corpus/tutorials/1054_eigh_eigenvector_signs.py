# Principal axes of a few covariance matrices with torch.linalg.eigh: eigenvalues ascending,
# eigenvectors as columns (their signs are whatever LAPACK returns), and a PCA projection.
import torch

torch.manual_seed(3)
torch.set_printoptions(precision=4)

# a 3 x 3 covariance of correlated features
X = torch.randn(50, 3) @ torch.tensor([[2.0, 0.3, 0.0], [0.0, 1.0, 0.5], [0.0, 0.0, 0.3]])
C = torch.cov(X.T)
L, V = torch.linalg.eigh(C)
print("eigenvalues:", L)
print("eigenvectors:\n", V)
print("top component:", V[:, -1])
Z = (X - X.mean(0)) @ V[:, -2:]
print("projected rows:", Z[:3])

# a symmetric 4 x 4 in double precision, both triangles
S = torch.tensor(
    [[4.0, 1.0, -2.0, 0.5], [1.0, 3.0, 0.0, 1.0], [-2.0, 0.0, 5.0, -1.0], [0.5, 1.0, -1.0, 2.0]],
    dtype=torch.float64,
)
w, Q = torch.linalg.eigh(S)
print(w)
print(Q)
print(torch.linalg.eigh(S, UPLO="U").eigenvectors[0])

# a graph Laplacian (path of 6 nodes): the Fiedler vector
A = torch.diag(torch.ones(5), 1) + torch.diag(torch.ones(5), -1)
Lap = torch.diag(A.sum(1)) - A
vals, vecs = torch.linalg.eigh(Lap)
print("nonzero spectrum:", vals[1:])
print("Fiedler vector:", vecs[:, 1])

# a batch of random symmetric 5 x 5 matrices
B = torch.randn(3, 5, 5)
B = (B + B.mT) / 2
print("first column of each:", torch.linalg.eigh(B).eigenvectors[..., 0])
