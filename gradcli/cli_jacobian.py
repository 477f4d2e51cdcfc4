"""`gradcli jacobian`, `gradcli hessian`, `gradcli hvp` (registered on the app of `cli`)."""

from __future__ import annotations
