"""manage.py commands: create, import, pair, export, load the demo."""
