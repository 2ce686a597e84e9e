"""The backends that find answers (direct, cpsat, sat, minizinc, dimacs), the one
interface they implement (:mod:`.base`) and the registry that names them."""
