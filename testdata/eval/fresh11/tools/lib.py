import json,os,re,sys,importlib.util
from cx import chapters
ROOT='/work/heldback/fresh11'
def yv(v):
    if isinstance(v,(int,float)): return str(v)
    return json.dumps(v,ensure_ascii=False)
def flow(d): return '{ '+', '.join(f'{k}: {yv(v)}' for k,v in d.items())+' }'
def write_entity(book,e):
    sub='characters' if e['kind']=='character' else 'locations'
    p=f"{ROOT}/{book}/entities/{sub}/{e['slug']}.md"; os.makedirs(os.path.dirname(p),exist_ok=True)
    L=['---',f"name: {yv(e['name'])}",'aliases: ['+', '.join(yv(a) for a in e['aliases'])+']',f"kind: {e['kind']}",
       f"facts: {flow(e['facts'])}"]
    if e.get('progressions'):
        L.append('progressions:')
        for pr in sorted(e['progressions'],key=lambda x:x['chapter']): L.append('  - '+flow(pr))
    else: L.append('progressions: []')
    if e.get('relations'):
        L.append('relations:')
        for to,k in e['relations']: L.append('  - '+flow({'to':to,'kind':k}))
    else: L.append('relations: []')
    L.append('---'); L.append(e['desc'].strip()); open(p,'w',encoding='utf-8').write('\n'.join(L)+'\n')
def write_rules(book,era,terms,note=''):
    p=f"{ROOT}/{book}/meta/world-rules.md"; os.makedirs(os.path.dirname(p),exist_ok=True)
    L=['---',f'era: {yv(era)}','forbidden:']+[f'  - {yv(t)}' for t in terms]+['---',note.strip()]
    open(p,'w',encoding='utf-8').write('\n'.join(L)+'\n')
def cut(text,pos,end,cjk):
    # paragraphs: split on \n\n ; choose paragraph range around [pos,end)
    paras=[]; i=0
    for m in re.finditer(r'[^\n]+',text):
        paras.append((m.start(),m.end()))
    k=[j for j,(a,b) in enumerate(paras) if a<=pos<b][0]
    a,b=paras[k]
    if b-a>1500 or not cjk and False: pass
    lo=hi=k
    while paras[hi][1]-paras[lo][0]<300:
        if hi+1<len(paras) and (hi-k)<=(k-lo): hi+=1
        elif lo>1: lo-=1
        elif hi+1<len(paras): hi+=1
        else: break
    a,b=paras[lo][0],paras[hi][1]
    if b-a>1500:
        # sentence cut inside
        seps='。！？」．”' if cjk else '.!?”'
        s=[0]+[m.end() for m in re.finditer('['+seps+']',text[a:b])]
        best=None
        for x in s:
            for y in s:
                if y>x and a+x<=pos and a+y>=end and 300<=y-x<=1500:
                    if best is None or abs((y-x)-600)<abs(best[1]-best[0]-600): best=(x,y)
        a,b=a+best[0],a+best[1]
        while text[a] in ' 」”\n' : a+=1
    return a,b
def build(book,prefix,cases,cjk):
    chs=chapters(book); out=[]
    for n,c in enumerate(cases,1):
        t=chs[c['ch']]; old,new=c['old'],c['new']
        ctx=c.get('ctx',old); assert t.count(ctx)==1,(c['ch'],ctx,t.count(ctx))
        pos=t.index(ctx)+ctx.index(old); end=pos+len(old)
        a,b=cut(t,pos,end,cjk)
        if c.get('cut'): a,b=t.index(c['cut'][0]), t.index(c['cut'][1])+len(c['cut'][1])
        orig=t[a:b]; p=pos-a
        mod=orig[:p]+new+orig[p+len(old):]
        pl=c.get('planted',new); off=new.index(pl)
        span=[p+off,p+off+len(pl)]
        out.append(dict(id=f'{prefix}-f11-{n:02d}',book=book,chapter=c['ch'],type=c['type'],original_excerpt=orig,
            modified_excerpt=mod,span=span,planted=pl,expected=c['expected']))
    with open(f'{ROOT}/{book}/planted.jsonl','w',encoding='utf-8') as f:
        for r in out: f.write(json.dumps(r,ensure_ascii=False)+'\n')
    return out
def run(modpath):
    spec=importlib.util.spec_from_file_location('d',modpath); d=importlib.util.module_from_spec(spec); spec.loader.exec_module(d)
    for e in d.ENT: write_entity(d.BOOK,e)
    write_rules(d.BOOK,d.ERA,d.FORBIDDEN,d.RULES_NOTE)
    out=build(d.BOOK,d.PREFIX,d.CASES,d.CJK)
    print(d.BOOK,len(d.ENT),'entities',len(out),'cases',[len(r['original_excerpt']) for r in out])
if __name__=='__main__':
    for m in sys.argv[1:]: run(m)
