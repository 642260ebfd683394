import sys; sys.path.insert(0,"/work/heldback/fresh10/tools/data")
import json,os,re,sys,importlib.util
from cx import chap
OUT='/work/heldback/fresh10/'
def q(v): return json.dumps(v,ensure_ascii=False)
def fm_map(d): return '{ '+', '.join(f'{k}: {q(v)}' for k,v in d.items())+' }'
def write_entity(b,kind,slug,e):
    d=OUT+b+'/entities/'+('characters' if kind=='character' else 'locations')
    os.makedirs(d,exist_ok=True)
    L=['---',f'name: {q(e["name"])}','aliases: ['+', '.join(q(a) for a in e.get('aliases',[]))+']',f'kind: {kind}',
       'facts: '+fm_map(e.get('facts',{}))]
    pr=e.get('progressions',[])
    if pr:
        L.append('progressions:')
        for p in pr: L.append('  - '+fm_map(p))
    else: L.append('progressions: []')
    rel=e.get('relations',[])
    if rel:
        L.append('relations:')
        for to,k in rel: L.append('  - { to: '+to+', kind: '+q(k)+' }')
    else: L.append('relations: []')
    desc=e['desc'].strip()
    if b in ('hongloumeng','xiyouji'):
        desc=desc.translate(str.maketrans({'后':'後','与':'與','干':'幹','儿':'兒','里':'裡'}))
    L.append('---'); L.append(desc); 
    open(d+'/'+slug+'.md','w').write('\n'.join(L)+'\n')
SENT=re.compile(r'(?<=[。！？!?\.」”])')
def cut(text,pos,end):
    # paragraphs split by \n\n ; find paragraph containing pos
    paras=[]; i=0
    for m in re.finditer(r'[^\n]+',text):
        paras.append((m.start(),m.end()))
    k=[j for j,(s,e) in enumerate(paras) if s<=pos<e][0]
    a=b=k
    def L(a,b): return paras[b][1]-paras[a][0]
    while L(a,b)<300:
        if b+1<len(paras) and L(a,b+1)<=1500: b+=1
        elif a-1>0 and L(a-1,b)<=1500: a-=1
        else: break
        if L(a,b)>=300: break
        if a-1>0 and L(a-1,b)<=1500: a-=1
    s,e=paras[a][0],paras[b][1]
    if e-s>1500 or e-s<300:
        # sentence window inside the paragraph(s)
        ps,pe=paras[k]
        seg=text[ps:pe]
        bounds=[0]+[m.start() for m in re.finditer(r'(?<=[。！？!?；;])(?![」”’』])|(?<=[。！？!?][」”’』])|(?<=\.) (?=[A-Z“])',seg)]+[len(seg)]
        bounds=sorted(set(bounds))
        rp,re_=pos-ps,end-ps
        i=max(j for j,x in enumerate(bounds) if x<=rp); j=min(j for j,x in enumerate(bounds) if x>=re_)
        while bounds[j]-bounds[i]<500:
            if j+1<len(bounds): j+=1
            if bounds[j]-bounds[i]<500 and i>0: i-=1
            if i==0 and j==len(bounds)-1: break
        s,e=ps+bounds[i],ps+bounds[j]
        while text[s]==' ': s+=1
        e=e
        while text[e-1]==' ': e-=1
    return s,e
def build(b,prefix,mod):
    ents=mod.CHARS; locs=mod.LOCS
    for slug,e in ents.items(): write_entity(b,'character',slug,e)
    for slug,e in locs.items(): write_entity(b,'location',slug,e)
    os.makedirs(OUT+b+'/meta',exist_ok=True)
    open(OUT+b+'/meta/world-rules.md','w').write('---\nera: '+q(mod.ERA)+'\nforbidden: ['+', '.join(q(t) for t in list(dict.fromkeys(mod.FORBID)))+']\n---\n'+mod.RULES_DESC.strip()+'\n')
    recs=[]
    for n,(ch,typ,old,new,exp,*occ) in enumerate(mod.CASES,1):
        t=chap(b,ch)
        oc=occ[0] if occ else 0
        p=-1
        if isinstance(oc,str):
            cp=t.find(oc); assert cp>=0 and t.count(oc)==1,(ch,oc); p=t.find(old,cp); assert p<cp+len(oc)
        else:
            for _ in range(oc+1): p=t.find(old,p+1)
        assert p>=0,(ch,old)
        s,e=cut(t,p,p+len(old))
        orig=t[s:e]; rp=p-s
        modx=orig[:rp]+new+orig[rp+len(old):]
        cjk=b in ('hongloumeng','xiyouji')
        i=0
        while i<min(len(old),len(new)) and old[i]==new[i]: i+=1
        j=0
        while j<min(len(old),len(new))-i and old[-1-j]==new[-1-j]: j+=1
        if cjk and typ in ('name','fact'): i=j=0
        st,en=rp+i,rp+len(new)-j
        if not cjk:
            W=lambda c: c.isalnum() or c in "-’'"
            while st>rp and W(modx[st-1]) and W(modx[st]): st-=1
            while en<rp+len(new) and W(modx[en]) and W(modx[en-1]): en+=1
        if typ=='world':
            import re as _re
            term=_re.search(r'forbidden term: (.*?) \(',exp).group(1)
            k=modx.find(term,max(0,st-len(term)))
            while k>=0 and k+len(term)<=st: k=modx.find(term,k+1)
            if k>=0 and k<en+len(term): st=min(st,k); en=max(en,k+len(term))
        span=[st,en]
        recs.append(dict(id=f'{prefix}-f10-{n:02d}',book=b,chapter=ch,type=typ,original_excerpt=orig,modified_excerpt=modx,span=span,planted=modx[span[0]:span[1]],expected=exp))
    with open(OUT+b+'/planted.jsonl','w') as f:
        for r in recs: f.write(json.dumps(r,ensure_ascii=False)+'\n')
    print(b,len(ents),len(locs),len(recs))
if __name__=='__main__':
    for path in sys.argv[1:]:
        spec=importlib.util.spec_from_file_location('m',path); m=importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
        build(m.BOOK,m.PREFIX,m)
