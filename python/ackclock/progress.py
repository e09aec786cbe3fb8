"""Progress bars: tqdm's terminal bar, or its notebook widget inside Jupyter (tqdm.auto),
imported only when a bar is shown (tqdm takes about 20 ms to import)."""

from __future__ import annotations

import sys
from typing import Any


def in_notebook() -> bool:
    """True inside a Jupyter kernel (where stderr is not a terminal, yet a bar is wanted)."""
    return "ipykernel" in sys.modules


def show_progress(progress: bool | None) -> bool:
    """``progress`` as given, or for None: stderr is a terminal, or this is a notebook."""
    if progress is not None:
        return bool(progress)
    return sys.stderr.isatty() or in_notebook()


def tqdm_class() -> Any:
    """tqdm.auto's class in a notebook (a widget), tqdm's terminal bar elsewhere."""
    if in_notebook():
        from tqdm.auto import tqdm
    else:
        from tqdm import tqdm
    return tqdm
