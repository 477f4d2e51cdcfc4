# A language-model head over a large vocabulary: the adaptive softmax keeps the frequent words
# in a small head and puts rare ones in clusters behind smaller projections. The module returns
# the log-probability of each target and the mean negative log-likelihood.
import torch
import torch.nn as nn

torch.manual_seed(0)
vocab, hidden = 12, 8
embed = nn.Embedding(vocab, hidden)
asm = nn.AdaptiveLogSoftmaxWithLoss(hidden, vocab, cutoffs=[4, 8], div_value=2.0)
print(asm)
print(asm.cutoffs, asm.shortlist_size, asm.n_clusters, asm.head_size)
print(sum(p.numel() for p in asm.parameters()), "parameters vs", hidden * vocab, "for a full softmax")

tokens = torch.tensor([1, 5, 11, 3, 9, 0, 6])
inputs, targets = tokens[:-1], tokens[1:]
opt = torch.optim.SGD(list(embed.parameters()) + list(asm.parameters()), lr=0.5)
for step in range(4):
    opt.zero_grad()
    out = asm(embed(inputs), targets)
    out.loss.backward()
    opt.step()
    print(step, round(out.loss.item(), 5))
print(out.output)
print(asm.tail[0][1].weight.grad)

with torch.no_grad():
    h = embed(inputs)
    log_probs = asm.log_prob(h)
    print(log_probs.shape, log_probs.exp().sum(dim=1))
    print(torch.allclose(log_probs[torch.arange(6), targets], asm(h, targets).output))
    print(asm.predict(h), log_probs.argmax(dim=1))

one = asm(embed(torch.tensor(2)), torch.tensor(7))
print(one)
output, loss = asm(embed(inputs[:2]), targets[:2])
print(output.grad_fn.name(), loss.grad_fn.name())
try:
    asm(embed(inputs), torch.tensor([0, 1, 2, 3, 4, 12]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.AdaptiveLogSoftmaxWithLoss(8, 12, cutoffs=[8, 4])
except ValueError as e:
    print("ValueError:", e)
