"""What works on puzzles and answers beyond solving: repair and explain, drawing,
interchange with other graph tools, generating puzzles, and ``lint --expect``."""
