# Synthetic "word frequencies" for an embedding experiment: token ids drawn from a Zipf law,
# as language-model notebooks fake a corpus, with NumPy's legacy and Generator streams.
import numpy as np
import torch

np.random.seed(7)
vocab = 20
tokens = np.random.zipf(1.8, size=200)
tokens = tokens[tokens < vocab]
print(len(tokens), tokens[:12])
counts = np.bincount(tokens, minlength=vocab)
print(counts[:8])

rng = np.random.default_rng(3)
print(rng.zipf(2.2, size=(2, 5)))
print(rng.logseries(0.6, size=5))
print(rng.hypergeometric(ngood=12, nbad=8, nsample=5, size=4))
print(np.round(rng.wald(1.0, 3.0, size=3), 6))
print(np.round(rng.noncentral_chisquare(2, 0.5, size=3), 6))

state = np.random.RandomState(11)
print(state.zipf(3.0, 6), state.hypergeometric(5, 5, 3))
print(np.round(np.random.noncentral_f(3, 7, 1.5, size=2), 6), np.random.logseries(0.2))
print(np.round(np.random.ranf(3), 6), np.round(np.random.sample(), 6))
print(np.random.bytes(4), state.bytes(2).hex())

# frequencies as training targets for a tiny embedding
freq = torch.tensor(counts, dtype=torch.float64)
weights = torch.zeros(vocab, dtype=torch.float64, requires_grad=True)
log_probs = torch.log_softmax(weights, dim=0)
loss = -(freq * log_probs).sum() / freq.sum()
loss.backward()
print(round(loss.item(), 6), weights.grad[:4])

try:
    np.random.zipf(1.0, size=3)
except ValueError as e:
    print("ValueError:", e)
