# A 3-class toy problem in reduced precision: log-probabilities and the loss of a handful
# of logits, and the gradient the loss sends back to them.
import torch
import torch.nn.functional as F

torch.manual_seed(3)
for dtype in (torch.float16, torch.bfloat16):
    logits = (torch.randn(4, 3) * 2).to(dtype).requires_grad_()
    target = torch.tensor([0, 2, 1, 2])
    logp = F.log_softmax(logits, dim=1)
    print(dtype, logp)
    print("probabilities sum to", logp.exp().sum(dim=1))
    if dtype == torch.float16:
        loss = F.nll_loss(logp, target)
        loss.backward()
        print("loss", loss.item())
        print("grad", logits.grad)
    single = torch.tensor([1.7, -0.3, 0.25, 2.2, -1.1], dtype=dtype)
    print("one row of five:", torch.log_softmax(single, dim=0))
    print("two by two:", F.log_softmax(torch.tensor([[0.1, 0.7], [3.0, -2.5]], dtype=dtype), -1))
