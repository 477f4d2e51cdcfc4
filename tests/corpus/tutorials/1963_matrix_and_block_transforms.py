# Transforms that act on blocks and on matrices: StackTransform and CatTransform apply one
# transform per slice, LowerCholeskyTransform and PositiveDefiniteTransform map unconstrained
# matrices to Cholesky factors and covariance matrices; their constraints, and what
# transform_to / biject_to give for lower_cholesky and positive_definite.
import torch
from torch.distributions import constraints, transform_to, biject_to
from torch.distributions.transforms import (
    AffineTransform,
    CatTransform,
    ExpTransform,
    LowerCholeskyTransform,
    PositiveDefiniteTransform,
    SigmoidTransform,
    StackTransform,
)

x = torch.tensor([[0.5, -1.0, 0.25], [2.0, 0.3, -0.7]], dtype=torch.float64)

st = StackTransform([ExpTransform(), AffineTransform(1.0, 2.0), SigmoidTransform()], dim=1)
y = st(x)
print(st, st.domain, st.codomain, st.event_dim)
print(y)
print(st.inv(y))
print(st.log_abs_det_jacobian(x, y))
print(st.domain.check(x), st.codomain.check(y))

ct = CatTransform([ExpTransform(), SigmoidTransform()], dim=1, lengths=[2, 1])
y = ct(x)
print(ct, ct.domain, ct.codomain, ct.event_dim, ct.length)
print(y)
print(ct.inv(y))
print(ct.log_abs_det_jacobian(x, y))
print(ct.codomain.check(y), ct.codomain.check(-y))
rows = CatTransform([ExpTransform(), AffineTransform(0.0, 3.0)], dim=0)
print(rows(x), rows.log_abs_det_jacobian(x, rows(x)))

raw = torch.tensor([[0.3, 9.0, 9.0], [-0.4, -0.2, 9.0], [1.1, 0.5, 0.1]], dtype=torch.float64)
lc = LowerCholeskyTransform()
L = lc(raw)
print(lc, lc.domain, lc.codomain, lc.event_dim, lc.bijective)
print(L)
print(lc.inv(L))
print(constraints.lower_cholesky.check(L), constraints.lower_cholesky.check(raw))
print(lc == LowerCholeskyTransform(), lc == PositiveDefiniteTransform())

pd = PositiveDefiniteTransform()
S = pd(raw)
print(pd, pd.domain, pd.codomain)
print(S)
print(pd.inv(S))
print(constraints.positive_definite.check(S))
batch = torch.stack([raw, raw.t(), -raw])
print(pd(batch).shape, constraints.positive_definite.check(pd(batch)))

for t in (lc, pd):
    try:
        t.log_abs_det_jacobian(raw, t(raw))
    except NotImplementedError as e:
        print(type(t).__name__, "log_abs_det_jacobian: NotImplementedError", e)

print(transform_to(constraints.lower_cholesky), transform_to(constraints.positive_definite))
for c in (constraints.lower_cholesky, constraints.positive_definite):
    try:
        biject_to(c)
    except NotImplementedError as e:
        print(e)

cat_c = constraints.cat([constraints.positive, constraints.real], dim=0, lengths=[2, 1])
print(cat_c, cat_c.event_dim, cat_c.check(torch.tensor([1.0, 2.0, -3.0])))
print(cat_c.check(torch.tensor([1.0, -2.0, -3.0])))
stack_c = constraints.stack([constraints.positive, constraints.unit_interval], dim=-1)
print(stack_c, stack_c.event_dim, stack_c.check(torch.tensor([[1.0, 0.5], [2.0, 1.5]])))

try:
    CatTransform([ExpTransform()], lengths=[1, 2])
except AssertionError as e:
    print("AssertionError:", e)
try:
    ct(torch.ones(2, 4, dtype=torch.float64))
except AssertionError as e:
    print("AssertionError:", e)
