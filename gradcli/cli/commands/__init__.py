"""The commands, grouped by area; each module registers its commands on `cli.app.app`."""
