"""Synthetic fact swaps for Role C's fact check: a stress test, not an evaluation set.

Usage: role-c-factswaps.py BOOK ENTDIR OUT N SEED

Writes up to N planted fact cases (Part B's record shape plus "kind") to OUT. Each
takes a sentence of the corpus book BOOK, in a chapter where ENTDIR's entity files
declare KEY = VALUE for an entity X (base facts updated by the progressions up to
that chapter; status and location are the state check's), that names X (name or
alias) and contains VALUE, and puts another value of the same kind in VALUE's
place: a number gets another number in the same script and unit (七十五 for 八十五,
ten thousand a year for six thousand a year); any other value gets the value of
the same KEY of another entity, or X's own value of KEY at another chapter, that
the book writes somewhere (賈政 for 賈赦, Netherfield for Longbourn). "expected"
names X's file, KEY and VALUE only.

With PRED=1 in the environment, only sentences that join X's name and VALUE by a
predicating link are kept (pred_link below: a possessive and a noun, an apposition,
a copula or "had", "of"/"in" and the like, a relative clause; in Chinese at most
three characters with no stop between): a measure of the readings on statements
of the fact, where the default cases are mostly visits and mentions. Without PRED
the cases are byte for byte those of before, and their figures read as before.

This is a floor, not a ceiling: a sentence that names X and contains VALUE does not
always predicate VALUE of X (賈政 may be named as the speaker beside 寶玉, Longbourn
as the place the Bennets drive to, not where Elizabeth lives), so some cases plant
no error at all. "kind" says KEY, whether the value was a number or an entity, and
whether it stood in quoted speech, to read the figure by. Read by hand, the first
20 cases of SET=fresh8 SEED=1: 紅樓夢 7 state the fact outright (襲人的哥哥花自芳,
賈蓉的先妻秦氏, 我今年七十五了), 4 imply it (回瀟湘館來), 9 do not (賈赦的家宴 beside
賈璉); 西遊記 13 outright (本是西海龍王敖閏之子, 沙僧橫擔著降妖寶杖), 5 implied
(早至碗子山波月洞捉獲黃袍怪), 2 not.
"""
import json, os, random, re, sys

from swapcases import load_entities, paragraphs_around, read_chapters

book, entdir, out, n, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
rnd = random.Random(seed)
chapters = read_chapters(book)
whole = '\n'.join(chapters.values())
cjk = book in ('hongloumeng', 'xiyouji')
STATE_KEYS = {'status', 'location'}

ents = load_entities(entdir, ['characters', 'locations'], cjk)
all_forms = sorted({f for e in ents for f in e['forms']}, key=len, reverse=True)

def facts_at(e, ch):
    facts = {k: v for k, v in e['facts'].items()}
    for p in e['progs']:
        if p.get('chapter', 0) <= ch:
            facts.update({k: v for k, v in p.items() if k != 'chapter'})
    return {k: v for k, v in facts.items() if k not in STATE_KEYS and v is not None}

def values_of(e, key):
    vs = [e['facts'][key]] if key in e['facts'] else []
    vs += [p[key] for p in e['progs'] if key in p]
    return [str(v) for v in vs]

# Numbers: Chinese numerals and English number words.
CN_DIGITS = '一二三四五六七八九'
CN_NUM = CN_DIGITS + '十百千萬兩零'
EN_UNITS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']
EN_TEENS = ['ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen']
EN_TENS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety']
EN_CLASSES = [EN_UNITS, EN_TEENS, EN_TENS]

def cn_numeral(k):
    if k < 10:
        return CN_DIGITS[k - 1] if k else '零'
    if k < 100:
        t, u = divmod(k, 10)
        return ('' if t == 1 else CN_DIGITS[t - 1]) + '十' + (CN_DIGITS[u - 1] if u else '')
    h, r = divmod(k, 100)
    return CN_DIGITS[h - 1] + '百' + ('' if not r else ('零' + cn_numeral(r) if r < 10 else ('一' + cn_numeral(r) if r < 20 else cn_numeral(r))))

def en_numeral(k):
    if k < 10:
        return EN_UNITS[k - 1]
    if k < 20:
        return EN_TEENS[k - 10]
    t, u = divmod(k, 10)
    return EN_TENS[t - 2] + ('-' + EN_UNITS[u - 1] if u else '')

