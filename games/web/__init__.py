"""The games' web edge: views, presenters (each game's board) and the gates (``permissions``)."""
