import sys
from pathlib import Path

# Shared helpers (tests/classview_helpers.py) import by plain name, whatever pytest's import mode.
_TESTS = str(Path(__file__).resolve().parents[1])
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)
