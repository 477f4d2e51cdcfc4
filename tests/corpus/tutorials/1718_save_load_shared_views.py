# torch.save keeps storages: a tensor saved with its slices (or a transposed view) loads back
# sharing memory with them, so an in-place change through one shows in the other.
import torch

numbers = torch.arange(1, 10)
evens = numbers[1::2]
torch.save([numbers, evens], "tensors.pt")
loaded_numbers, loaded_evens = torch.load("tensors.pt")
loaded_evens *= 2
print(loaded_numbers, loaded_evens)
print(numbers)

state = {"w": torch.ones(2, 3), "b": torch.zeros(4)}
state["w_t"] = state["w"].t()
torch.save(state, "state.pt")
back = torch.load("state.pt")
back["w_t"][0, 1] = 7
print(back["w"], back["b"], back["w_t"].stride(), back["w_t"].is_contiguous())

torch.manual_seed(0)
p = torch.randn(3, requires_grad=True)
torch.save({"p": p, "head": p.detach()[:2]}, "pair.pt")
pair = torch.load("pair.pt")
print(pair["p"].requires_grad, pair["head"].requires_grad)
with torch.no_grad():
    pair["head"].mul_(0)
print(pair["p"])
again = torch.load("pair.pt")
print(again["p"])