def written(v):
    """The ways the book may write a declared value: an integer in its script."""
    if isinstance(v, int) and not isinstance(v, bool) and 0 < v < 1000:
        return [cn_numeral(v)] if cjk else [en_numeral(v)] if v < 100 else [str(v)]
    s = str(v)
    forms = [s]
    if not cjk and s[:1].islower():
        forms.append(s[:1].upper() + s[1:])
    return forms

def renumber(s):
    """Another number in the same script and unit, or None when s holds none."""
    if cjk:
        idx = [i for i, c in enumerate(s) if c in CN_DIGITS]
        if idx:
            i = rnd.choice(idx)
            return s[:i] + rnd.choice([d for d in CN_DIGITS if d != s[i]]) + s[i + 1:]
        m = re.search('[' + CN_NUM + ']+', s)
        if m:
            new = rnd.choice([x for x in ('三', '五', '八', '十二', '二十') if x != m.group(0)])
            return s[:m.start()] + new + s[m.end():]
        return None
    words = list(re.finditer(r'[A-Za-z]+', s))
    for m in words:
        w = m.group(0).lower()
        for cls in EN_CLASSES:
            if w in cls:
                others = [x for x in cls if x != w and not re.search(r'\b' + x + r'\b', s, re.I)]
                new = rnd.choice(others)
                if m.group(0)[0].isupper():
                    new = new.capitalize()
                return s[:m.start()] + new + s[m.end():]
    return None

def is_number(v):
    return (isinstance(v, int) and not isinstance(v, bool)) or renumber(str(v)) is not None

ABBR = re.compile(r'(?:Mr|Mrs|Dr|St|Messrs|Mme|Mlle|Col|Capt|Gen)\.$')

def sentence(text, i, j):
    """The bounds of the sentence holding text[i:j]."""
    stops = '．。！？；!?\n' if cjk else '.!?\n'
    a = i
    while a > 0:
        c = text[a - 1]
        if c in stops and not (c == '.' and ABBR.search(text[max(0, a - 7):a])):
            break
        a -= 1
    b = j
    while b < len(text):
        c = text[b]
        if c in stops and not (c == '.' and ABBR.search(text[max(0, b - 6):b + 1])):
            break
        b += 1
    return a, b

def occurrences(text, form, a=0, b=None):
    b = len(text) if b is None else b
    pat = re.escape(form) if cjk else r'(?<![\w’\'])' + re.escape(form) + r'(?![\w’\'])'
    return [(m.start(), m.end()) for m in re.compile(pat).finditer(text, a, b)]

def claimed(text, a, b):
    """Spans of declared forms in text[a:b], longest first, none overlapping."""
    spans = []
    for f in all_forms:
        for s, e in occurrences(text, f, a, b):
            if not any(s < e2 and s2 < e for s2, e2, _ in spans):
                spans.append((s, e, f))
    return spans

def quoted(text, i):
    opens = '“「『"' if cjk else '“'
    closes = '”」』"' if cjk else '”'
    para = text.rfind('\n', 0, i) + 1
    depth = 0
    for c in text[para:i]:
        if c in opens and not (c == '"' and depth):
            depth += 1
        elif c in closes and depth:
            depth -= 1
    return depth > 0

def replacements(e, key, v):
    if is_number(v):
        s = written(v)[0] if not isinstance(v, str) else v
        return 'number', [None]
    sv = str(v)
    others = [str(o.get('facts', {}).get(key)) for o in ents if o is not e and key in o['facts']]
    others += [str(p[key]) for o in ents if o is not e for p in o['progs'] if key in p]
    own = [x for x in values_of(e, key) if x != sv]
    cands = []
    for x in others + own:
        if x and x != sv and x not in sv and sv not in x and x not in cands and x in whole and not is_number(x):
            cands.append(x)
    return 'entity', cands

