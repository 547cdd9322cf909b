"""The thin browser layer of the Hearts game (DOM drawing and input only; no game rules)."""
