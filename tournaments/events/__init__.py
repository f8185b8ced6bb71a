"""What the tournament tells other apps: its signals (``signals``), below every room that
sends them (``rounds``, ``organising``) and the door that hands them to ``games``."""
