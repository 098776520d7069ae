"""The wheel as a teacher installs it: `unoclass serve --lan` from a fresh virtual environment."""
