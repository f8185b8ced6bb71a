"""Pairing, pure: the records, Swiss (matching and windows), round robin, elimination and the
knockout stage, and side allocation. No Django imports."""
