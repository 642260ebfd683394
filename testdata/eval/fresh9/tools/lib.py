import json,os,re,sys
sys.path.insert(0,os.path.dirname(__file__))
from cx import ch, nch
ROOT='/work/heldback/fresh9'
def yq(v):
    if isinstance(v,(int,float)): return str(v)
    return json.dumps(str(v),ensure_ascii=False)
def flow(d):
    return '{ '+', '.join(f'{k}: {yq(v)}' for k,v in d.items())+' }'
def write_entity(book,kind,slug,name,aliases,facts,progs,rels,desc):
    d=f'{ROOT}/{book}/entities/{"characters" if kind=="character" else "locations"}'
    os.makedirs(d,exist_ok=True)
    L=['---',f'name: {yq(name)}','aliases: ['+', '.join(yq(a) for a in aliases)+']',f'kind: {kind}',f'facts: {flow(facts)}']
    if progs:
        L.append('progressions:')
        for p in sorted(progs,key=lambda p:p['chapter']):
            L.append('  - '+flow(p))
    else: L.append('progressions: []')
    if rels:
        L.append('relations:')
        for to,k in rels: L.append('  - '+flow({'to':to,'kind':k}))
    else: L.append('relations: []')
    L.append('---'); L.append(desc.strip()); 
    open(f'{d}/{slug}.md','w',encoding='utf-8').write('\n'.join(L)+'\n')
def write_rules(book,era,forbidden,note):
    os.makedirs(f'{ROOT}/{book}/meta',exist_ok=True)
    L=['---',f'era: {yq(era)}','forbidden: ['+', '.join(yq(t) for t in forbidden)+']','---',note.strip()]
    open(f'{ROOT}/{book}/meta/world-rules.md','w',encoding='utf-8').write('\n'.join(L)+'\n')
def cut(book,n,start,end):
    s=ch(book,n); i=s.find(start); assert i>=0,(n,start)
    j=s.find(end,i); assert j>=0,(n,end); return s[i:j+len(end)]
def cut_auto(book,n,at,occ=0,before=350,after=450):
    s=ch(book,n); idx=-1
    for _ in range(occ+1): idx=s.find(at,idx+1)
    assert idx>=0,(n,at); L=len(at); en=book in('pride-and-prejudice','war-and-peace')
    head_end=s.find('\n')+2
    pat=r'\n|(?<=[.!?”"])\s' if en else r'[．。！？\n]'
    cands=[m.end() for m in re.finditer(pat,s)]
    lo=idx-before; hi=idx+L+after
    starts=[c for c in cands if head_end<=c<=idx] or [head_end]
    st=min(starts,key=lambda c:(abs(c-lo)*(0.6 if s[c-1]=='\n' else 1)))
    ends=[c for c in cands if c>=idx+L] or [len(s)]
    en_=min(ends,key=lambda c:(abs(c-hi)*(0.6 if s[c-1]=='\n' else 1)))
    while en_<len(s) and s[en_] in '”」"\'’': en_+=1
    out=s[st:en_].strip()
    assert 300<=len(out)<=1500,(n,at,len(out))
    return out
def make_case(book,pref,idx,c):
    if 'at' in c: orig=cut_auto(book,c['ch'],c['at'],c.get('occ',0),*c.get('win',(350,450)))
    else: orig=cut(book,c['ch'],c['start'],c['end'])
    if 'old' in c:
        old,new=c['old'],c['new']; pre=c.get('pre',''); suf=c.get('suf','')
        loc=pre+old+suf; assert orig.count(loc)==1,(c['ch'],loc,orig.count(loc))
        i=orig.find(loc)+len(pre); mod=orig[:i]+new+orig[i+len(old):]; span=[i,i+len(new)]
    else:
        a=c['aft']; assert orig.count(a)==1,(c['ch'],a,orig.count(a))
        i=orig.find(a)+len(a); new=c['ins']; mod=orig[:i]+new+orig[i:]; span=[i,i+len(new)]
        if new.startswith(' '): span=[i+1,i+len(new)]; new=new[1:]
    return {'id':f'{pref}-f9-{idx:02d}','book':book,'chapter':c['ch'],'type':c['type'],
            'original_excerpt':orig,'modified_excerpt':mod,'span':span,'planted':mod[span[0]:span[1]],'expected':c['exp']}
def build(mod):
    book=mod.BOOK
    import shutil
    for sub in ('entities',):
        shutil.rmtree(f'{ROOT}/{book}/{sub}',ignore_errors=True)
    for e in mod.CHARS: write_entity(book,'character',*e)
    for e in mod.LOCS: write_entity(book,'location',*e)
    write_rules(book,mod.ERA,mod.FORBIDDEN,mod.RULENOTE)
    with open(f'{ROOT}/{book}/planted.jsonl','w',encoding='utf-8') as f:
        for k,c in enumerate(mod.CASES,1):
            f.write(json.dumps(make_case(book,mod.PREF,k,c),ensure_ascii=False)+'\n')
if __name__=='__main__':
    import importlib.util
    for p in sys.argv[1:]:
        spec=importlib.util.spec_from_file_location('d',p); m=importlib.util.module_from_spec(spec); spec.loader.exec_module(m); build(m); print('built',m.BOOK)
