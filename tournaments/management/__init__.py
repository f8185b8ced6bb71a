"""The tournaments app's management commands."""
