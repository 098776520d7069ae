"""The warm-up round: designed items before play, a reason after each, the class picture."""
