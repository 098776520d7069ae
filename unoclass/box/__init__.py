"""unoclass on one machine: the `unoclass` command (a teacher's laptop, a school box)."""
