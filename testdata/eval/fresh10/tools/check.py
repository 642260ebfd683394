import json,glob,os,re,itertools,difflib,yaml,sys
from cx import book,chap,cnt
R='/work/heldback/fresh10/'
PREV=json.load(open(os.path.join(os.path.dirname(__file__),'prev.json')))
S2={'電':'电','視':'视','腦':'脑','機':'机','車':'车','銬':'铐','護':'护','鐵':'铁','郵':'邮','樂':'乐','筆':'笔','達':'达','彈':'弹','麥':'麦','風':'风','無':'无','線':'线','衛':'卫','噴':'喷','氣':'气','頭':'头','聽':'听','鏡':'镜','錶':'表','鐘':'钟','槍':'枪','滅':'灭','診':'诊','輪':'轮','艇':'艇','關':'关','降':'降','傘':'伞','膠':'胶','險':'险','馬':'马','籤':'签'}
def variants(t):
    opts=[[c]+([S2[c]] if c in S2 else []) for c in t]
    return {''.join(x) for x in itertools.product(*opts)}
def lev(a,b):
    d=list(range(len(b)+1))
    for i,ca in enumerate(a,1):
        p,d[0]=d[0],i
        for j,cb in enumerate(b,1):
            p,d[j]=d[j],min(d[j]+1,d[j-1]+1,p+(ca!=cb))
    return d[-1]
def load(b):
    ents={}
    for f in sorted(glob.glob(R+b+'/entities/*/*.md')):
        txt=open(f).read(); fm=yaml.safe_load(txt.split('---')[1])
        ents[os.path.relpath(f,R+b)]=(fm,txt)
    wr=yaml.safe_load(open(R+b+'/meta/world-rules.md').read().split('---')[1])
    return ents,wr
def facts_at(fm,n):
    d=dict(fm.get('facts') or {})
    last=0
    for p in fm.get('progressions') or []:
        assert p['chapter']>=last,'progressions out of order'; last=p['chapter']
        if p['chapter']<=n: d.update({k:v for k,v in p.items() if k!='chapter'})
    return d
def en_inflect_count(b,term):
    r=re.compile(r'(?<![\w-])'+re.escape(term)+r'(s|es|ed|d|ing)?(?![\w-])',re.I)
    return sum(len(r.findall(t)) for _,t in book(b))
