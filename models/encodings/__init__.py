"""What the solvers share to build their models: encodings no checker trusts (the
layered state encoding, the MiniZinc model), size estimates made before building one,
and packing a solver's proof into a certificate or into files for outside checkers."""
