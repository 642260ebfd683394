"""Write entity files, world rules and planted.jsonl for one book from tools/<b>.py data."""
import json, os, sys, re, importlib
CORPUS='/work/shared/corpus'
ROOT='/work/heldback/fresh20'
BOOK={'hlm':'hongloumeng','xyj':'xiyouji','pp':'pride-and-prejudice','wp':'war-and-peace'}
def chap(book,n): return open(f'{CORPUS}/{book}/{n:03d}.txt',encoding='utf-8').read()
def q(v): return json.dumps(v,ensure_ascii=False)
def flow(d): return '{ '+', '.join(f'{k}: {q(v)}' for k,v in d.items())+' }'
def facts_at(e,n):
    f=dict(e['facts'])
    for c,p in e.get('progs',[]):
        if c<=n: f.update(p)
    return f
def write_entity(book,kind,e):
    d=f"{ROOT}/{book}/entities/{'characters' if kind=='character' else 'locations'}"
    os.makedirs(d,exist_ok=True)
    L=['---',f"name: {q(e['name'])}",'aliases: ['+', '.join(q(a) for a in e['aliases'])+']',f'kind: {kind}',
       'facts: '+flow(e['facts'])]
    if e.get('progs'):
        L.append('progressions:')
        for c,p in e['progs']: L.append(f'  - {{ chapter: {c}, facts: {flow(p)} }}')
    else: L.append('progressions: []')
    if e.get('rels'):
        L.append('relations:')
        for to,k in e['rels']: L.append(f'  - {{ to: {q(to)}, kind: {q(k)} }}')
    else: L.append('relations: []')
    L.append('---'); L.append(e['desc'].strip()); 
    open(f"{d}/{e['slug']}.md",'w',encoding='utf-8').write('\n'.join(L)+'\n')
def cut(text,start,end):
    """whole paragraphs around [start,end): grow alternately after/before to >=300, <=1500"""
    body0=text.index('\n\n')+2   # after heading
    # paragraph starts/ends
    paras=[]; i=body0
    while i<len(text):
        j=text.find('\n\n',i)
        if j<0: j=len(text.rstrip('\n'))
        paras.append((i,j)); i=j+2
        while i<len(text) and text[i]=='\n': i+=1
    a=[k for k,(s,e) in enumerate(paras) if s<=start<e or (s<=start<=e)][0]
    b=[k for k,(s,e) in enumerate(paras) if s<end<=e][0]
    turn=0
    while paras[b][1]-paras[a][0]<300:
        if turn%2==0 and b+1<len(paras) and paras[b+1][1]-paras[a][0]<=1500: b+=1
        elif a-1>=0 and paras[b][1]-paras[a-1][0]<=1500: a-=1
        elif b+1<len(paras) and paras[b+1][1]-paras[a][0]<=1500: b+=1
        else: break
        turn+=1
    return paras[a][0],paras[b][1]
def build(key):
    m=importlib.import_module(key); book=BOOK[key]
    ents={}
    for e in m.CHARS: write_entity(book,'character',e); ents[e['slug']]=('characters',e)
    for e in m.LOCS: write_entity(book,'location',e); ents[e['slug']]=('locations',e)
    os.makedirs(f'{ROOT}/{book}/meta',exist_ok=True)
    W=['---',f'era: {q(m.ERA)}','forbidden:']+[f'  - {q(t)}' for t in m.FORBIDDEN]+['---',m.RULES_NOTE.strip()]
    open(f'{ROOT}/{book}/meta/world-rules.md','w',encoding='utf-8').write('\n'.join(W)+'\n')
    out=[]
    for i,c in enumerate(m.CASES,1):
        t=chap(book,c['ch'])
        mm=re.fullmatch(r'(.*)\[(.*?)->(.*?)\](.*)',c['edit'],re.S)
        left,orig,new,right=mm.groups()
        needle=left+orig+right
        assert t.count(needle)==1,(key,i,c['ch'],t.count(needle),needle)
        p=t.index(needle)+len(left)
        s,e=cut(t,p,p+len(orig))
        o=t[s:e]; off=p-s
        mod=o[:off]+new+o[off+len(orig):]
        span=[off,off+len(new)]
        sub,ent=ents[c['ent']] if 'ent' in c else (None,None)
        f=f"entities/{sub}/{c['ent']}.md" if sub else None
        if c['type']=='name': exp=f"{c['decl']} — {f}"
        elif c['type']=='fact': exp=f"{f}: {c['key']} = {facts_at(ent,c['ch'])[c['key']]}"
        elif c['type']=='state':
            fa=facts_at(ent,c['ch'])
            exp=f"{f}: status = {fa['status']}"+(f", location = {fa['location']}" if fa['status']=='away' else '')+f" (as of chapter {c['ch']})"
        else: exp=f"forbidden term: {c['term']} (meta/world-rules.md)"
        out.append(dict(id=f"{m.PREFIX}-f20-{i:02d}",book=book,chapter=c['ch'],type=c['type'],original_excerpt=o,
                        modified_excerpt=mod,span=span,planted=new,expected=exp))
    with open(f'{ROOT}/{book}/planted.jsonl','w',encoding='utf-8') as fh:
        for r in out: fh.write(json.dumps(r,ensure_ascii=False)+'\n')
    print(book,len(m.CHARS),len(m.LOCS),len(out))
if __name__=='__main__':
    for k in sys.argv[1:]: build(k)
