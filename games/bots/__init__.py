"""The computer as a player (``moves``): its moves computed by the bots' Celery worker."""
