"""The numbers a chapter's prose states, formatted once and glued into the text (myst-nb).

A chapter computes its facts in a ``report`` module (a dict of name -> text) and glues them in
one call, :func:`glue_facts`; the prose reads them with ``{glue:text}`name```. Every number the
book states about our results comes from the results at build time this way.

Examples
--------
>>> number(1234.567)
'1,234.6'
>>> number(0.08, 2)
'0.08'
"""

from __future__ import annotations

from collections.abc import Mapping

from tutorlib.checks import check_scalar


def number(value: float, digits: int = 1) -> str:
    """``value`` as the prose states it: thousands separated by commas, ``digits`` decimals.

    Parameters
    ----------
    value : float
        The number.
    digits : int
        Decimals to keep (0 or more).

    Returns
    -------
    str
        The formatted number.
    """
    check_scalar(value, "value", float)
    check_scalar(digits, "digits", int, min_val=0)
    return f"{value:,.{digits}f}"


def glue_facts(facts: Mapping[str, object]) -> None:
    """Glue every ``name: value`` of ``facts`` into the book (myst-nb, not displayed here).

    Parameters
    ----------
    facts : mapping of str to object
        Names as the prose cites them, and their values (text, or a displayable object such
        as IPython's ``Markdown``).

    Returns
    -------
    None
    """
    from myst_nb import glue  # the book's extra: only chapters call this

    bad = [name for name in facts if not isinstance(name, str) or not name]
    if bad:
        raise TypeError(f"glue_facts: every name must be a non-empty string, got {bad[0]!r}")
    for name, value in facts.items():
        glue(name, value, display=False)


from tutorlib.checks import type_check as _type_check  # noqa: E402

_type_check(globals())
