# Module settings kept as 0-dim tensors (a rate computed earlier): the module uses the value and
# shows it as a number, as PyTorch's reprs format a 0-dim tensor.
import torch

torch.manual_seed(1)
rate = torch.tensor(0.25)
slope = torch.tensor(0.1)
print(torch.nn.Dropout(rate))
print(torch.nn.LeakyReLU(slope), torch.nn.Softplus(beta=torch.tensor(2.0)))
net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.LeakyReLU(slope), torch.nn.Dropout(rate))
print(net)
net.eval()
print(net(torch.ones(1, 3)))
print(f"rate {rate}, {rate:.3f}, {slope:>8.2f}")
for bad in (torch.tensor(1.5), torch.tensor(-0.5)):
    try:
        torch.nn.functional.dropout(torch.ones(2), p=bad)
    except ValueError as e:
        print(e)
    try:
        torch.nn.Dropout(bad)
    except ValueError as e:
        print(e)
