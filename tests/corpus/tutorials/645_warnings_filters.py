# warnings filters as notebooks and tests use them: ignore a known PyTorch warning by its
# text, turn warnings into errors to catch them, scope filters with catch_warnings().
import warnings
import torch
x = torch.ones(2, requires_grad=True)
y = x * 2
warnings.filterwarnings("ignore", message="The .grad attribute")
print(y.grad)
warnings.simplefilter("error")
try:
    print(y.grad)
except UserWarning as w:
    print("caught:", str(w)[:60])
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    print(y.grad)
try:
    warnings.warn("my own", DeprecationWarning)
except DeprecationWarning as e:
    print("deprecation raised:", e)
warnings.resetwarnings()
warnings.filterwarnings("error", category=FutureWarning)
warnings.warn("shown only")
try:
    warnings.warn("future", FutureWarning)
except Warning as e:
    print(type(e).__name__, e)
with warnings.catch_warnings(action="error", category=UserWarning):
    try:
        warnings.warn("inside")
    except UserWarning as e:
        print("inside raised", e)
warnings.warn("outside again")
print("done")
