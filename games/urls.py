from __future__ import annotations

app_name = "games"
urlpatterns: list = []
