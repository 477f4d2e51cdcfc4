# Max drawdown of a price series with cummax, and which prices the gradient reaches.
import torch

prices = torch.tensor([100.0, 104.0, 101.0, 107.0, 98.0, 103.0, 95.0, 99.0], requires_grad=True)

peak, peak_idx = torch.cummax(prices, dim=0)
drawdown = (peak - prices) / peak
print("running peak:", peak)
print("peak index:  ", peak_idx)
print("drawdown:", drawdown)

worst = drawdown.max()
print(f"max drawdown = {worst.item():.4f}")
worst.backward()
print("d(max drawdown)/d(prices):", prices.grad)

# The running minimum works the same way.
low = torch.cummin(prices.detach(), dim=0)
print(low.values, low.indices)
