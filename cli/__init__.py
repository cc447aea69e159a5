"""The `sandtable` command line: one module per command in cli/commands/."""
