"""The hand forms, one per game, built from what the game describes, and their field
kinds (each kind builds its inputs, fills them from a hand, reads them back)."""
