"""The app with every command registered on it (for the tests, and for `--help`); the console
script (`console.main`) registers only the command its command line names."""

from __future__ import annotations

from .app import app
from .console import register

register()

__all__ = ["app"]
