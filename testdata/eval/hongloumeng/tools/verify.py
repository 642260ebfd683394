#!/usr/bin/env python3
"""Mechanical checks for /work/data-hlm: planted.jsonl against the corpus and the entity files."""
import glob, json, os, re, sys
import yaml

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../../../shared/corpus/hongloumeng/')
T = {i: open(CORPUS + '%03d.txt' % i, encoding='utf-8').read() for i in range(1, 121)}
ALL = ''.join(T.values())
errors = []
def err(*a):
    errors.append(' '.join(str(x) for x in a))

def front(path):
    s = open(path, encoding='utf-8').read()
    m = re.match(r'^---\n(.*?)\n---\n(.*)$', s, re.S)
    assert m, path
    return yaml.safe_load(m.group(1)), m.group(2)

ENT = {}
for p in sorted(glob.glob(os.path.join(ROOT, 'entities', '*', '*.md'))):
    key = os.path.relpath(p, ROOT)[:-3]
    meta, body = front(p)
    ENT[key] = meta
    for f in ('name', 'aliases', 'kind', 'facts', 'relations'):
        if f not in meta:
            err('missing field', f, key)
    if len(body.strip()) < 80:
        err('short description', key)
    st = [meta['facts'].get('status')] + [pr['facts'].get('status') for pr in meta.get('progressions', []) if 'status' in pr['facts']]
    for s in st:
        if s is not None and s not in ('present', 'away', 'dead'):
            err('bad status', key, s)
    chs = [pr['chapter'] for pr in meta.get('progressions', [])]
    if chs != sorted(chs):
        err('progressions not sorted', key)
    for r in meta.get('relations', []):
        if r['to'] not in ENT and not os.path.exists(os.path.join(ROOT, r['to'] + '.md')):
            err('relation target missing', key, r['to'])
    # the canonical name (or at least one alias) should occur in the corpus
    if meta['kind'] != 'meta' and not any(n in ALL for n in [meta['name']] + meta['aliases']):
        err('name not in corpus', key)

def facts_at(key, ch):
    m = ENT[key]
    f = dict(m['facts'])
    for pr in m.get('progressions', []):
        if pr['chapter'] <= ch:
            f.update(pr['facts'])
    return f

NAMES = {}
for k, m in ENT.items():
    for n in [m['name']] + m['aliases']:
        NAMES.setdefault(str(n), set()).add(k)

wr, _ = front(os.path.join(ROOT, 'meta', 'world-rules.md'))
FORB = wr['forbidden']
for w in FORB:
    if w in ALL:
        err('forbidden term occurs in corpus', w)

def lev(a, b):
    d = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, d[0] = d[0], i
        for j, y in enumerate(b, 1):
            cur = min(d[j] + 1, d[j - 1] + 1, prev + (x != y))
            prev, d[j] = d[j], cur
    return d[-1]

cases = [json.loads(l) for l in open(os.path.join(ROOT, 'planted.jsonl'), encoding='utf-8')]
bytype = {}
for c in cases:
    cid, ch, typ = c['id'], c['chapter'], c['type']
    bytype[typ] = bytype.get(typ, 0) + 1
    o, mo, (s, e), pl = c['original_excerpt'], c['modified_excerpt'], c['span'], c['planted']
    if o not in T[ch]:
        err(cid, 'original not verbatim in chapter', ch)
    if not 300 <= len(o) <= 1500:
        err(cid, 'original length', len(o))
    if mo[s:e] != pl:
        err(cid, 'span does not slice to planted')
    # minimal differing region must lie inside the span
    p = 0
    while p < min(len(o), len(mo)) and o[p] == mo[p]:
        p += 1
    q = 0
    while q < min(len(o), len(mo)) - p and o[-1 - q] == mo[-1 - q]:
        q += 1
    if not (s <= p and len(mo) - q <= e):
        err(cid, 'difference outside span', p, len(mo) - q, s, e)
    if o == mo:
        err(cid, 'no change')
    if any(w in o for w in FORB):
        err(cid, 'forbidden term in original')
    exp = c['expected']
    m = re.match(r'(entities/(?:characters|locations)/[a-z-]+)', exp) or re.search(r'\((entities/[a-z]+/[a-z-]+)\)', exp)
    if typ != 'world':
        if not m or m.group(1) not in ENT:
            err(cid, 'expected entity not found', exp); continue
        key = m.group(1)
    if typ == 'name':
        right = re.search(r'should be (\S+)', exp).group(1)
        if key not in NAMES.get(right, set()):
            err(cid, 'right name not declared for', key, right)
        if pl in NAMES:
            err(cid, 'misspelling is itself a declared name', pl)
        if pl in ALL:
            err(cid, 'misspelling occurs in corpus', pl)
        if not 1 <= lev(pl, right) <= 2:
            err(cid, 'edit distance', pl, right, lev(pl, right))
    elif typ == 'fact':
        fm = re.search(r'facts\.(\S+) = (\S+) as of ch\.(\d+)', exp)
        k, v, asof = fm.group(1), fm.group(2), int(fm.group(3))
        f = facts_at(key, ch)
        if asof != ch:
            err(cid, 'as-of chapter mismatch')
        if str(f.get(k)) != v:
            err(cid, 'fact mismatch', key, k, f.get(k), v)
        if v in pl:
            err(cid, 'planted value equals declared value')
    elif typ == 'state':
        sm = re.search(r'status (away|dead)', exp)
        f = facts_at(key, ch)
        if f.get('status') != sm.group(1):
            err(cid, 'status as of chapter is', f.get('status'), 'not', sm.group(1))
        names = [ENT[key]['name']] + ENT[key]['aliases']
        hit = [n for n in names if len(n) >= 2 and n in o]
        if hit:
            err(cid, 'absent character mentioned in original', hit)
        if not any(n in pl for n in names):
            err(cid, 'planted text does not name the character')
    elif typ == 'world':
        if not any(w in pl for w in FORB):
            err(cid, 'no forbidden term in planted')
        wm = re.search(r"forbids '(\S+)'", exp)
        if not wm or wm.group(1) not in FORB or wm.group(1) not in pl:
            err(cid, 'expected term mismatch')

chs = sorted({c['chapter'] for c in cases})
print('entities:', len(ENT), '(characters %d, locations %d)' % (
    sum(k.startswith('entities/characters') for k in ENT), sum(k.startswith('entities/locations') for k in ENT)))
print('cases:', len(cases), bytype, 'distinct chapters:', len(chs), chs[0], '-', chs[-1])
print('ids unique:', len({c['id'] for c in cases}) == len(cases))
if errors:
    print('\n'.join(errors)); sys.exit(1)
print('OK')
