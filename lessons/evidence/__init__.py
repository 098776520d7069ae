"""The pupils' evidence every page reads: attempts loaded, diagnosed (cached) and counted once."""
