"""Battles written out and read back: the archive's battles section, its replay check, and
battles as records and plain data (``export``)."""
