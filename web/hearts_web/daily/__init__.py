"""The daily game: open by date, the par, the result, the history with streaks, sharing."""
