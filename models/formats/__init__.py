"""Text in and out: plank and domino lists, the fast edge-list scanner, bounded reading
of input files, and a walk's steps written as JSON."""
