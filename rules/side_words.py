"""A side or team named as the subject of a sentence, with its verb agreeing: "Marines go first",
"PLA Marine Corps goes first", "Insurgents have initiative" (pure; every rule system's narration)."""
from __future__ import annotations

#: Verbs whose plural is not the singular without its last "s".
_IRREGULAR = {"goes": "go", "has": "have", "is": "are", "does": "do", "was": "were"}
#: Names that end in "s" and are still one thing.
_SINGULAR_ENDINGS = ("ss", "us", "corps", "os")


def is_plural(name: str) -> bool:
    """Whether a side's name reads as plural ("Marines", "Insurgents"; not "PLA Marine Corps", "US").

    >>> [is_plural(n) for n in ("Marines", "PLA Marine Corps", "US Army", "Insurgents", "US", "Red")]
    [True, False, False, True, False, False]
    """
    last = name.strip().split(" ")[-1] if name.strip() else ""
    return last.endswith("s") and not last.lower().endswith(_SINGULAR_ENDINGS) and not last.isupper()


def side_does(name: str, verb: str) -> str:
    """``name`` and ``verb`` (given as for one: "goes", "has", "wins") agreeing.

    >>> side_does("Marines", "goes"), side_does("PLA Marine Corps", "goes"), side_does("Insurgents", "has")
    ('Marines go', 'PLA Marine Corps goes', 'Insurgents have')
    >>> side_does("Insurgents", "chooses"), side_does("Insurgents", "is")
    ('Insurgents choose', 'Insurgents are')
    """
    if not is_plural(name):
        return f"{name} {verb}"
    return f"{name} {_IRREGULAR.get(verb, verb[:-1] if verb.endswith('s') else verb)}"
