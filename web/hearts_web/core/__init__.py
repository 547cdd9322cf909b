"""The page's basics, which every other part uses and which use no other part: the command registry,
the DOM boundary and its input, the two languages and their formats, HTML escaping and card faces,
notices, and the sentences for refused moves and hints."""
