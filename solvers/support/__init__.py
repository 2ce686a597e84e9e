"""What every part of the solvers relies on: optional extras, the version, safe output
files, finding spec files, Ctrl-C, signs of progress and running outside programs."""
