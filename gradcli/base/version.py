"""The version of gradcli (the package's `__version__`, `gradcli --version`)."""

VERSION = "0.1.0"
