"""Print pages as PDF: the pool of worker processes, its cache, and what a worker runs."""
