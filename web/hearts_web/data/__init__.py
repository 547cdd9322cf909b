"""What the game keeps in the browser and how: the storage with its limits and backups, the stored
values (settings, the saved game, the daily results, the statistics) and the registry that declares
every key (``registry``)."""
