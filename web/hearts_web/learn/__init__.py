"""Learning the game: "How to play" for the rules in force, and the guided first hand."""
