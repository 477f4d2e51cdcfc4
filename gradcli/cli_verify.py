"""`gradcli check`, `gradcli symbolic`, `gradcli ops` (registered on the app of `cli`)."""

from __future__ import annotations
