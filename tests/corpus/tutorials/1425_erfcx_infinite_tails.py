# The scaled complementary error function at the ends of the real line, where a Gaussian
# tail-probability loss can push its inputs: exp(x^2) erfc(x) is 0 at +inf and infinite at -inf.
import torch

x = torch.tensor([float("-inf"), 0.0, float("inf")], requires_grad=True)
y = torch.special.erfcx(x)
print(y)
y.backward(torch.tensor([1.0, 1.0, 0.0]))
print(x.grad)
print(torch.special.log_ndtr(torch.tensor([float("-inf"), 0.0, float("inf")], dtype=torch.float64)))
