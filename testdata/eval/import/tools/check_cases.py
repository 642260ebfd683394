#!/usr/bin/env python3
"""Checks every case: inputs decode strictly in the stated encoding (BOM as stated), and the expected
arcs / chapters / extras are found in the input in order: each heading as a whole line (surrounding
whitespace stripped), an optional heading_title on the next non-blank line, and starts_with as the
first 12 non-whitespace characters after it. Also: numbering rules, total non-ws coverage sanity."""
import json, os, re, sys, glob
BASE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOMS = {'utf-8-bom': b'\xef\xbb\xbf', 'utf-16le': b'\xff\xfe', 'utf-16be': b'\xfe\xff'}
CODEC = {'utf-8': 'utf-8', 'utf-8-bom': 'utf-8', 'utf-16le': 'utf-16-le', 'utf-16be': 'utf-16-be', 'gb18030': 'gb18030', 'big5': 'big5'}

def decode(path, enc):
    b = open(path, 'rb').read()
    for e, bom in BOMS.items():
        if b.startswith(bom) and e != enc:
            raise ValueError(f'{path}: BOM of {e} but stated {enc}')
    if enc in BOMS:
        if not b.startswith(BOMS[enc]): raise ValueError(f'{path}: missing BOM')
        b = b[len(BOMS[enc]):]
    return b.decode(CODEC[enc])  # strict

def nws(s): return ''.join(c for c in s if not c.isspace())

def numkey(f):
    m = re.findall(r'\d+', f)
    return (int(m[-1]) if m else -1, f)

errors = 0
def fail(case, msg):
    global errors; errors += 1; print(f'FAIL {case}: {msg}')

for d in sorted(glob.glob(f'{BASE}/case*/')):
    case = os.path.basename(d.rstrip('/'))
    exp = json.load(open(d + 'expected.json', encoding='utf-8'))
    files = sorted(os.listdir(d + 'input'), key=numkey)
    lines = []  # (file, line)
    for f in files:
        t = decode(d + 'input/' + f, exp['encoding'])
        if '\ufeff' in t: fail(case, 'stray BOM char')
        lines += [(f, l) for l in t.splitlines()]
    # sequence of all events in expected order: arcs interleaved before their first chapter
    events = []
    for ch in exp['chapters']:
        for a in exp['arcs']:
            if a['first_chapter'] == ch['number']: events.append(('arc', a))
        events.append(('chapter', ch))
    events += [('extra', e) for e in exp['extras']]
    starts = {}
    for i, (f, _) in enumerate(lines): starts.setdefault(f, i)
    def body_at(i):
        return nws(''.join(l for _, l in lines[i:i + 40]))
    def match(i, e):
        """heading line at i (or i itself for headingless) followed by title and starts_with?"""
        j = i
        if e['heading']:
            if lines[i][1].strip() != e['heading']: return None
            j = i + 1
        if 'heading_title' in e:
            while j < len(lines) and not lines[j][1].strip(): j += 1
            if j == len(lines) or lines[j][1].strip() != e['heading_title']: return None
            j += 1
        if e.get('starts_with') is not None and not body_at(j).startswith(e['starts_with']): return None
        return j
    pos = 0; nfile = 0
    for kind, e in events:
        if kind == 'chapter' and not e['heading'] and len(files) > 1:
            pos = starts[files[nfile]]
        if kind == 'chapter' and len(files) > 1: nfile += 1
        found = None
        for i in range(pos, len(lines)):
            found = match(i, e)
            if found is not None: break
        if found is None:
            fail(case, f'{kind} {e["heading"]!r} / {e.get("starts_with")!r} not found in order after line {pos}'); continue
        pos = found
        if kind != 'arc' and len(e['starts_with']) != 12:
            print(f'  note {case}: {kind} {e["heading"]!r} body shorter than 12 chars: {e["starts_with"]!r}')
    # numbering rules
    nums = [c['number'] for c in exp['chapters']]
    kinds = [c['kind'] for c in exp['chapters']]
    for i, (n, k) in enumerate(zip(nums, kinds)):
        if k == 'prologue' and (i != 0 or n != 0): fail(case, 'prologue must be first and 0')
        if k == 'epilogue' and i != len(nums) - 1: fail(case, 'epilogue must be last')
        if i and n != nums[i - 1] + 1: fail(case, f'numbers not consecutive at {n}')
    print(f'{case}: {exp["encoding"]:9s} files={len(files):2d} chapters={len(nums):2d} ({nums[0]}..{nums[-1]}) '
          f'arcs={len(exp["arcs"])} extras={len(exp["extras"])} lines={len(lines)}')
print('errors:', errors); sys.exit(1 if errors else 0)
