"""Front ends that reach an inbox in another process, and what they tell the person."""
