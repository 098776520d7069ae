from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        """Connect the sign-out signal that closes a signed-out session's sockets."""
        from games.realtime import signout  # noqa: F401
