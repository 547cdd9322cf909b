"""The settings dialog: its form and how a change applies."""
