"""One tab owns the game: the hand-over protocol between tabs and its browser side."""
