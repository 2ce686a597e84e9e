"""trailkit's Python API: the one stable place to import from.

The code behind these names lives in layer folders that may move again (as they did in
0.2); what this module exports keeps its name and meaning. Everything here returns data
and raises :class:`SpecError` for a bad spec or :class:`VerificationFailure` when a
backend is caught giving a wrong answer; nothing prints or exits. See docs/python.md.
"""

from __future__ import annotations

from trailkit.models.answer import Answer, Certificate, Status, Walk
from trailkit.models.checking.drup import check_drup, drup_to_lrat
from trailkit.models.checking.lrat import check_lrat, check_lrat_files, read_dimacs
from trailkit.models.errors import SpecError, TrailkitError, VerificationFailure
from trailkit.models.puzzle import Puzzle
from trailkit.models.spec import check_spec, load_spec, load_spec_text
from trailkit.solvers.pipeline import Proof, check_certificate_file, count, prove, solve
from trailkit.solvers.tools.drawing import Emphasis, draw_svg, html_page, render_png
from trailkit.solvers.tools.interchange import from_networkx, to_networkx
from trailkit.solvers.tools.repair import Explanation, Repair, RepairResult, explain, repair

__all__ = [
    "Answer", "Certificate", "Emphasis", "Explanation", "Proof", "Puzzle", "Repair",
    "RepairResult", "SpecError", "Status", "TrailkitError", "VerificationFailure", "Walk",
    "check_certificate_file", "check_drup", "check_lrat", "check_lrat_files", "check_spec",
    "count", "draw_svg", "drup_to_lrat", "explain", "from_networkx", "html_page",
    "load_spec", "load_spec_text", "prove", "read_dimacs", "render_png", "repair", "solve",
    "to_networkx",
]

#: Import paths of 0.1 that still work, each with a DeprecationWarning naming where its
#: code lives now (the shim modules at the old paths; tests/solvers/test_api.py keeps them true).
MOVED: dict[str, str] = {
    "trailkit.models.drup": "trailkit.models.checking.drup",
    "trailkit.models.lrat": "trailkit.models.checking.lrat",
    "trailkit.solvers.repair": "trailkit.solvers.tools.repair",
    "trailkit.solvers.drawing": "trailkit.solvers.tools.drawing",
    "trailkit.solvers.interchange": "trailkit.solvers.tools.interchange",
}
