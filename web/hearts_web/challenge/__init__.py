"""A deal for a friend: challenge links, and what the friend is told and shown."""
