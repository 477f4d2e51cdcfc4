# Fitting a polynomial to a learning-rate sweep with NumPy and using it as a function:
# np.poly1d of np.polyfit's coefficients, its printing, derivative, roots and integral.
import numpy as np
import torch

lrs = np.array([0.001, 0.003, 0.01, 0.03, 0.1, 0.3])
torch.manual_seed(0)
noise = torch.randn(6).numpy().astype(np.float64) * 0.01
log_lr = np.log10(lrs)
loss = 0.2 * (log_lr + 1.5) ** 2 + 0.35 + noise

curve = np.poly1d(np.polyfit(log_lr, loss, 2))
print(curve)
print(repr(np.poly1d([2.0, 0.0, -1.0])))
best = curve.deriv().roots
print("order", curve.order, "best log10(lr)", np.round(best, 3), "best lr", np.round(10**best, 4))
print(np.round(curve(log_lr), 4))
print(np.round(curve(np.array([-2.0, -1.0])), 4), np.round(float(curve(-1.5)), 4))

quad = np.poly1d([1, -3, 2])
print(quad, quad.roots, quad.deriv(), sep="\n")
print(quad.integ(k=1))
print(np.poly1d([1, 2], r=True), np.poly([1, 2]), quad(np.poly1d([1, 1])).c)
print(len(quad), quad.coeffs, quad.variable)
