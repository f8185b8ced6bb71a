"""API v1's tournament part (``/api/v1/``): typed schemas and django-ninja routers over the
same loaders and gates as the old JSON API (``tournaments/web/views_api.py``). The API
itself (problem details, ETags, the OpenAPI document) is composed in ``front/api_v1.py``."""
