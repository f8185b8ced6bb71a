"""What a battle announces: Django signals (``signals``) and Redis messages (``publish``)."""
