"""A finished battle's analysis: its runs (``runs``), their Celery tasks (``tasks``) and chart."""
