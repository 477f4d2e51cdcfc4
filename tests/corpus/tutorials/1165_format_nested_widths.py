# ruff: noqa: F524  (the missing argument is the error the program shows)
# A results table whose column widths are computed: str.format takes the width and the
# precision from arguments nested in the spec, as f-strings do.
import torch

torch.manual_seed(1)
names = ["linear", "mlp", "mlp_wide"]
losses = torch.rand(3) * torch.tensor([1.0, 0.1, 0.01])
width = max(len(n) for n in names) + 2
print("{:<{w}}{:>{v}}".format("model", "loss", w=width, v=12))
for name, loss in zip(names, losses):
    digits = 3 if loss > 0.05 else 5
    print("{:<{w}}{:>{v}.{d}f}".format(name, loss, w=width, v=12, d=digits))
print("{0:{1}}|{0:{2}}|".format(7, ">4", "<4"))
print("{:{fill}^{n}}".format(" done ", fill="=", n=width + 12))
try:
    print("{:{}} {}".format(1, 2))
except IndexError as e:
    print("IndexError:", e)
