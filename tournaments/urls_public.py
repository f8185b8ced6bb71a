from __future__ import annotations

from django.urls import path

from . import views_public

urlpatterns = [
    path("", views_public.home, name="home"),
]
