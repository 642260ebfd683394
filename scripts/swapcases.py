"""What the synthetic Role C case generators share (scripts/role-c-*swaps.py).

read_chapters reads a corpus book; load_entities reads an entity set's files; paragraphs_around cuts the
excerpt a case is made in: whole paragraphs of a chapter around a span, 300
to 1500 code points, never the heading line, as the planted sets' originals
are cut (../shared/eval/README.md, Part B).
"""

import glob
import os

import yaml


def read_chapters(book):
    """The chapters of the corpus book, by number: ../shared/corpus/<book>/NNN.txt,
    or $SHARED/corpus/<book>."""
    shared = os.environ.get('SHARED', os.path.join(os.path.dirname(__file__), '..', '..', 'shared'))
    corpus = os.path.join(shared, 'corpus', book)
    return {int(os.path.basename(f)[:3]): open(f, encoding='utf-8').read()
            for f in sorted(glob.glob(corpus + '/[0-9][0-9][0-9].txt'))}


def load_entities(entdir, kinds, cjk):
    """The entity files of entdir's entities/<kind>/ folders, in path order:
    each a dict of its path (relative to entdir), its name forms long enough
    to stand alone (two characters, three letters), its facts and its
    progressions in chapter order. A file whose front matter does not parse
    is left out."""
    ents = []
    paths = []
    for kind in kinds:
        paths += glob.glob(os.path.join(entdir, 'entities', kind, '*.md'))
    for f in sorted(paths):
        t = open(f, encoding='utf-8').read()
        try:
            fm = yaml.safe_load(t.split('---')[1]) or {}
        except (yaml.YAMLError, IndexError):
            continue
        forms = [str(fm.get('name', ''))] + [str(a) for a in fm.get('aliases') or []]
        forms = [x for x in forms if len(x) >= (2 if cjk else 3)]
        progs = [p for p in fm.get('progressions') or [] if isinstance(p, dict)]
        ents.append({'path': os.path.relpath(f, entdir), 'forms': forms, 'facts': fm.get('facts') or {},
                     'progs': sorted(progs, key=lambda p: p.get('chapter', 0))})
    return ents


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
