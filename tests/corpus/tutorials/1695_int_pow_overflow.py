# Integer and half tensors raised to exponents their dtype cannot hold.
import torch

levels = torch.tensor([1, 2, 3], dtype=torch.int8)
print(levels.pow(127))
print(levels.pow(2.5))
print(torch.tensor([1., 2.], dtype=torch.float16) ** 3)
print(torch.tensor([1., 2.]).pow(1e39))  # a float32 base takes a double exponent: no error
for name, f in (("int8 ** 300", lambda: levels ** 300),
                ("torch.pow(int8, 128)", lambda: torch.pow(levels, 128)),
                ("uint8.pow(256)", lambda: levels.to(torch.uint8).pow(256)),
                ("int8.pow(-300)", lambda: levels.pow(-300)),
                ("int32.pow(2**40)", lambda: levels.int().pow(2**40)),
                ("pow_ in place", lambda: levels.clone().pow_(300)),
                ("half ** 70000", lambda: torch.tensor([1., 2.], dtype=torch.float16) ** 70000),
                ("bfloat16 ** 1e39", lambda: torch.tensor([1., 2.], dtype=torch.bfloat16) ** 1e39)):
    try:
        print(name, f())
    except RuntimeError as e:
        print(name, "->", e)
