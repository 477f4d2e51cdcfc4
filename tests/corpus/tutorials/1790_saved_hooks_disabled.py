# A library that cannot work with saved-tensor hooks switches them off; a user who then
# tries to offload activations to the CPU (or register hooks) gets the library's message.
import torch

x = torch.linspace(-1.0, 1.0, 5, dtype=torch.float64, requires_grad=True)

lib_msg = "this layer does not support saved tensor hooks (not supported with offloading)"
with torch.autograd.graph.disable_saved_tensors_hooks(lib_msg):
    y = (x.sin() * x).sum()
    try:
        with torch.autograd.graph.save_on_cpu(pin_memory=False):
            y = y + x.exp().sum()
    except RuntimeError as err:
        print("save_on_cpu refused:", err)
    try:
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass
    except RuntimeError as err:
        print("saved_tensors_hooks refused:", err)
    with torch.autograd.graph.disable_saved_tensors_hooks("inner message"):
        try:
            with torch.autograd.graph.save_on_cpu():
                pass
        except RuntimeError as err:
            print("nested:", err)

# Turning hooks off while a hooks block is already in force fails at once.
with torch.autograd.graph.save_on_cpu():
    try:
        with torch.autograd.graph.disable_saved_tensors_hooks("too late"):
            print("never printed")
    except RuntimeError as err:
        print("disable inside save_on_cpu:", err)
    z = (x * x).sum()

y.backward()
z.backward()
print(x.grad)

# After the blocks, hooks work again.
with torch.autograd.graph.save_on_cpu():
    w = (x.cos() * 2).sum()
w.backward()
print(x.grad)
