"""Layer 1: what every other layer needs and nothing of gradcli: the error family, source
spans and their caret formatting, the cheap `Record`, the named limits."""
