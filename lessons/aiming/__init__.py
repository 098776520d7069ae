"""Aim a pupil's play at their misconception: practice, warm-up seating and its picture."""
