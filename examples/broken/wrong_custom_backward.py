# A custom gradient with a mistake in it, for `gradcli check` to catch (exit status 3):
#   gradcli check examples/broken/wrong_custom_backward.py
import torch


def cube(x):
    return x**3


def cube_backward(x, grad):
    return 3 * x * grad  # wrong: should be 3 * x**2 * grad


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = cube(x).sum()
