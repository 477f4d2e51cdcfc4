# Collecting predictions with NumPy: argmax gives NumPy integers, and NumPy 2 shows them
# as np.int64(...) inside lists, tuples and dicts (print() of one alone shows the number).
import numpy as np
import torch

torch.manual_seed(0)
logits = torch.randn(5, 3)
probs = torch.softmax(logits, dim=1).numpy()

preds = [np.argmax(p) for p in probs]
print("predictions:", preds)
print("first:", preds[0], "repr:", repr(preds[0]), "type:", type(preds[0]).__name__)

labels = np.array([0, 2, 1, 1, 0])
correct = 0
for p, y in zip(preds, labels):
    if p == y:
        correct += 1
print("correct:", correct, [correct], "accuracy:", correct / len(labels))

hits = preds == labels[0]
print(hits, (np.array(preds) == labels).sum(), [(np.array(preds) == labels).sum()])
print({"best": np.argmax(probs[0]), "score": probs[0].max()})
print(tuple(labels[:3]), labels.sum(), [labels.sum(), labels.max(), labels.argmin()])

k = np.argmax(labels)
names = ["cat", "dog", "bird"]
print(names[labels[k]], logits[k], logits[:, labels[k]].shape, torch.zeros(labels[k]).shape)
print(f"class {k} -> {names[labels[k]]} ({k!r})", "%d of %d" % (correct, len(labels)))
for i in range(labels[1]):
    print(i, end=" ")
print()
big = probs.max(axis=1) > 0.5
print(big, big[0], [big[0], big[1]], int(big.sum()), [bool(b) for b in big])
