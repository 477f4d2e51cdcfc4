"""Layer 5: the language: a safe subset of Python, parsed with `ast` and interpreted node by
node (namespaces, calls, `Program`/`Run`, `Program.run(overrides=...)`)."""
