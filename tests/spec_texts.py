"""Random spec texts with an inline edge list, for the tests of the spec readers (the
fast reader against the full one, the edge-list scanner)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import strategies as st

__all__ = ["COLOURS", "SAFE", "WORDS", "edge_items", "specs", "write"]

# Plain words, YAML 1.1 traps (which must stay text), and words the fast reader refuses.
WORDS = st.sampled_from(["a", "b", "c", "v1", "v22", "NO", "no", "on", "y", "1e3", "0x1F",
                         "1_000", "null", "~", "1:2", "a#b", "é", "->", "→", "-", "x.y",
                         "A-B", "+1", "'q'", "&a", "*a", "!t", "[x]", "a,b", "red", "blue",
                         "green", "teal"])
SAFE = st.sampled_from(["a", "b", "c", "v1", "v22", "NO", "1e3", "null", "x.y", "A-B",
                        "red", "blue", "green"])


COLOURS = st.sampled_from(["red", "blue", "green"])


@st.composite
def specs(draw: st.DrawFn, words: st.SearchStrategy[str] = WORDS, valid: bool = False) -> str:
    """A random spec with an inline edge list in block or flow form, around other keys
    (``valid``: mostly specs that load, plain two- or three-word edges)."""
    kind = draw(st.sampled_from(["trail", "colour-walk", "walk"]))
    coloured = kind == "colour-walk" or (kind == "walk" and draw(st.booleans()))
    items = []
    for _ in range(draw(st.integers(0, 8))):
        if valid:
            arrow = ["->"] if kind == "walk" and draw(st.booleans()) else []
            fields = [draw(words), *arrow, draw(words)]
            fields += [draw(COLOURS)] if coloured else []
        else:
            fields = draw(st.lists(words, min_size=1, max_size=4))
        items.append(" ".join(fields) + ("" if valid else draw(st.sampled_from(
            ["", " ", "  # note"]))))
    lines = ["trailkit: 1", f"kind: {kind}"]
    if draw(st.booleans()):
        lines.append("nodes: [" + ", ".join(draw(st.lists(SAFE, max_size=5, unique=True)))
                     + "]")
    if coloured:
        lines.append(f"colours: [{', '.join(draw(st.permutations(['red', 'blue', 'green'])))}]")
    if kind == "colour-walk":
        lines += [f"start: {draw(SAFE)}", f"goal: {draw(SAFE)}"]
    form = draw(st.sampled_from(["block", "block0", "flow"]))
    if form == "flow":
        lines.append("edges: [" + ", ".join(items) + "]")
    else:
        indent = "" if form == "block0" else " " * draw(st.integers(1, 3))
        lines.append("edges:" + ("" if items else " []"))
        lines += [f"{indent}- {item}" for item in items]
    if draw(st.booleans()) and not valid:
        lines.append(draw(st.sampled_from(["closed: true", "closed: false", "name: x",
                                           "edges: [a b]", "  - a b", "- a b", "",
                                           "description: |\n  edges:", "# end"])))
    return "\n".join(lines) + draw(st.sampled_from(["\n", ""]))


def edge_items(text: str) -> list[str]:
    """The edge items of a spec :func:`specs` wrote (flow or block form)."""
    lines = text.split("\n")
    for line in lines:
        if line.startswith("edges: [") and line.endswith("]"):
            return [item for item in line[len("edges: ["):-1].split(", ") if item]
    if "edges:" not in lines:
        return []
    after = lines[lines.index("edges:") + 1:]
    return [line.strip()[2:] for line in after if line.strip().startswith("- ")]


def write(tmp_path: Path, text: str | bytes, name: str = "p.yaml") -> Path:
    """Write a spec (text as UTF-8, or raw bytes) into ``tmp_path`` and return its path."""
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path
