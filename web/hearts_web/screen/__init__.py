"""What the table and its dialogs look like, and the page's services: the table's state and its HTML,
charts, the one dialog, the page (texts, look, ready marker, error banner) and the lazily loaded
second archive."""
