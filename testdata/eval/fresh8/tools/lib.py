import os, re, json, yaml
CORPUS='/work/shared/corpus'
ROOT='/work/heldback/fresh8'
def chap(book,n):
    return open(f'{CORPUS}/{book}/{n:03d}.txt',encoding='utf-8').read()
_bk={}
def booktext(book):
    if book not in _bk:
        fs=sorted(f for f in os.listdir(f'{CORPUS}/{book}') if f.endswith('.txt'))
        _bk[book]=[open(f'{CORPUS}/{book}/{f}',encoding='utf-8').read() for f in fs]
    return _bk[book]
def is_cjk(book): return book in ('hongloumeng','xiyouji')
def count(book,term):
    tot=0
    for t in booktext(book):
        if is_cjk(book): tot+=t.count(term)
        else: tot+=len(re.findall(r'(?<![A-Za-z])'+re.escape(term)+r'(?![A-Za-z])',t))
    return tot
def count_infl(book,term):
    tot=0
    for t in booktext(book):
        tot+=len(re.findall(r'(?<![A-Za-z])'+re.escape(term)+r'(?:s|es|ed|d|ing)?(?![A-Za-z])',t,re.I))
    return tot
def q(v):
    v=str(v)
    if re.search(r'[:,\[\]{}#&*!|>\'"%@`]',v) or v!=v.strip() or v.lower() in ('yes','no','true','false','null','on','off') or re.match(r'^[-?]',v):
        return json.dumps(v,ensure_ascii=False)
    return v
def flow(v):
    return json.dumps(v,ensure_ascii=False)
def write_entities(book, ents, era, forbidden, rules_prose):
    base=f'{ROOT}/{book}'
    for sub in ('entities/characters','entities/locations','meta'):
        os.makedirs(f'{base}/{sub}',exist_ok=True)
    errs=[]
    for e in ents:
        slug,kind=e['slug'],e['kind']
        d='characters' if kind=='character' else 'locations'
        lines=['---',f"name: {q(e['name'])}",'aliases: ['+', '.join(q(a) for a in e.get('aliases',[]))+']',f'kind: {kind}',
               'facts: { '+', '.join(f'{k}: {q(v)}' for k,v in e['facts'].items())+' }']
        if e.get('prog'):
            lines.append('progressions:')
            for p in sorted(e['prog'],key=lambda p:p['chapter']):
                lines.append('  - { '+', '.join(f'{k}: {q(v)}' for k,v in p.items())+' }')
        if e.get('rel'):
            lines.append('relations:')
            for to,k in e['rel']:
                lines.append(f'  - {{ to: entities/{to}, kind: {k} }}')
        lines.append('---')
        txt='\n'.join(lines)+'\n'+e['prose'].strip()+'\n'
        open(f'{base}/entities/{d}/{slug}.md','w',encoding='utf-8').write(txt)
        for a in e.get('aliases',[]):
            if count(book,a)==0: errs.append(f'{book}/{slug}: alias {a!r} not in book')
    fl='forbidden: ['+', '.join(q(t) for t in forbidden)+']'
    open(f'{base}/meta/world-rules.md','w',encoding='utf-8').write(f'---\nera: {q(era)}\n{fl}\n---\n{rules_prose.strip()}\n')
    return errs
def paras(text):
    # list of (start,end) of paragraphs (lines) excluding heading
    out=[];pos=0
    for line in text.split('\n'):
        if line.strip(): out.append((pos,pos+len(line)))
        pos+=len(line)+1
    return out[1:]
def excerpt(book,ch,needle,before=0,after=None,lo=300,hi=1500,cut=None):
    t=chap(book,ch)
    i=t.find(needle); assert i>=0,(book,ch,needle)
    assert t.count(needle)==1,(book,ch,'needle not unique',needle)
    ps=paras(t)
    k=[j for j,(a,b) in enumerate(ps) if a<=i<b][0]
    if cut:  # cut=(startneedle,endneedle) inside chapter
        s=t.find(cut[0]); e=t.find(cut[1],s)+len(cut[1]); assert s>=0 and e>s
        return t[s:e]
    a=k-before; b=k
    if after is None:
        while ps[b][1]-ps[a][0]<lo and b+1<len(ps): b+=1
    else: b=k+after
    return t[ps[a][0]:ps[b][1]]
def build(book, prefix, specs, ents):
    E={e['slug']:e for e in ents}
    recs=[]
    for n,s in enumerate(specs,1):
        orig=excerpt(book,s['ch'],s['needle'],s.get('before',0),s.get('after'),cut=s.get('cut'))
        old,new=s['old'],s['new']
        assert orig.count(old)==1,(s['ch'],'old not unique/absent',old,orig.count(old))
        i=orig.find(old)
        mod=orig[:i]+new+orig[i+len(old):]
        # span: the planted text
        pl=s.get('planted',new)
        off=new.find(pl); assert off>=0
        st=i+off; en=st+len(pl)
        e=E.get(s.get('ent'))
        d=lambda sl: 'entities/'+('characters' if E[sl]['kind']=='character' else 'locations')+f'/{sl}.md'
        t=s['type']
        if t=='name': exp=f"{s['right']} — {d(s['ent'])}"
        elif t=='fact': exp=f"{d(s['ent'])}: {s['key']} = {facts_at(e,s['ch'])[s['key']]}"
        elif t=='state':
            f=facts_at(e,s['ch']); exp=f"{d(s['ent'])}: status = {f['status']}"+(f", location = {f['location']}" if f['status']=='away' else '')+f" (as of chapter {s['ch']})"
        else: exp=f"forbidden term: {s['term']} (meta/world-rules.md)"
        recs.append(dict(id=f'{prefix}-f8-{n:02d}',book=book,chapter=s['ch'],type=t,original_excerpt=orig,modified_excerpt=mod,span=[st,en],planted=mod[st:en],expected=exp))
    with open(f'{ROOT}/{book}/planted.jsonl','w',encoding='utf-8') as f:
        for r in recs: f.write(json.dumps(r,ensure_ascii=False)+'\n')
    return recs
def facts_at(e,ch):
    f=dict(e['facts'])
    for p in sorted(e.get('prog',[]),key=lambda p:p['chapter']):
        if p['chapter']<=ch:
            for k,v in p.items():
                if k!='chapter': f[k]=v
            if 'status' in p and p['status']!='away': f.pop('location',None) if 'location' not in p else None
    return f
