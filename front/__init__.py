"""The roof: the site's composition. The root URL conf, the home page, the player's page,
the rules pages, the context every template sees, and the WSGI/ASGI entry points (which
start the web heartbeat) put the apps together here; no app imports ``front``.
``thud_site`` below is the floor every app stands on (settings, Celery, http, limits, cache).
"""
