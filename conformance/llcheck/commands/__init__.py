"""One module per llcheck subcommand."""
