"""The ``trailkit`` command line: the one package that parses arguments, prints and
picks exit codes. Everything else in trailkit returns data.

* :mod:`.main`: the parser, the dispatch and the mapping of errors to exit codes;
* :mod:`.options`: shared option types, the limits options, exit-code constants;
* :mod:`.output`: printing (JSON, status lines, text safe for any console);
* one module per command family: :mod:`.answers` (solve, count, prove,
  check-certificate), :mod:`.compare`, :mod:`.makers` (generate, import, export),
  :mod:`.lint`; formatters in :mod:`.report`; safe file writes in :mod:`.files`.
"""

from trailkit.solvers.cli.main import build_parser, main

__all__ = ["build_parser", "main"]
