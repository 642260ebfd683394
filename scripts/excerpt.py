"""Excerpts for the synthetic Role C cases (scripts/role-c-*swaps.py).

paragraphs_around cuts the excerpt a case is made in: whole paragraphs of a
chapter around a span, 300 to 1500 code points, never the heading line, as
the planted sets' originals are cut (../shared/eval/README.md, Part B).
"""


def paragraphs_around(text, start, end):
    """The (a, b) of text's paragraphs around [start, end), or None when
    no such excerpt holds the span."""
    a = text.rfind('\n\n', 0, start)
    a = 0 if a < 0 else a + 2
    a = max(a, text.find('\n') + 1)
    b = text.find('\n\n', start)
    b = len(text) if b < 0 else b
    while b - a < 300:
        nb = text.find('\n\n', b + 2)
        if nb < 0:
            break
        b = nb
    if b - a > 1500:
        a = max(a, start - 700)
        b = min(b, a + 1500)
    if b - a < 300 or not (a <= start and end <= b):
        return None
    return a, b
