#!/usr/bin/env python3
"""Generate hongloumeng-planted.jsonl: passages of 红楼梦 (the corpus in
../../../shared/corpus/hongloumeng) with one planted error each, in the form
of shared/eval/README.md part B, checked against hongloumeng/ (entities in
simplified characters, text in traditional ones). Run from this folder."""
import json, os, re, sys

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'shared', 'corpus', 'hongloumeng')

def paragraphs(ch):
    text = open(os.path.join(CORPUS, '%03d.txt' % ch), encoding='utf-8').read()
    for p in text.split('\n\n')[1:]:
        p = p.strip('\n')
        if 200 <= len(p) <= 1500 and p in text:
            yield p

def plant(cid, typ, chapters, find, planted, expected, insert=False, after=None):
    """after: characters one of which must precede the found text."""
    for ch in chapters:
        for p in paragraphs(ch):
            i = p.find(find)
            while i > 0 and after is not None and p[i - 1] not in after:
                i = p.find(find, i + 1)
            if i < 0:
                continue
            if insert:
                mod = p[:i] + planted + p[i:]
                span = [i, i + len(planted)]
            else:
                mod = p[:i] + planted + p[i + len(find):]
                span = [i, i + len(planted)]
            assert mod[span[0]:span[1]] == planted
            return dict(id=cid, book='hongloumeng', chapter=ch, type=typ, original_excerpt=p,
                        modified_excerpt=mod, span=span, planted=planted, expected=expected)
    sys.exit('no passage for %s' % cid)

cases = [
    plant('hlm-c-01', 'name', range(3, 10), '林黛玉', '林黛王', 'misspelled name; should be 林黛玉 (entities/characters/lin-daiyu)'),
    plant('hlm-c-02', 'name', range(8, 20), '薛寶釵', '薛寶柴', 'misspelled name; should be 薛寶釵 (entities/characters/xue-baochai)'),
    plant('hlm-c-03', 'name', range(3, 30), '王熙鳳', '王熙風', 'misspelled name; should be 王熙鳳 (entities/characters/wang-xifeng)'),
    plant('hlm-c-04', 'fact', range(39, 41), '劉姥姥因', '劉姥姥今年已八十歲了，', 'entities/characters/liu-laolao facts.年纪 = 75', insert=True),
    plant('hlm-c-05', 'fact', range(20, 30), '鳳姐', '鳳姐生有三個女兒，', 'entities/characters/wang-xifeng facts.女儿 = 1', insert=True),
    plant('hlm-c-06', 'state', range(100, 110), '寶玉道', '黛玉道', 'entities/characters/lin-daiyu status dead since ch.99', after='．。，：”"'),
    plant('hlm-c-07', 'state', range(116, 121), '平儿道', '鳳姐道', 'entities/characters/wang-xifeng status dead since ch.115', after='．。，：”"'),
    plant('hlm-c-08', 'state', range(80, 95), '麝月道', '晴雯道', 'entities/characters/qingwen status dead since ch.78', after='．。，：”"'),
    plant('hlm-c-09', 'world', range(20, 30), '寶玉', '寶玉拿出手機看了一眼，', 'meta/world-rules.md forbids 手机', insert=True),
    plant('hlm-c-10', 'world', range(40, 50), '鳳姐', '鳳姐打了個電話，', 'meta/world-rules.md forbids 电话', insert=True),
]
for c in cases:
    # The planted text must be the only difference.
    assert c['original_excerpt'] != c['modified_excerpt']
# The planted name of a state case must not shadow the original's speaker twice.
with open('hongloumeng-planted.jsonl', 'w', encoding='utf-8') as f:
    for c in cases:
        f.write(json.dumps(c, ensure_ascii=False) + '\n')
print(len(cases), 'cases')
