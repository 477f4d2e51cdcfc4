# The scaled complementary error function erfcx(x) = exp(x^2) erfc(x) and the log of the
# normal CDF keep their precision far in the tails, where erfc and ndtr underflow. Printed to
# all digits in both precisions, with the gradients that flow through them.
import torch

x = torch.tensor([-26.0, -8.0, -6.1, -3.0, -1.0, -0.25, 0.0, 0.3, 2.5, 12.0, 49.0, 51.0, 1e3, 1e8],
                 dtype=torch.float64)
print("erfcx f64:", torch.special.erfcx(x).tolist())
print("erfcx f32:", torch.special.erfcx(x.float()).tolist())

z = torch.tensor([-40.0, -20.0, -7.5, -3.2, -1.5, -1.0, -0.5, 0.0, 1.0], dtype=torch.float64)
print("log_ndtr f64:", torch.special.log_ndtr(z).tolist())
print("log_ndtr f32:", torch.special.log_ndtr(z.float()).tolist())
print("naive:", torch.log(torch.special.ndtr(z)).tolist()[:3])

w = torch.tensor([-3.0, -0.5, 0.7, 4.0], dtype=torch.float64, requires_grad=True)
torch.special.erfcx(w).sum().backward()
print("d erfcx:", w.grad.tolist())

# a tail probability in logs: P(Z < -9) for a standard normal
print(f"log P(Z < -9) = {torch.special.log_ndtr(torch.tensor(-9.0, dtype=torch.float64)).item():.12f}")
