"""Practice a student does alone: dealing aimed at their misconception, what to practise next."""
