"""The organiser's pages (``/manage/``), one module per job: the tournament and its
dashboard, its settings, its players, its staff, its rounds."""
