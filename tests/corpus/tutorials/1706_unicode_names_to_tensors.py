# Names from several languages turned into plain ASCII, then one-hot tensors (char-RNN prep).
import string
import unicodedata

import torch

allowed = string.ascii_letters + " .,;'-"
n_letters = len(allowed)


def to_ascii(text):
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(ch for ch in decomposed if unicodedata.category(ch) != "Mn" and ch in allowed)


raw = ["Ślusàrski", "Müller", "Nguyễn", "Öztürk", "São João", "Dvořák", "Ærø"]
for name in raw:
    print(f"{name!r:14} -> {to_ascii(name)!r}")


def line_to_tensor(line):
    t = torch.zeros(len(line), 1, n_letters)
    for i, ch in enumerate(line):
        t[i][0][allowed.find(ch)] = 1
    return t


x = line_to_tensor(to_ascii("Dvořák"))
print(x.shape, x.sum().item(), x.argmax(dim=2).flatten().tolist())

print(unicodedata.name("ř"), unicodedata.decomposition("ř"))
print([unicodedata.category(c) for c in "Aa1 ,́"])
print(unicodedata.normalize("NFC", "e\u0301") == "é", len(unicodedata.normalize("NFKD", "ﬁ")))
print(unicodedata.numeric("¾"), unicodedata.lookup("LATIN SMALL LETTER SHARP S"))
try:
    unicodedata.normalize("NFX", "abc")
except ValueError as e:
    print("ValueError:", e)
try:
    unicodedata.lookup("NOT A REAL CHARACTER")
except KeyError as e:
    print("KeyError:", e)
