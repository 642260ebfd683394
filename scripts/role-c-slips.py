"""Synthetic name slips for Role C's name check: a stress test, not an evaluation set.

Usage: role-c-slips.py BOOK ENTDIR OUT N SEED

Writes N planted name cases (Part B's record shape plus "kind") to OUT: a declared
name or alias of ENTDIR's entity files, found in a real passage of the corpus book
BOOK, with one slip put into it. Chinese: one character replaced by another of the
same toneless reading that the book writes at least 30 times (what a pinyin input
method offers), at any position. English: one vowel changed, a letter dropped,
doubled, or two neighbours swapped. A slip the book writes anywhere, or that is a
declared name, is not used. The readings come from the same Unihan data the checker
uses, so this measures coverage of positions and names, not the choice of pairs;
the held-out sets written by hand judge that.
"""
import sys, os, re, json, random, gzip, glob
book, entdir, out, n, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
rnd = random.Random(seed)
corpus = os.path.join(os.environ.get('SHARED', os.path.join(os.path.dirname(__file__), '..', '..', 'shared')), 'corpus', book)
chapters = {}
for f in sorted(glob.glob(corpus + '/[0-9][0-9][0-9].txt')):
    chapters[int(os.path.basename(f)[:3])] = open(f, encoding='utf-8').read()
whole = '\n'.join(chapters.values())
cjk = book in ('hongloumeng', 'xiyouji')
names = []
for f in glob.glob(entdir + '/entities/characters/*.md') + glob.glob(entdir + '/entities/locations/*.md'):
    t = open(f, encoding='utf-8').read()
    m = re.search(r'^name:\s*"?([^"\n]+)"?', t, re.M)
    al = re.search(r'^aliases:\s*\[(.*)\]', t, re.M)
    forms = [m.group(1).strip()] if m else []
    if al:
        forms += [a.strip().strip('"\'') for a in al.group(1).split(',')]
    names += [(os.path.relpath(f, entdir), x) for x in forms if x]
declared = set(x for _, x in names)
readings = {}
if cjk:
    for line in gzip.open(os.path.join(os.path.dirname(__file__), '..', 'agent', 'factcheck', 'hanzi', 'data', 'pinyin.txt.gz'), 'rt', encoding='utf-8'):
        syl, chars = line.rstrip('\n').split(' ', 1)
        for c in chars:
            readings.setdefault(c, set()).add(syl)
    freq = {}
    for c in whole:
        freq[c] = freq.get(c, 0) + 1
    bysyl = {}
    for c, ss in readings.items():
        if freq.get(c, 0) >= 30:
            for s in ss:
                bysyl.setdefault(s, []).append(c)
def slips(form):
    out = []
    if cjk:
        for p, c in enumerate(form):
            for s in readings.get(c, ()):
                for d in bysyl.get(s, []):
                    if d != c:
                        out.append((form[:p] + d + form[p+1:], f'pos{p}/{len(form)}'))
    else:
        for w in re.findall(r"[A-Z][a-zé-ú]{3,}", form):
            if w in ('Miss', 'Lady', 'Prince', 'Princess', 'Count', 'Countess', 'Colonel', 'Captain', 'General'):
                continue
            L = len(w)
            for i in range(1, L):
                if w[i] in 'aeiou':
                    for v in 'aeiou':
                        if v != w[i]: out.append((w[:i] + v + w[i+1:], 'vowel', w))
                out.append((w[:i] + w[i+1:], 'drop', w))
                out.append((w[:i] + w[i] + w[i:], 'double', w))
                if i < L - 1:
                    out.append((w[:i] + w[i+1] + w[i] + w[i+2:], 'swap', w))
    return out
cases = []
tries = 0
while len(cases) < n and tries < 20000:
    tries += 1
    path, form = rnd.choice(names)
    if cjk and (len(form) < 2 or not all('\u4e00' <= c <= '\u9fff' for c in form)):
        continue
    if not cjk and len(form) < 4:
        continue
    ch = rnd.choice(list(chapters))
    text = chapters[ch]
    idx = [m.start() for m in re.finditer(re.escape(form), text)]
    if not cjk:
        idx = [i for i in idx if (i == 0 or not text[i-1].isalpha()) and (i + len(form) >= len(text) or not text[i+len(form)].isalpha())]
    if not idx:
        continue
    i = rnd.choice(idx)
    # excerpt: paragraphs around i, 300..1500 code points
    a = text.rfind('\n\n', 0, i); a = 0 if a < 0 else a + 2
    b = text.find('\n\n', i); b = len(text) if b < 0 else b
    while b - a < 300:
        nb = text.find('\n\n', b + 2)
        if nb < 0: break
        b = nb
    if b - a > 1500:
        a = max(a, i - 700); b = min(b, a + 1500)
    if b - a < 300 or a == 0 and text[:a+1] == '':
        continue
    if a < text.find('\n') + 1:  # keep the heading out
        a = text.find('\n') + 1
    orig = text[a:b]
    if len(orig) < 300:
        continue
    cand = slips(form)
    rnd.shuffle(cand)
    # The heading is kept out above, which can leave a name of the heading
    # line outside the excerpt: such a draw is dropped here, after the
    # shuffle, so that every other case a seed makes stays what it was.
    if i < a or i + len(form) > b:
        continue
    for c in cand:
        if cjk:
            new, kind = c
            if new in whole or new in declared:
                continue
            planted, off, span_len = new, i - a, len(form)
        else:
            new, kind, w = c
            if re.search(r'\b' + re.escape(new) + r'\b', whole, re.I) or new in declared:
                continue
            wi = form.index(w)
            planted, off, span_len = new, i - a + wi, len(w)
        mod = orig[:off] + planted + orig[off+span_len:]
        cases.append({'id': f'{book}-s{len(cases):03d}', 'book': book, 'chapter': ch, 'type': 'name',
                      'original_excerpt': orig, 'modified_excerpt': mod, 'span': [off, off + len(planted)],
                      'planted': planted, 'expected': f'{path}: {form}', 'kind': kind})
        break
with open(out, 'w', encoding='utf-8') as f:
    for c in cases:
        f.write(json.dumps(c, ensure_ascii=False) + '\n')
