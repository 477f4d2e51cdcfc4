# A number written into a tensor must fit the tensor's dtype: small integer and half
# tensors refuse a value they cannot hold, while plain arithmetic wraps or rounds.
import torch

labels = torch.tensor([3, 7, 1, 9], dtype=torch.int8)
pixels = torch.tensor([12, 200, 31], dtype=torch.uint8)
scores = torch.tensor([0.5, 1.5, -2.0], dtype=torch.float16)
mask = labels > 4


def attempt(name, make):
    try:
        print(name, make())
    except RuntimeError as err:
        print(name, "RuntimeError:", err)


attempt("fill 300", lambda: labels.clone().fill_(300))
attempt("fill 127", lambda: labels.clone().fill_(127))
attempt("fill -128.0", lambda: labels.clone().fill_(-128.0))
attempt("fill 2.9", lambda: labels.clone().fill_(2.9))
attempt("uint8 fill -1", lambda: pixels.clone().fill_(-1))
attempt("uint8 fill -1.0", lambda: pixels.clone().fill_(-1.0))
attempt("uint8 fill 256", lambda: pixels.clone().fill_(256))
attempt("masked_fill 200", lambda: labels.masked_fill(mask, 200))
attempt("masked_fill tensor 200", lambda: labels.masked_fill(mask, torch.tensor(200)))
attempt("index_fill -200", lambda: labels.index_fill(0, torch.tensor([1, 2]), -200))
attempt("scatter 999", lambda: labels.scatter(0, torch.tensor([0]), 999))
attempt("clamp max 1000", lambda: labels.clamp(max=1000))
attempt("clamp 0..100", lambda: labels.clamp(0, 100))
attempt("clamp max 2.5", lambda: labels.clamp(max=2.5))
attempt("where 500", lambda: torch.where(mask, labels, 500))
attempt("where tensor 500", lambda: torch.where(mask, labels, torch.tensor(500)))
attempt("where 1.5", lambda: torch.where(mask, labels, 1.5))
attempt("full 128", lambda: torch.full((2,), 128, dtype=torch.int8))
attempt("new_full 1000", lambda: labels.new_full((3,), 1000))
attempt("full_like nan", lambda: torch.full_like(labels, float("nan")))
attempt("add 300 wraps", lambda: labels + 300)
attempt("compare 300", lambda: labels < 300)


def put(t, index, value):
    t[index] = value
    return t


attempt("setitem 128", lambda: put(labels.clone(), 0, 128))
attempt("setitem mask 128", lambda: put(labels.clone(), mask, 128))
attempt("setitem list -129", lambda: put(labels.clone(), [0, 3], -129))
attempt("setitem tensor 128", lambda: put(labels.clone(), 0, torch.tensor(128)))

# Half precision: a fill of several elements refuses 1e5, one element becomes inf.
attempt("half fill 1e5", lambda: scores.clone().fill_(1e5))
attempt("half fill inf", lambda: scores.clone().fill_(float("inf")))
attempt("half one element", lambda: scores[:1].clone().fill_(1e5))
attempt("half masked_fill", lambda: scores.masked_fill(scores > 0, 7e4))
attempt("half clamp", lambda: scores.clamp(min=-7e4))
attempt("half where", lambda: torch.where(scores > 0, scores, 1e5))
attempt("half setitem", lambda: put(scores.clone(), slice(0, 2), 1e5))
attempt("half full", lambda: torch.full((2,), 65519.0, dtype=torch.float16))
attempt("float fill 1e39", lambda: torch.zeros(2).fill_(1e39))
attempt("double fill 1e39", lambda: torch.zeros(2, dtype=torch.float64).fill_(1e39))

# nan_to_num: each element replaced by its own rule; a value out of range becomes inf
x = torch.tensor([float("nan"), float("inf"), -float("inf"), 2.0], requires_grad=True)
y = torch.nan_to_num(x, nan=1e39, posinf=-1e39, neginf=7.0)
print(y)
y.sum().backward()
print(x.grad)
print(torch.nan_to_num(scores.log(), nan=7e4))
print(torch.nan_to_num(torch.tensor([float("nan"), float("inf")]), nan=3.0))
