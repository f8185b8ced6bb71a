"""Tiny's rules: the board and position (:mod:`.position`), the notation (:mod:`.notation`),
game records' movetext (:mod:`.records`) and perft (:mod:`.perft`). Pure Python."""
