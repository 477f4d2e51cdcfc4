# A byte-level tokenizer's first steps, as the GPT-tokenizer walkthroughs write them: text to
# UTF-8 bytes, the most frequent pair merged into a new token, then ids as a tensor.
import torch

text = "naïve café: ça va? ça va!"
raw = text.encode("utf-8")
print(raw)
print(len(text), "characters,", len(raw), "bytes")
print(raw[:4], raw[2], list(raw[2:4]))

ids = list(raw)


def pair_counts(seq):
    counts = {}
    for a, b in zip(seq, seq[1:]):
        counts[(a, b)] = counts.get((a, b), 0) + 1
    return counts


def merge(seq, pair, new_id):
    out, i = [], 0
    while i < len(seq):
        if i < len(seq) - 1 and (seq[i], seq[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(seq[i])
            i += 1
    return out


counts = pair_counts(ids)
best = max(counts, key=counts.get)
print("most frequent pair:", best, counts[best])
vocab = {i: bytes([i]) for i in range(256)}
vocab[256] = vocab[best[0]] + vocab[best[1]]
merged = merge(ids, best, 256)
print(len(ids), "->", len(merged), vocab[256])

decoded = b"".join(vocab[i] for i in merged).decode("utf-8")
print(decoded == text, decoded)

x = torch.tensor(merged)
print(x[:6], x.dtype, x.max().item())
emb = torch.nn.Embedding(257, 4)
print(emb(x).shape)

print(raw.hex()[:16], bytes.fromhex("c3a7").decode(), "é".encode("latin-1"))
print(b"a" in raw, 0xC3 in raw, raw.count(b"\xc3"), raw.split(b" ")[:2])
print(int.from_bytes(raw[:2], "big"), (50087).to_bytes(2, "big"))
print(f"{raw[-3:]!r}", str(raw[-3:], "utf-8"), type(raw).__name__)
print(bytes([226, 130, 172]).decode(), b"\xe2\x82".decode("utf-8", errors="replace"))

try:
    raw[:3].decode("utf-8")
except UnicodeDecodeError as e:
    print("UnicodeDecodeError:", e)
try:
    text.encode("ascii")
except UnicodeEncodeError as e:
    print("UnicodeEncodeError:", e)
try:
    bytes([256])
except ValueError as e:
    print("ValueError:", e)
try:
    torch.tensor(raw)
except TypeError as e:
    print("TypeError:", e)
