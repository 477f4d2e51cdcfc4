# Distillation: a student's log-probabilities against a teacher's soft labels, where the
# teacher is trained too, so the gradient reaches the teacher's logits through the target.
import torch
import torch.nn.functional as F

torch.manual_seed(3)
torch.set_printoptions(precision=10)

student_logits = torch.randn(4, 5, requires_grad=True)
teacher_logits = torch.randn(4, 5, requires_grad=True)

for reduction in ("batchmean", "mean"):
    student_logits.grad = None
    teacher_logits.grad = None
    soft = F.softmax(teacher_logits / 2.0, dim=1)
    loss = F.kl_div(F.log_softmax(student_logits, dim=1), soft, reduction=reduction)
    loss.backward()
    print(reduction, loss.item())
    print("student grad", student_logits.grad)
    print("teacher grad", teacher_logits.grad)

# per-element losses, weighted by class
w = torch.linspace(0.5, 1.5, 5)
teacher = F.softmax(torch.randn(6, 5), dim=1).requires_grad_()
student = F.log_softmax(torch.randn(6, 5), dim=1)
per_elem = F.kl_div(student, teacher, reduction="none")
(per_elem * w).sum().div(6).backward()
print("target grad", teacher.grad)
