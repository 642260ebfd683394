import sys,re; sys.path.insert(0,'/work/heldback/fresh10/tools')
from cx import chap
def ins(b,n,avoid,sentence,skip=0):
    t=chap(b,n)
    body_start=t.find('\n')+1
    ends=[m.end() for m in re.finditer(r'[．。！？](?![”」’])|[．。！？][”」’]',t) if m.end()>body_start+40]
    k=0
    for i in range(1,len(ends)):
        e=ends[i]; s=ends[i-1]
        sent=t[s:e]
        if '\n' in sent or len(sent)<8 or t.count(sent)!=1: continue
        win=t[max(0,e-900):e+900]
        if any(a in win for a in avoid): continue
        if '“' in sent or '”' in sent: continue
        if k<skip: k+=1; continue
        return sent, sent+sentence
    raise Exception((n,avoid))
def ch(name,aliases,facts,desc,prog=(),rel=()): return dict(name=name,aliases=aliases,facts=facts,progressions=list(prog),relations=list(rel),desc=desc)
