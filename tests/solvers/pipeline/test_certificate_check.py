"""``check-certificate`` loads the checkers, not the makers (issue 45: checking the 10^6-edge
colour walk's certificate took 1.01 s after the spec was read, most of it importing
``proving.py`` with the backends, the solving pipeline and every claim's maker).

Each check runs in a fresh interpreter (this test process has everything loaded),
through :func:`trailkit.solvers.frontends.cli.main`, and reports the modules it held;
the certificate it checks is made in this process (``tests/in_process.py``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from in_process import trailkit

from trailkit.models.spec import load_spec
from trailkit.solvers.pipeline import proving
from trailkit.solvers.pipeline.certificate_check import check_certificate_file

ROOT = Path(__file__).resolve().parents[3]

RUNNER = """
import sys
from trailkit.solvers.frontends.cli import main
code = main(sys.argv[1:])
print("\\nEXIT", code, "LOADED", *sorted(sys.modules))
"""

#: What makes certificates, never needed to check one.
MAKERS = ("trailkit.solvers.pipeline.proving", "trailkit.solvers.pipeline.solving",
          "trailkit.solvers.pipeline.claims", "trailkit.solvers.pipeline.refuted_claims",
          "trailkit.solvers.backends.direct", "trailkit.solvers.backends.sat",
          "trailkit.solvers.backends.cpsat", "pysat.solvers", "ortools")


@pytest.mark.parametrize("spec, claim", [("specs/tyre-puzzle/restored.yaml", "shortest"),
                                         ("specs/koenigsberg.yaml", None)],
                         ids=["layers", "parity"])
def test_check_certificate_loads_no_maker(tmp_path: Path, spec: str, claim: str | None) -> None:
    """The certificate is accepted (exit 0) and no backend, solving or proving module was
    imported to check it."""
    cert = tmp_path / "cert.json"  # made here: only the check needs a fresh interpreter
    made = trailkit(["prove", spec, *(["--claim", claim] if claim else []), "--out", str(cert)],
                    ROOT)
    assert cert.exists(), made.output
    done = subprocess.run([sys.executable, "-c", RUNNER, "check-certificate", spec, str(cert)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    last = done.stdout.rstrip().rsplit("\n", 1)[-1].split()
    assert last[:3] == ["EXIT", "0", "LOADED"], done.stdout[-500:] + done.stderr[-500:]
    assert sorted(m for m in last[3:] if m.startswith(MAKERS)) == []


def test_proving_still_offers_the_check() -> None:
    """``proving.check_certificate_file`` (the name callers used) is the same function."""
    assert proving.check_certificate_file is check_certificate_file
    assert proving.CertificateCheck.__module__.endswith("certificate_check")


def test_a_changed_spec_is_noted(tmp_path: Path) -> None:
    """The note on a spec changed since the certificate (``spec_sha256``) still comes."""
    spec = tmp_path / "k.yaml"
    spec.write_text(Path(ROOT / "specs/koenigsberg.yaml").read_text())
    proof = proving.prove(load_spec(spec), spec_path=str(spec))
    assert proof.document is not None
    cert = tmp_path / "k.json"
    for path, text in proving.certificate_files(proof.document, cert):
        path.write_text(text)
    spec.write_text(spec.read_text() + "\n# a comment\n")
    check = check_certificate_file(load_spec(spec), str(cert), spec_path=str(spec))
    assert check.accepted and "changed since" in check.message, check.message
