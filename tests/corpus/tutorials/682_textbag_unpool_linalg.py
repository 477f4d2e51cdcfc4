# A bag-of-words text classifier (EmbeddingBag with offsets, as in the text classification
# tutorial), a pool/unpool pair from a segmentation net, a multi-label margin loss, and the
# linear-algebra helpers a numerics notebook reaches for.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)


class TextClassifier(nn.Module):
    def __init__(self, vocab, dim, classes):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab, dim)
        self.fc = nn.Linear(dim, classes)

    def forward(self, text, offsets):
        return self.fc(self.embedding(text, offsets))


model = TextClassifier(10, 4, 3)
print(model)
text = torch.tensor([1, 4, 2, 9, 3, 3, 7, 0, 5])
offsets = torch.tensor([0, 4, 6])
labels = torch.tensor([2, 0, 1])
logits = model(text, offsets)
loss = F.cross_entropy(logits, labels)
loss.backward()
print(logits, loss)
print(model.embedding.weight.grad)

bag = nn.EmbeddingBag(10, 3, mode='sum', padding_idx=0)
print(bag, bag(torch.tensor([[1, 0, 2], [3, 3, 0]]), per_sample_weights=torch.tensor([[0.5, 1.0, 2.0], [1.0, -1.0, 3.0]])))
print(F.embedding_bag(text, bag.weight, offsets, mode='max'))

pool = nn.MaxPool2d(2, stride=2, return_indices=True)
unpool = nn.MaxUnpool2d(2, stride=2)
img = torch.randn(1, 2, 4, 6, requires_grad=True)
pooled, idx = pool(img)
restored = unpool(pooled, idx)
print(unpool, restored[0, 1], idx[0, 0])
restored.sum().backward()
print(img.grad[0, 0])
sig = torch.randn(1, 1, 7)
p1, i1 = F.max_pool1d(sig, 2, return_indices=True)
print(F.max_unpool1d(p1, i1, 2, output_size=sig.shape[-1:]))

scores = torch.randn(2, 4, requires_grad=True)
targets = torch.tensor([[3, 1, -1, 0], [0, -1, 2, 2]])
ml = nn.MultiLabelMarginLoss()
out = ml(scores, targets)
out.backward()
print(ml, out, scores.grad)

U = (torch.randn(3, 3).triu() + 3 * torch.eye(3)).requires_grad_()
b = torch.randn(3, 2)
x = torch.linalg.solve_triangular(U, b, upper=True)
print(x, torch.dist(U @ x, b) < 1e-5)
S = torch.randn(3, 3)
L = torch.linalg.cholesky(S @ S.T + torch.eye(3))
print(torch.cholesky_solve(b, L))
G = torch.randn(3, 3) * 0.3
print(torch.linalg.matrix_exp(G), torch.matrix_exp(torch.zeros(2, 2)))
A = torch.randn(5, 2)
y = torch.randn(5, 1)
sol = torch.linalg.lstsq(A, y)
print(sol.solution, sol.rank, sol.residuals.shape)
print(torch.histogram(torch.randn(200), bins=5))
data = torch.tensor([[1.0, float('nan'), 3.0, 4.0], [2.0, 2.5, float('nan'), float('nan')]])
print(torch.nanquantile(data, 0.5, dim=1), data.nanquantile(torch.tensor([0.1, 0.9]), dim=1))
