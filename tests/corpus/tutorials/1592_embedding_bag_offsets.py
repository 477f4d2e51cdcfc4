# A bag-of-words text classifier packs its sentences into one flat index tensor plus the
# start offset of each sentence. A wrong first offset is caught and reported.
import torch
import torch.nn as nn

torch.manual_seed(3)
vocab = {"good": 0, "bad": 1, "movie": 2, "plot": 3, "great": 4, "boring": 5}
sentences = [["good", "movie"], ["boring", "plot", "bad"], ["great", "great", "movie"]]
flat = torch.tensor([vocab[w] for s in sentences for w in s])
starts, pos = [], 0
for s in sentences:
    starts.append(pos)
    pos += len(s)
offsets = torch.tensor(starts)
print(flat, offsets)

bag = nn.EmbeddingBag(len(vocab), 4, mode="mean")
head = nn.Linear(4, 2)
logits = head(bag(flat, offsets))
print(logits)

for bad in (offsets + 1, (offsets + 2).int()):
    try:
        bag(flat, bad)
    except RuntimeError as e:
        print("bad offsets:", e)

flat32 = flat.int()
try:
    bag(flat32, offsets.int() - 1)
except RuntimeError as e:
    print("int32:", e)
print(bag(flat32, offsets.int()).shape)
