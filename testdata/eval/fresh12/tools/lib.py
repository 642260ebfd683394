import sys,os,json,re,importlib.util
sys.path.insert(0,os.path.dirname(os.path.abspath(__file__)))
import cx
OUT='/work/heldback/fresh12/'
def load(path):
    spec=importlib.util.spec_from_file_location('d',path); m=importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
def q(v): return json.dumps(v,ensure_ascii=False)
def flow(d): return '{ '+', '.join(f'{k}: {q(v)}' for k,v in d.items())+' }'
def write_entities(m):
    base=OUT+m.BOOK+'/'
    for e in m.ENT:
        kind=e.get('kind','character')
        lines=['---',f'name: {q(e["name"])}','aliases: ['+', '.join(q(a) for a in e['aliases'])+']',f'kind: {kind}','facts: '+flow(e['facts'])]
        if e['prog']:
            lines.append('progressions:')
            for p in sorted(e['prog'],key=lambda p:p['chapter']):
                p2={'chapter':p['chapter']}; p2.update({k:v for k,v in p.items() if k!='chapter'})
                lines.append('  - { '+', '.join(f'{k}: {v if k=="chapter" else q(v)}' for k,v in p2.items())+' }')
        else: lines.append('progressions: []')
        if e['rel']:
            lines.append('relations:')
            for t,k in e['rel']: lines.append(f'  - {{ to: entities/{t}, kind: {q(k)} }}')
        else: lines.append('relations: []')
        lines.append('---'); lines.append(e['desc'])
        p=base+'entities/'+e['file']+'.md'; os.makedirs(os.path.dirname(p),exist_ok=True)
        open(p,'w',encoding='utf-8').write('\n'.join(lines)+'\n')
    os.makedirs(base+'meta',exist_ok=True)
    open(base+'meta/world-rules.md','w',encoding='utf-8').write('---\nera: '+q(m.ERA)+'\nforbidden: ['+', '.join(q(t) for t in m.FORBIDDEN)+']\n---\n'+getattr(m,'RULES_NOTE','')+'\n')
SENT=re.compile(r'(?<=[。！？．」”\.\!\?])')
def excerpt(text,s,e,minlen=300,maxlen=1500,target=None):
    """return (start,end) covering [s,e), at paragraph boundaries if possible"""
    target=target or 650
    paras=[]; pos=0
    for m in re.finditer(r'\n\n',text):
        paras.append((pos,m.start())); pos=m.end()
    paras.append((pos,len(text.rstrip('\n'))))
    i=[k for k,(a,b) in enumerate(paras) if a<=s and e<=b]
    if not i: raise Exception('edit spans paragraphs')
    i=i[0]; a,b=paras[i]
    if b-a>maxlen:
        # cut at sentence ends around the edit
        bounds=[a]+[a+mm.start() for mm in SENT.finditer(text[a:b]) if mm.start()>0]+[b]
        bounds=sorted(set(bounds))
        lo=max(x for x in bounds if x<=s); hi=min(x for x in bounds if x>=e)
        while hi-lo<target:
            nlo=[x for x in bounds if x<lo]; nhi=[x for x in bounds if x>hi]
            if nhi and (hi-lo)+(nhi[0]-hi)<=maxlen: hi=nhi[0]
            elif nlo and (hi-lo)+(lo-nlo[-1])<=maxlen: lo=nlo[-1]
            else: break
            if not nlo and not nhi: break
        return lo,hi
    lo,hi=i,i
    # skip heading paragraph 0
    while b-a<target:
        grew=False
        if hi+1<len(paras) and paras[hi+1][1]-a<=maxlen: hi+=1; b=paras[hi][1]; grew=True
        if b-a>=target: break
        if lo-1>=1 and b-paras[lo-1][0]<=maxlen: lo-=1; a=paras[lo][0]; grew=True
        if not grew: break
    return a,b
def build_cases(m):
    chs=cx.ch(m.KEY); out=[]
    for k,c in enumerate(m.CASES,1):
        t=chs[c['ch']]
        old=c['old']; n=t.count(old)
        if n!=1: raise Exception(f'case {k}: old occurs {n} times in ch {c["ch"]}: {old}')
        s=t.index(old); e=s+len(old)
        a,b=excerpt(t,s,e,target=c.get('target'))
        orig=t[a:b]
        mod=orig[:s-a]+c['new']+orig[e-a:]
        pi=c['new'].index(c['planted'])
        st=s-a+pi
        pre=0
        while pre<min(len(orig),len(mod)) and orig[pre]==mod[pre]: pre+=1
        suf=0
        while suf<min(len(orig),len(mod))-pre and orig[-1-suf]==mod[-1-suf]: suf+=1
        ds,de=pre,len(mod)-suf; en=st+len(c['planted'])
        if not(de<=en and (ds>=st or (ds==st-1 and mod[ds]==' '))): print('DIFF-REGION',k,repr(mod[ds:de]),repr(c['planted']))
        out.append(dict(id=f'{m.PFX}-{k:02d}',book=m.BOOK,chapter=c['ch'],type=c['type'],original_excerpt=orig,modified_excerpt=mod,span=[st,st+len(c['planted'])],planted=c['planted'],expected=c['expected']))
    with open(OUT+m.BOOK+'/planted.jsonl','w',encoding='utf-8') as f:
        for r in out: f.write(json.dumps(r,ensure_ascii=False)+'\n')
    return out
if __name__=='__main__':
    m=load(sys.argv[1])
    for e in m.ENT:
        for a in [e['name']]+e['aliases']:
            if not sum(cx.count(m.KEY,a).values()): print('ZERO',e['file'],a)
    write_entities(m)
    if m.CASES:
        for r in build_cases(m): print(r['id'],r['chapter'],r['type'],len(r['original_excerpt']),r['planted'])
