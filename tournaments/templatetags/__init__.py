"""Template tags of the tournament pages: words for stored codes, the knockout summary."""
