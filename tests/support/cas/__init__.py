"""A real CAS server for the ENT sign-in tests: django-cas-server in its own virtual environment
(`.venv-cas`, made by `make cas-venv`), on a loopback port, with users of both ENT shapes.
"""
