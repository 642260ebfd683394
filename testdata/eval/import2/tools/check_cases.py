#!/usr/bin/env python3
"""Checks every case: strict decoding in the stated encoding (and BOM), then that arcs, chapters and
extras occur in order: each heading as a whole line after the previous match (then heading_title if
given), followed by text whose first non-whitespace characters equal starts_with. Folder cases are
read in numeric file-name order. Also checks numbering rules. Exit code 1 on any error."""
import json, os, re, sys
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CODEC = {'utf-8': 'utf-8', 'utf-8-bom': 'utf-8', 'utf-16le': 'utf-16-le', 'utf-16be': 'utf-16-be',
         'gb18030': 'gb18030', 'big5': 'big5'}
BOMS = {b'\xef\xbb\xbf': 'utf-8-bom', b'\xff\xfe': 'utf-16le', b'\xfe\xff': 'utf-16be'}

def decode(path, enc):
    raw = open(path, 'rb').read()
    found = next((name for b, name in BOMS.items() if raw.startswith(b)), None)
    if enc in ('utf-8-bom', 'utf-16le', 'utf-16be'):
        if found != enc: raise ValueError(f'{path}: expected BOM for {enc}, found {found}')
    elif found: raise ValueError(f'{path}: unexpected BOM {found}')
    text = raw.decode(CODEC[enc], errors='strict')
    return text.lstrip('\ufeff') if enc in ('utf-8-bom', 'utf-16le', 'utf-16be') else text

def nws_from(lines, i):
    return ''.join(''.join(lines[i:i + 40]).split())

def check(case):
    d = os.path.join(ROOT, case)
    exp = json.load(open(os.path.join(d, 'expected.json'), encoding='utf-8'))
    errs = []
    files = sorted(os.listdir(os.path.join(d, 'input')),
                   key=lambda f: (int(re.search(r'\d+', f).group()) if re.search(r'\d+', f) else 0, f))
    lines = []
    for f in files:
        try:
            t = decode(os.path.join(d, 'input', f), exp['encoding'])
        except Exception as e:
            return [f'decode: {e}']
        if len(files) > 1: lines.append('\x00FILE')   # file boundary marker
        lines += re.split(r'\r\n|\r|\n', t)
    chs = exp['chapters']
    # numbering rules
    nums = [c['number'] for c in chs]
    if any(c['kind'] == 'prologue' for c in chs) and (chs[0]['kind'] != 'prologue' or chs[0]['number'] != 0):
        errs.append('prologue must be first and numbered 0')
    if any(c['kind'] == 'epilogue' for c in chs[:-1]): errs.append('epilogue must be last')
    body = [n for c, n in zip(chs, nums) if c['kind'] != 'prologue']   # book numbering may start mid-book
    if body != list(range(body[0], body[0] + len(body))): errs.append(f'numbers not consecutive: {nums}')
    # ordered walk
    items = []
    for c in chs:
        for a in exp['arcs']:
            if a['first_chapter'] == c['number']: items.append(('arc', a))
        items.append(('chapter', c))
    items += [('extra', e) for e in exp['extras']]
    if len([i for i in items if i[0] == 'arc']) != len(exp['arcs']): errs.append('arc first_chapter not found')
    pos = 0
    for kind, it in items:
        h = it['heading']
        found = None
        if h == '':
            # untitled: the body starts a file (folder) or the manuscript (single file)
            if len(files) > 1:
                cand = [i + 1 for i in range(pos, len(lines)) if lines[i] == '\x00FILE'][:1]
            else:
                cand = [0] if pos == 0 else []
            for j in cand:
                if nws_from(lines, j).startswith(it['starts_with']): found = j
        else:
            for i in range(pos, len(lines)):
                if lines[i].strip() != h: continue
                j = i + 1
                if it.get('heading_title'):
                    while j < len(lines) and not lines[j].strip(): j += 1
                    if j >= len(lines) or lines[j].strip() != it['heading_title']: continue
                    j += 1
                if kind == 'arc' or nws_from(lines, j).replace('\x00FILE', '').startswith(it['starts_with']):
                    found = j; break
        if found is None:
            errs.append(f'{kind} {h!r} / {it.get("starts_with")!r} not found in order'); break
        pos = found
        if kind != 'arc' and len(it['starts_with']) != 12: errs.append(f'starts_with of {h!r} not 12 chars')
    return errs

def main():
    total = 0
    for case in sorted(x for x in os.listdir(ROOT) if re.fullmatch(r'case\d\d', x)):
        e = check(case)
        exp = json.load(open(os.path.join(ROOT, case, 'expected.json'), encoding='utf-8'))
        print(f"{case}: {exp['encoding']:9} chapters={len(exp['chapters']):2} arcs={len(exp['arcs'])} extras={len(exp['extras'])} "
              + ('OK' if not e else 'ERRORS: ' + '; '.join(e)))
        total += len(e)
    print('total errors:', total)
    sys.exit(1 if total else 0)

if __name__ == '__main__':
    main()