fails=[];notes=[]
def F(msg): fails.append(msg)
summary=[]
for b,pre in [('hongloumeng','hlm'),('xiyouji','xyj'),('pride-and-prejudice','pp'),('war-and-peace','wp')]:
    cjk=pre in('hlm','xyj')
    ents,wr=load(b)
    nch=sum(1 for k in ents if '/characters/' in k); nloc=sum(1 for k in ents if '/locations/' in k)
    if not (15<=nch<=18): F(f'{b}: {nch} characters')
    if not (5<=nloc<=7): F(f'{b}: {nloc} locations')
    allnames={}
    for k,(fm,txt) in ents.items():
        for key in ('name','aliases','kind','facts','progressions','relations'):
            if key not in fm: F(f'{b} {k}: missing {key}')
        for a in fm['aliases']:
            c=cnt(b,a)
            if c==0: F(f'{b} {k}: alias {a} not in book')
        if cnt(b,fm['name'])==0: notes.append(f'{b} {k}: canonical name {fm["name"]} never spelled out in the book (kept as name only)')
        for a in [fm['name']]+fm['aliases']: allnames.setdefault(a,[]).append(k)
        for r in fm.get('relations') or []:
            if r['to']+'.md' not in ents: F(f'{b} {k}: relation target {r["to"]} missing')
    forb=wr['forbidden']
    if not (18<=len(forb)<=24): F(f'{b}: {len(forb)} forbidden terms')
    for t in forb:
        if cjk:
            c=sum(cnt(b,v) for v in variants(t))
        else: c=en_inflect_count(b,t)
        if c: F(f'{b}: forbidden {t} occurs {c}')
    recs=[json.loads(l) for l in open(R+b+'/planted.jsonl')]
    types={}
    chs=[r['chapter'] for r in recs]
    if len(set(chs))!=len(chs): F(f'{b}: repeated chapter')
    for r in recs:
        types[r['type']]=types.get(r['type'],0)+1
        i=r['id']; n=r['chapter']; o=r['original_excerpt']; m=r['modified_excerpt']; s0,s1=r['span']
        t=chap(b,n)
        if t.count(o)!=1: F(f'{i}: original not found once in chapter ({t.count(o)})')
        if not 300<=len(o)<=1500: F(f'{i}: original length {len(o)}')
        if m[s0:s1]!=r['planted']: F(f'{i}: span does not slice to planted')
        tail=len(m)-s1
        if o[:s0]!=m[:s0] or (tail and o[len(o)-tail:]!=m[s1:]) or len(o)<tail: F(f'{i}: difference outside span')
        if o==m: F(f'{i}: no change')
        if n in PREV['used'].get(b+'/'+r['type'],[]): F(f'{i}: chapter {n} used before for {r["type"]}')
        if (b,r['type'],r['planted']) in [tuple(x[:3]) for x in PREV['planted']]: F(f'{i}: same planted as earlier writer')
        origspan=o[s0:len(o)-tail]
        exp=r['expected']
        if r['type']=='name':
            right,ef=exp.split(' — ')
            fm,_=ents[ef]
            if right not in [fm['name']]+fm['aliases']: F(f'{i}: {right} not declared in {ef}')
            if cjk: wrong=r['planted']; rt=origspan
            else:
                wrong=r['planted']; rt=origspan
            d=lev(rt,wrong)
            if not 1<=d<=2: F(f'{i}: edit distance {d} ({rt}->{wrong})')
            if rt not in right: F(f'{i}: replaced text {rt} not part of {right}')
            wm=right.replace(rt,wrong)
            if sum(x.count(wrong) for _,x in book(b)) if cjk else cnt(b,wrong): F(f'{i}: misspelling {wrong} occurs in book')
            if wm in allnames or wrong in allnames: F(f'{i}: misspelling is a declared name')
            if cjk and len(rt)!=len(wrong): F(f'{i}: CJK misspelling must replace one character')
            if cjk and sum(a!=c for a,c in zip(rt,wrong))!=1: F(f'{i}: CJK misspelling differs in more than one character')
            detail=f'{rt}->{wrong} (d={d})'
        elif r['type']=='fact':
            ef,kv=exp.split(': ',1); key,val=kv.split(' = ',1)
            fm,_=ents[ef]; fa=facts_at(fm,n)
            if key not in fa: F(f'{i}: key {key} not declared for {ef} as of {n}')
            elif fa[key]!=val: F(f'{i}: expected {val} but declared {fa[key]}')
            probe=val.split()[0] if not cjk else val[:2]
            near=o[max(0,s0-40):len(o)-tail+40]
            if probe not in near: F(f'{i}: declared value ({probe}) not stated at the span in the original')
            if probe in r['planted']: notes.append(f'{i}: planted shares {probe} with value')
            detail=f'{origspan}->{r["planted"]}'
        elif r['type']=='state':
            ef=exp.split(':')[0]; fm,_=ents[ef]; fa=facts_at(fm,n)
            st=fa.get('status')
            if st not in('away','dead'): F(f'{i}: status as of {n} is {st}')
            if st=='away' and not fa.get('location'): F(f'{i}: away without location')
            if f'status = {st}' not in exp: F(f'{i}: expected text does not match status {st}')
            if st=='away' and f"location = {fa.get('location')}" not in exp: F(f'{i}: expected location mismatch')
            names=[fm['name']]+fm['aliases']
            amb={'Jane','Mary','Catherine','Charlotte','Miss Bennet','Fitzwilliam'}  # all still must be absent
            hit=[a for a in names if (a in o if cjk else re.search(r'(?<!\w)'+re.escape(a)+r'(?!\w)',o))]
            if hit: F(f'{i}: state entity named in original: {hit}')
            if not any(a in r['planted'] for a in names): F(f'{i}: planted does not name the entity')
            detail=f'{st} {fa.get("location","")}'
        elif r['type']=='world':
            term=re.search(r'forbidden term: (.*?) \(',exp).group(1)
            if term not in forb: F(f'{i}: {term} not in forbidden list')
            if cjk: ok=term in r['planted']
            else: ok=re.search(r'(?<!\w)'+re.escape(term)+r'(s|es|ed|d|ing)?(?!\w)',r['planted'],re.I) is not None
            if not ok: F(f'{i}: planted lacks {term}')
            detail=term
        for tt in forb:
            vs=variants(tt) if cjk else [tt]
            if any((v in o) if cjk else re.search(r'(?<!\w)'+re.escape(v)+r'(s|es|ed|d|ing)?(?!\w)',o,re.I) for v in vs): F(f'{i}: original contains forbidden {tt}')
        # echo check
        for k,(fm,txt) in ents.items():
            for label,x in (('modified',m),('original',o)):
                sm=difflib.SequenceMatcher(None,txt,x,autojunk=False)
                mt=sm.find_longest_match(0,len(txt),0,len(x))
                run=txt[mt.a:mt.a+mt.size]
                if cjk:
                    nc=len(re.findall(r'[\u3400-\u9fff]',run))
                    if nc>8: F(f'{i}: {k} shares {nc} CJK chars with {label} excerpt: {run}')
                else:
                    if len(run)>25: F(f'{i}: {k} shares {len(run)} chars with {label} excerpt: {run!r}')
        summary.append(f'{i} ch{n} {r["type"]}: {r["planted"]!r} | {detail} | len {len(o)}')
    if types!={'name':4,'fact':4,'state':4,'world':4}: F(f'{b}: type counts {types}')
    print(f'{b}: {nch} characters, {nloc} locations, {len(forb)} forbidden terms, cases {types}')
print('\n'.join(summary))
print('NOTES:'); print('\n'.join(notes) or '(none)')
print('FAILURES:',len(fails)); print('\n'.join(fails))