PRED = os.environ.get('PRED') == '1'
W = r"[\w’'-]+"
PRED_LINKS = [re.compile(p) for p in (
    r"^[’']s (" + W + r" ){0,2}" + W + r",? (the )?$",                              # Pierre’s father, | Mr. Darcy’s estate
    r"^, (the |a |an |his |her )?(" + W + r" ){0,4}(of |in |to |at |as )?(the )?$",  # Dólokhov, an officer of the
    r"^,? (was|is|became|had been|has been)( " + W + r"){0,3} ((of|as) )?(the |a |an )?$",  # was now an officer of the
    r"^,? (who )?(has|had) $",                                                      # one who had six thousand a year
    r"^ (of|in|at|from) (the )?$",                                                   # Mr. Darcy of | Longbourn in
    r"^, (who|which|that) (is|was|has|had|lived|lives|came) (" + W + r" ){0,3}$",
    r"^, near " + W + r"( " + W + r")?, $",                                           # Hunsford, near Westerham,
    r"^,? (the )?$",                                                                 # the quartermaster general, Kutúzov
)]

def pred_link(text, xs, xe, vs, ve):
    """Whether the name at text[xs:xe] and the value at text[vs:ve] are joined by a predicating link."""
    gap = text[xe:vs] if xe <= vs else text[ve:xs]
    if cjk:
        return len(gap) <= 3 and not re.search('[，。！？；：、「」『』“”]', gap)
    if len(gap) > 60:
        return False
    if xe > vs:  # the value first: an apposition or a title before the name
        return bool(re.match(r"^,? (the )?$|^ $|^,? (" + W + r" ){0,2}" + W + r"[’']s " + W + r",? $", gap))
    return any(p.match(gap) for p in PRED_LINKS)

# Every (chapter, entity, key, value occurrence) where the sentence names the entity.
groups = {}
for ch, text in chapters.items():
    body = text.find('\n') + 1
    for e in ents:
        for key, v in facts_at(e, ch).items():
            forms_v = written(v)
            if any(len(f) < (2 if cjk else 3) for f in forms_v):
                continue
            for fv in forms_v:
                for vs, ve in occurrences(text, fv, body):
                    a, b = sentence(text, vs, ve)
                    spans = claimed(text, a, b)
                    # The value must not be part of a longer declared form, nor of X's own name.
                    if any(s <= vs and ve <= e2 and f != fv for s, e2, f in spans):
                        continue
                    if any(s < ve and vs < e2 and not (s == vs and e2 == ve) for s, e2, f in spans):
                        continue
                    if not any(f in e['forms'] and not (s < ve and vs < e2) for s, e2, f in spans):
                        continue
                    if PRED and not any(f in e['forms'] and not (s < ve and vs < e2) and pred_link(text, s, e2, vs, ve)
                                        and not any(s3 != s and min(e2, ve) <= s3 < max(s, vs) for s3, _, _ in spans)
                                        for s, e2, f in spans):
                        continue
                    groups.setdefault((e['path'], key), []).append((ch, vs, ve, fv, v))

cases, seen = [], set()
keys = list(groups)
rnd.shuffle(keys)
for g in keys:
    rnd.shuffle(groups[g])
while len(cases) < n and any(groups.values()):
    for g in keys:
        if len(cases) >= n or not groups[g]:
            continue
        path, key = g
        e = next(x for x in ents if x['path'] == path)
        ch, vs, ve, fv, v = groups[g].pop()
        text = chapters[ch]
        if (ch, vs) in seen:
            continue
        cut = paragraphs_around(text, vs, ve)
        if cut is None:
            continue
        a, b = cut
        orig = text[a:b]
        what, cands = replacements(e, key, v)
        if what == 'number':
            new = renumber(fv)
        else:
            cands = [x for x in cands if x not in orig]
            new = rnd.choice(cands) if cands else None
        if not new or new == fv:
            continue
        off = vs - a
        mod = orig[:off] + new + orig[off + len(fv):]
        seen.add((ch, vs))
        where = 'quoted' if quoted(text, vs) else 'narration'
        cases.append({'id': f'{book}-f{len(cases):03d}', 'book': book, 'chapter': ch, 'type': 'fact',
                      'original_excerpt': orig, 'modified_excerpt': mod, 'span': [off, off + len(new)],
                      'planted': new, 'expected': f'{path}: {key} = {v} (as of chapter {ch})',
                      'kind': f'{key}/{what}/{where}'})
with open(out, 'w', encoding='utf-8') as f:
    for c in cases:
        f.write(json.dumps(c, ensure_ascii=False) + '\n')
