#!/usr/bin/env python3
"""Lists lines that look like headings but are not expected headings/arcs/extras (intended traps)."""
import json, os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_cases import decode, ROOT
PAT = re.compile(r'^\s*(#+|第\S{1,8}[章回節卷]|第[一二三四五六七八九十]|卷\S{1,3}$|(chapter|part|book|volume)\b|\d+\.?(\s|$)|[IVXLC]+\.?(\s|$)|prologue|epilogue|interlude|extra|楔子|序章|引子|尾聲|後記|番外|\*|—|-{3})', re.I)
for case in sorted(x for x in os.listdir(ROOT) if re.fullmatch(r'case\d\d', x)):
    exp = json.load(open(f'{ROOT}/{case}/expected.json', encoding='utf-8'))
    known = {c['heading'] for c in exp['chapters']} | {c.get('heading_title') for c in exp['chapters']} \
        | {a['heading'] for a in exp['arcs']} | {e['heading'] for e in exp['extras']}
    for f in sorted(os.listdir(f'{ROOT}/{case}/input')):
        for l in re.split(r'\r\n|\r|\n', decode(f'{ROOT}/{case}/input/{f}', exp['encoding'])):
            if l.strip() and l.strip() not in known and PAT.match(l):
                print(f'{case}: {l.strip()[:70]}')
