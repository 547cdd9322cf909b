"""The game on the table: the view that draws the table's state and animates events, the people and
bots at the seats, the one table loop over a session, the hand's controls, Undo and the toolbar's
table buttons."""
