"""Locale formats that override Django's own, per language (FORMAT_MODULE_PATH).

Only what differs from Django's defaults. Everything else (numbers with a decimal comma,
short dates) comes from Django's locale files.
"""
