"""Public notices every school asks for: the privacy notice and the accessibility statement."""
