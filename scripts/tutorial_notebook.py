"""Writes examples/tutorial.ipynb from docs/tutorial.md: its prose as Markdown cells, its
Python blocks as code cells (the checked outputs left out), so that the page and the notebook
are one study. tests/integration/test_newcomer.py checks the notebook is up to date and runs
it.

    python scripts/tutorial_notebook.py [--check]
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "tutorial.md"
NOTEBOOK = ROOT / "examples" / "tutorial.ipynb"


def notebook_text() -> str:
    import nbformat

    text = PAGE.read_text(encoding="utf-8")
    text = re.sub(r"<!--.*?-->\n", "", text)
    cells = []
    # Fenced blocks split the page; ```text blocks (checked outputs) are dropped.
    parts = re.split(r"^```(\w*)\n(.*?)^```\n", text, flags=re.S | re.M)
    prose = parts[0]
    for i in range(1, len(parts), 3):
        lang, code, after = parts[i], parts[i + 1], parts[i + 2]
        if prose.strip():
            cells.append(nbformat.v4.new_markdown_cell(prose.strip()))
        if lang == "python":
            cells.append(nbformat.v4.new_code_cell(code.rstrip("\n")))
        elif lang != "text":
            cells.append(nbformat.v4.new_markdown_cell(f"```{lang}\n{code}```"))
        prose = after
    if prose.strip():
        cells.append(nbformat.v4.new_markdown_cell(prose.strip()))
    nb = nbformat.v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    for k, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{k}"  # stable ids: the file changes only with the page
    return nbformat.writes(nb) + "\n"


def main() -> int:
    text = notebook_text()
    if "--check" in sys.argv[1:]:
        same = NOTEBOOK.is_file() and NOTEBOOK.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{NOTEBOOK} is out of date: run {sys.argv[0]}")
        return 0 if same else 1
    NOTEBOOK.write_text(text, encoding="utf-8")
    print(NOTEBOOK)
    return 0


if __name__ == "__main__":
    sys.exit(main())
