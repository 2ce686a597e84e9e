"""The front ends: the only code that prints, parses arguments, serves pages or picks
exit codes (the command line and the workshop)."""
