"""The `unoclass` command and the box settings (unoclass/box, unoclass/settings_box.py)."""
