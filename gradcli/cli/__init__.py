"""Layer 7: the command line: the typer app, shared options, input parsing (`--grad`,
`--set`), the commands by area and the renderers."""
