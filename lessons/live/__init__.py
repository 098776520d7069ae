"""What lessons tells the live links: the overview of a class session."""
