"""The player's data as a file: export, the checked import and its preview, and what the player is told
about stored data."""
