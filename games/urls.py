"""URLs of the games app."""

urlpatterns: list = []
