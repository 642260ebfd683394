#!/usr/bin/env python3
# Generate pride-and-prejudice-random.jsonl: random name, world and state errors
# planted in Pride and Prejudice (../../../shared/corpus), checked against the
# shared entity files. Needs PyYAML. Seeded: the output is reproducible.
import json, random, re, os, glob
HERE=os.path.dirname(os.path.abspath(__file__))
SHARED=os.path.join(HERE,'..','..','..','shared')
random.seed(7)
C=os.path.join(SHARED,'corpus','pride-and-prejudice')
E=os.path.join(SHARED,'eval','pride-and-prejudice')
import yaml
ents=[]
for f in glob.glob(E+'/entities/*/*.md'):
    t=open(f).read().split('\n---\n')[0][4:]
    ents.append(yaml.safe_load(t))
names=set()
for e in ents:
    names.add(e['name']); names.update(e.get('aliases') or [])
words=set(w.strip() for w in open('/usr/share/dict/british-english'))
def facts(e,ch):
    f=dict(e.get('facts') or {})
    for p in sorted(e.get('progressions') or [], key=lambda p:p['chapter']):
        if p['chapter']<=ch: f.update(p['facts'])
    return f
def paras(ch):
    t=open('%s/%03d.txt'%(C,ch)).read()
    return t,[p for p in t.split('\n\n')[1:] if 300<=len(p)<=1500]
cases=[]
def add(typ,ch,p,i,j,planted,exp):
    mod=p[:i]+planted+p[j:]
    cases.append(dict(id='r-%d'%len(cases),book='pp',chapter=ch,type=typ,original_excerpt=p,modified_excerpt=mod,span=[i,i+len(planted)],planted=planted,expected=exp))
# names
namewords=sorted({w for n in names for w in re.findall(r'[A-Z][a-z]+',n) if len(w)>=5 and w not in ('Bennet','Lucas','Catherine')})
def edit(w):
    i=random.randrange(1,len(w))
    k=random.choice('sdit')
    L='abcdefghijklmnopqrstuvwxyz'
    if k=='s': return w[:i]+random.choice(L)+w[i+1:]
    if k=='d': return w[:i]+w[i+1:]
    if k=='i': return w[:i]+random.choice(L)+w[i:]
    if i+1<len(w): return w[:i]+w[i+1]+w[i]+w[i+2:]
    return w[:i]+w[i+1:]
tries=0
while sum(c['type']=='name' for c in cases)<40 and tries<5000:
    tries+=1
    ch=random.randint(1,61); t,ps=paras(ch)
    if not ps: continue
    p=random.choice(ps); w=random.choice(namewords)
    ms=[m for m in re.finditer(r'\b'+w+r'\b',p)]
    if not ms: continue
    m=random.choice(ms); nw=edit(w)
    if nw==w or nw.lower() in words or nw in names or any(nw in n.split() for n in names): continue
    add('name',ch,p,m.start(),m.end(),nw,'should be '+w+' (x)')
# world
terms=['telephone','telegram','motor car','photograph','bicycle','revolver','cigarette','policeman','railway station','typewriter']
forms={'telephone':['telephoned','telephones'],'photograph':['photographs','photograph'],'bicycle':['bicycles'],'policeman':['policemen'],'cigarette':['cigarettes'],'telegram':['telegrams'],'revolver':['revolver'],'motor car':['motor cars','motor car'],'railway station':['railway station'],'typewriter':['typewriter']}
while sum(c['type']=='world' for c in cases)<20:
    ch=random.randint(1,61); t,ps=paras(ch)
    if not ps: continue
    p=random.choice(ps)
    ms=[m for m in re.finditer(r'\b(letter|carriage|chaise|picture|miniature|servant|note)s?\b',p)]
    if not ms: continue
    m=random.choice(ms); term=random.choice(terms); f=random.choice(forms[term])
    add('world',ch,p,m.start(),m.end(),f,term)
# state: replace "said X"/"X was" speakers with an away character
away=[]
for ch in range(1,62):
    for e in ents:
        if facts(e,ch).get('status')=='away': away.append((ch,e))
speak=['Elizabeth','Jane','Mrs. Bennet','Kitty','Mary','Mr. Bennet']
tries=0
while sum(c['type']=='state' for c in cases)<20 and tries<5000:
    tries+=1
    ch,e=random.choice(away); t,ps=paras(ch)
    if not ps: continue
    p=random.choice(ps)
    pat=r'(said|cried|replied) (%s)\b'%'|'.join(re.escape(s) for s in speak)
    ms=list(re.finditer(pat,p))
    if not ms: continue
    m=random.choice(ms)
    nm=[a for a in [e['name']]+(e.get('aliases') or []) if len(a.split())<=2]
    planted=random.choice(nm)
    if any(a in p for a in [e['name']]+(e.get('aliases') or [])): continue
    add('state',ch,p,m.start(2),m.end(2),planted,e['name'])
with open(os.path.join(HERE,'pride-and-prejudice-random.jsonl'),'w') as f:
    for c in cases: f.write(json.dumps(c,ensure_ascii=False)+'\n')
print(len(cases), {t:sum(c['type']==t for c in cases) for t in ('name','world','state')})
