"""Synthetic state swaps for Role C's state check: a stress test, not an evaluation set.

Usage: role-c-stateswaps.py BOOK ENTDIR OUT N SEED

Writes up to N planted state cases (Part B's record shape plus "kind") to OUT. Each
takes a real passage of the corpus book BOOK where a declared character X, present as
of that chapter by ENTDIR's entity files, is named in the narration, and puts for that
name the name of a character Y who is away or dead as of the chapter and named nowhere
in the passage: the book's own sentence, now with someone in it who cannot be there.
Not every sentence that names X has X in the scene (the narration may recall or talk
of X), so some cases are no error at all and the figure is a floor; "kind" says
whether X opened its sentence, spoke, or stood elsewhere.
"""
import json, random, re, sys

from swapcases import load_entities, paragraphs_around, read_chapters

book, entdir, out, n, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
rnd = random.Random(seed)
chapters = read_chapters(book)
cjk = book in ('hongloumeng', 'xiyouji')

ents = load_entities(entdir, ['characters'], cjk)

def status(e, ch):
    facts = {k: str(v) for k, v in e['facts'].items()}
    for p in sorted(e['progs'], key=lambda p: p.get('chapter', 0)):
        if p.get('chapter', 0) <= ch:
            facts.update({k: str(v) for k, v in p.items() if k != 'chapter'})
    s = facts.get('status', '').lower()
    if 'dead' in s or 'died' in s:
        return 'dead', facts
    if 'away' in s:
        return 'away', facts
    return 'present', facts

def all_forms():
    fs = set()
    for e in ents:
        fs.update(e['forms'])
    return fs

def quoted(text, i):
    opens = '“「『"' if cjk else '“'
    closes = '”」』"' if cjk else '”'
    depth = 0
    for c in text[:i]:
        if c in opens and not (c == '"' and depth):
            depth += 1
        elif c in closes and depth:
            depth -= 1
    return depth > 0

cases, tries, seen = [], 0, set()
while len(cases) < n and tries < 40000:
    tries += 1
    ch = rnd.choice(list(chapters))
    text = chapters[ch]
    absent = [e for e in ents if status(e, ch)[0] != 'present']
    present = [e for e in ents if status(e, ch)[0] == 'present']
    if not absent or not present:
        continue
    x = rnd.choice(present)
    form = rnd.choice(x['forms'])
    pat = re.escape(form) if cjk else r'(?<![\w’\'])' + re.escape(form) + r'(?![\w’\'])'
    hits = [m.start() for m in re.finditer(pat, text) if not quoted(text, m.start())]
    # A longer declared form over the same place is that form's, not this one's.
    longer = [f for f in all_forms() if form in f and f != form]
    hits = [i for i in hits if not any(text.find(f, max(0, i - len(f)), i + len(f)) >= 0 and
                                        text.find(f, max(0, i - len(f)), i + len(f)) <= i < text.find(f, max(0, i - len(f)), i + len(f)) + len(f) for f in longer)]
    if not hits:
        continue
    i = rnd.choice(hits)
    cut = paragraphs_around(text, i, i + 1)
    if cut is None:
        continue
    a, b = cut
    orig = text[a:b]
    rnd.shuffle(absent)
    for y in absent:
        if any(f in orig for f in y['forms']) or (ch, y['path']) in seen:
            continue
        yform = y['forms'][0] if len(y['forms']) == 1 else sorted(y['forms'], key=lambda f: -text.count(f) - sum(c.count(f) for c in chapters.values()))[0]
        off = i - a
        mod = orig[:off] + yform + orig[off + len(form):]
        before = orig[:off].rstrip()
        kind = 'opens' if (not before or before[-1] in '.!?;\n．。！？；：:') else 'inside'
        st, facts = status(y, ch)
        exp = f"{y['path']}: status = {facts.get('status', '')}" + (f", location = {facts['location']}" if 'location' in facts else '') + f' (as of chapter {ch})'
        seen.add((ch, y['path']))
        cases.append({'id': f'{book}-z{len(cases):03d}', 'book': book, 'chapter': ch, 'type': 'state',
                      'original_excerpt': orig, 'modified_excerpt': mod, 'span': [off, off + len(yform)],
                      'planted': yform, 'expected': exp, 'kind': f'{st}/{kind}'})
        break
with open(out, 'w', encoding='utf-8') as f:
    for c in cases:
        f.write(json.dumps(c, ensure_ascii=False) + '\n')
