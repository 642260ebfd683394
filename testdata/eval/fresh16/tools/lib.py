import json, os, re, sys, importlib
from cx import chap, B
OUT='/work/heldback/fresh16'
def q(v):
    return json.dumps(v, ensure_ascii=False)
def flow(d):
    return '{ ' + ', '.join(f'{k}: {q(v)}' for k,v in d.items()) + ' }'
def write_entities(book, ents, era, forbidden, note=''):
    root=f'{OUT}/{book}'
    for sub in ['entities/characters','entities/locations','meta']:
        os.makedirs(f'{root}/{sub}',exist_ok=True)
    for e in ents:
        kind=e['kind']; d='characters' if kind=='character' else 'locations'
        L=['---', f'name: {q(e["name"])}', 'aliases: [' + ', '.join(q(a) for a in e.get('aliases',[])) + ']',
           f'kind: {kind}', f'facts: {flow(e.get("facts",{}))}']
        pr=e.get('prog',[])
        if pr:
            L.append('progressions:')
            for ch,f in pr: L.append(f'  - {{ chapter: {ch}, facts: {flow(f)} }}')
        else: L.append('progressions: []')
        rel=e.get('rel',[])
        if rel:
            L.append('relations:')
            for to,k in rel: L.append(f'  - {{ to: {q(to)}, kind: {q(k)} }}')
        else: L.append('relations: []')
        L.append('---')
        L.append(e['desc'].strip())
        open(f'{root}/entities/{d}/{e["slug"]}.md','w',encoding='utf-8').write('\n'.join(L)+'\n')
    W=['---', f'era: {q(era)}', 'forbidden:'] + [f'  - {q(t)}' for t in forbidden] + ['---', note.strip()]
    open(f'{root}/meta/world-rules.md','w',encoding='utf-8').write('\n'.join(W)+'\n')

def cut(book, ch, old, new, planted, minlen=300, maxlen=1500):
    t=chap(book,ch)
    assert t.count(old)==1, (ch, old, t.count(old))
    i=t.index(old)
    paras=[]; pos=0
    for p in t.split('\n'):
        paras.append((pos,pos+len(p),p)); pos+=len(p)+1
    idx=[k for k,(a,b,p) in enumerate(paras) if p and k>0]
    k0=[k for k in idx if paras[k][0]<=i and i+len(old)<=paras[k][1]]
    assert k0, ('old spans paragraphs', ch, old)
    lo=hi=idx.index(k0[0])
    def text(lo,hi): return t[paras[idx[lo]][0]:paras[idx[hi]][1]]
    turn=0
    while len(text(lo,hi))<minlen:
        opts=[]
        if hi+1<len(idx): opts.append((lo,hi+1))
        if lo>0: opts.append((lo-1,hi))
        if turn%2: opts.reverse()
        opts=[o for o in opts if len(text(*o))<=maxlen]
        if not opts: break
        lo,hi=opts[0]; turn+=1
    orig=text(lo,hi)
    if t.count(orig)!=1 or not (minlen<=len(orig)<=maxlen): raise SystemExit(f'cut fail ch{ch} len{len(orig)}')
    j=orig.index(old)
    mod=orig[:j]+new+orig[j+len(old):]
    # span: locate planted within new
    pk=new.index(planted)
    s=j+pk
    return orig, mod, [s, s+len(planted)]

def build(modname):
    m=importlib.import_module(modname)
    write_entities(m.BOOK, m.ENTS, m.ERA, m.FORBIDDEN, getattr(m,'WNOTE',''))
    recs=[]
    for n,c in enumerate(m.CASES,1):
        orig,mod,span=cut(m.SHORT, c['ch'], c['old'], c['new'], c['planted'])
        recs.append(dict(id=f'{m.SHORT}-f16-{n:02d}', book=m.BOOK, chapter=c['ch'], type=c['type'],
            original_excerpt=orig, modified_excerpt=mod, span=span, planted=c['planted'], expected=c['exp']))
    with open(f'{OUT}/{m.BOOK}/planted.jsonl','w',encoding='utf-8') as f:
        for r in recs: f.write(json.dumps(r, ensure_ascii=False)+'\n')
    print(m.BOOK, len(m.ENTS), 'entities', len(recs), 'cases')
if __name__=='__main__':
    for a in sys.argv[1:]: build(a)
