"""Hearts: a pure-Python engine for the card game (stdlib only)."""
