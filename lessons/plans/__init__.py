"""Group plans: what a teacher plans for a misconception group, and the loop that follows."""
