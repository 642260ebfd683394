"""Independent checker for fresh16: reads only the written files, the corpus and the prev accounts."""
import json, re, os, glob, difflib, sys
import yaml
OUT=os.environ.get('FRESH16_OUT','/work/heldback/fresh16')
CORP='/work/shared/corpus'
BOOKS={'hongloumeng':('hlm',120,True),'xiyouji':('xyj',100,True),'pride-and-prejudice':('pp',61,False),'war-and-peace':('wp',365,False)}
PREVTXT=''.join(open(f,encoding='utf-8').read() for f in sorted(glob.glob('/work/heldback/prev/*-WRITER.md')))
PREV=json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)),'prev.json'),encoding='utf-8'))
STAT={'unmarried','engaged','married','widowed','away','dead'}
FIELDS=['id','book','chapter','type','original_excerpt','modified_excerpt','span','planted','expected']
fails=[]; notes=[]; summary=[]
def F(msg): fails.append(msg)
def chap(book,c): return open(f'{CORP}/{book}/{c:03d}.txt',encoding='utf-8').read()
def lev(a,b):
    d=list(range(len(b)+1))
    for i,ca in enumerate(a,1):
        p=d[:]; d[0]=i
        for j,cb in enumerate(b,1): d[j]=min(p[j]+1,d[j-1]+1,p[j-1]+(ca!=cb))
    return d[-1]
def en_re(term):
    parts=[re.escape(p) for p in re.split(r'[ -]',term)]
    return re.compile(r'(?<![\w])'+r'[ -]'.join(parts)+r"(s|es|ed|d|ing|’s|'s)?(?![\w])", re.I)
def has_term(text,term,zh): return (term in text) if zh else bool(en_re(term).search(text))
def has_name(text,name,zh):
    if zh: return name in text
    return bool(re.search(r'(?<![\w])'+re.escape(name)+r'(?![\w])',text))
def load_ent(path):
    raw=open(path,encoding='utf-8').read()
    m=re.match(r'^---\n(.*?)\n---\n(.*)$',raw,re.S)
    if not m: F(f'{path}: no front matter'); return None,raw
    fm=yaml.safe_load(m[1]); keys=list(fm.keys())
    if keys!=['name','aliases','kind','facts','progressions','relations']: F(f'{path}: key order {keys}')
    if not m[2].strip(): F(f'{path}: no description')
    return fm,raw
def facts_at(fm,ch):
    f=dict(fm.get('facts') or {})
    for p in fm.get('progressions') or []:
        if p['chapter']<=ch: f.update(p['facts'])
    return f
for book,(short,nch,zh) in BOOKS.items():
    root=f'{OUT}/{book}'
    if not os.path.isdir(root): F(f'{book}: missing'); continue
    fulltext='\n'.join(chap(book,c) for c in range(1,nch+1))
    ents={}; raws={}
    for kind,d in [('character','characters'),('location','locations')]:
        for p in sorted(glob.glob(f'{root}/entities/{d}/*.md')):
            rel=f'entities/{d}/'+os.path.basename(p)
            fm,raw=load_ent(p)
            if fm is None: continue
            ents[rel]=fm; raws[rel]=raw
            if fm['kind']!=kind: F(f'{rel}: kind {fm["kind"]}')
            names=[fm['name']]+list(fm['aliases'] or [])
            for a in fm['aliases'] or []:
                if not has_name(fulltext,a,zh): F(f'{book} {rel}: alias {a!r} not in book')
            if not has_name(fulltext,fm['name'],zh): notes.append(f'{book} {rel}: name {fm["name"]} not spelled out in the book (kept as name only)')
            for k in (fm['facts'] or {}):
                if not re.fullmatch(r'[a-z][a-z0-9_]*',k): F(f'{rel}: fact key {k}')
            chs=[p_['chapter'] for p_ in fm['progressions'] or []]
            if chs!=sorted(chs): F(f'{rel}: progressions out of order')
            for p_ in fm['progressions'] or []:
                for k in p_['facts']:
                    if not re.fullmatch(r'[a-z][a-z0-9_]*',k): F(f'{rel}: fact key {k}')
            for ch in [0]+chs:
                f=facts_at(fm,ch)
                if 'status' in f and f['status'] not in STAT: F(f'{rel}: status {f["status"]}')
                if f.get('status')=='away' and not f.get('location'): F(f'{rel}: away without location at {ch}')
            for r in fm['relations'] or []:
                if not os.path.exists(f'{root}/{r["to"]}.md'): F(f'{rel}: relation target {r["to"]} missing')
    nc=sum(1 for r in ents if '/characters/' in r); nl=len(ents)-nc
    if not 15<=nc<=18: F(f'{book}: {nc} characters')
    if not 5<=nl<=7: F(f'{book}: {nl} locations')
    wr=open(f'{root}/meta/world-rules.md',encoding='utf-8').read()
    wm=yaml.safe_load(re.match(r'^---\n(.*?)\n---',wr,re.S)[1])
    forb=wm['forbidden']
    if not wm.get('era'): F(f'{book}: no era')
    if not 15<=len(forb)<=20: F(f'{book}: {len(forb)} forbidden terms')
    for t in forb:
        if has_term(fulltext,t,zh): F(f'{book}: forbidden term {t} occurs in book')
        if has_term(PREVTXT,t,zh): F(f'{book}: forbidden term {t} occurs in a prev account')
    # declared names
    declared={}
    for rel,fm in ents.items():
        for n in [fm['name']]+list(fm['aliases'] or []): declared.setdefault(n,set()).add(rel)
    recs=[json.loads(l) for l in open(f'{root}/planted.jsonl',encoding='utf-8')]
    cnt={}; chl=[]
    used={(r['type'],r['ch']) for r in PREV if r['book']==book}
    prevplanted={r['planted'] for r in PREV if r['book']==book and r['planted']}
    lines=[]
    for n,r in enumerate(recs,1):
        cid=r.get('id')
        if list(r.keys())!=FIELDS: F(f'{cid}: fields {list(r.keys())}')
        if cid!=f'{short}-f16-{n:02d}': F(f'{cid}: id')
        if r['book']!=book: F(f'{cid}: book')
        ty=r['type']; ch=r['chapter']; cnt[ty]=cnt.get(ty,0)+1; chl.append(ch)
        if (ty,ch) in used: F(f'{cid}: chapter {ch} used by an earlier writer for {ty}')
        o=r['original_excerpt']; m=r['modified_excerpt']; s,e=r['span']; pl=r['planted']
        t=chap(book,ch)
        if t.count(o)!=1: F(f'{cid}: original occurs {t.count(o)} times in chapter')
        else:
            i=t.index(o)
            if not (t[i-1]=='\n' and (i+len(o)==len(t) or t[i+len(o)]=='\n')) or i<t.index('\n'): F(f'{cid}: not cut at paragraph boundaries')
        if not 300<=len(o)<=1500: F(f'{cid}: length {len(o)}')
        if m[s:e]!=pl: F(f'{cid}: span does not slice to planted')
        if m[:s]!=o[:s]: F(f'{cid}: prefix differs')
        if m[e:]!=o[len(o)-(len(m)-e):] : F(f'{cid}: suffix differs')
        if pl in prevplanted or (len(pl.strip(' ，,、'))>=2 and pl.strip(' ，,、') in prevplanted): F(f'{cid}: planted string used by an earlier writer')
        for tt in forb:
            if has_term(o,tt,zh): F(f'{cid}: original contains forbidden {tt}')
            if ty!='world' and has_term(m,tt,zh): F(f'{cid}: modified contains forbidden {tt}')
        exp=r['expected']; info=''
        if ty=='name':
            mm=re.match(r'^(.*) — (entities/.*\.md)$',exp)
            right,rel=mm[1],mm[2][:-3] if mm else (None,None)
            rel=mm[2]
            fm=ents.get(rel)
            if not fm or right not in [fm['name']]+list(fm['aliases'] or []): F(f'{cid}: expected name not declared')
            if zh:
                dd=sum(a!=b for a,b in zip(pl,right)) if len(pl)==len(right) else 99
                if dd!=1: F(f'{cid}: zh misspelling not one substitution ({dd})')
                if pl in fulltext: F(f'{cid}: misspelling occurs in book')
            else:
                dd=lev(pl,right)
                if not 1<=dd<=2: F(f'{cid}: edit distance {dd}')
                if has_name(fulltext,pl,False): F(f'{cid}: misspelling occurs in book')
            if pl in declared: F(f'{cid}: misspelling is declared')
            if (pl in PREVTXT) if zh else has_name(PREVTXT,pl,False): F(f'{cid}: misspelling appears in a prev account')
            info=f'{right!r}->{pl!r} (d={dd})'
        elif ty=='fact':
            mm=re.match(r'^(entities/.*\.md): (\w+) = (.*)$',exp)
            rel,key,val=mm[1],mm[2],mm[3]
            fm=ents.get(rel)
            f=facts_at(fm,ch) if fm else {}
            if key not in f: F(f'{cid}: key {key} not declared as of {ch}')
            elif str(f[key])!=val: F(f'{cid}: expected value {val} != declared {f[key]}')
            if val in pl: F(f'{cid}: planted contains the value')
            info=f'{rel}.{key}={val} -> {pl}'
        elif ty=='state':
            mm=re.match(r'^(entities/.*\.md): status = (away|dead)(?:, location = (.*?))? \(as of chapter (\d+)\)$',exp)
            if not mm: F(f'{cid}: state expected format'); continue
            rel,st,loc,c2=mm[1],mm[2],mm[3],int(mm[4])
            fm=ents.get(rel); f=facts_at(fm,ch) if fm else {}
            if c2!=ch: F(f'{cid}: chapter mismatch')
            if f.get('status')!=st: F(f'{cid}: status as of {ch} is {f.get("status")}')
            if st=='away' and f.get('location')!=loc: F(f'{cid}: location {f.get("location")} != {loc}')
            nm=[fm['name']]+list(fm['aliases'] or [])
            for a in nm:
                if has_name(o,a,zh): F(f'{cid}: original names the character ({a})')
            if not any(has_name(pl,a,zh) for a in nm): F(f'{cid}: planted does not name the character')
            info=f'{rel} {st} {loc or ""}'
        elif ty=='world':
            mm=re.match(r'^forbidden term: (.*) \(meta/world-rules\.md\)$',exp)
            term=mm[1]
            if term not in forb: F(f'{cid}: term not listed')
            if not has_term(pl,term,zh): F(f'{cid}: planted lacks term')
            info=term
        else: F(f'{cid}: type {ty}')
        # echo
        worst=0
        for rel,raw in raws.items():
            for x in (o,m):
                sm=difflib.SequenceMatcher(None,raw,x,autojunk=False)
                k=sm.find_longest_match(0,len(raw),0,len(x))
                sub=x[k.b:k.b+k.size]
                size=len(re.findall(r'[\u3400-\u9fff]',sub)) if zh else k.size
                worst=max(worst,size)
                if size>(8 if zh else 25): F(f'{cid}: echo {size} with {rel}: {sub!r}')
        lines.append(f'{cid} ch{ch} {ty}: {pl!r} | {info} | len {len(o)} | longest echo {worst}')
    want={'name':4,'fact':6,'state':6,'world':2}
    if cnt!=want: F(f'{book}: type counts {cnt}')
    if len(set(chl))!=len(chl) or len(chl)!=18: F(f'{book}: chapters not 18 distinct: {sorted(chl)}')
    summary.append(f'{book}: {nc} characters, {nl} locations, {len(forb)} forbidden terms, cases {dict(sorted(cnt.items()))}, chapters {sorted(chl)}')
    summary.extend(lines)
print('\n'.join(summary))
if notes: print('NOTES:'); print('\n'.join(notes))
print('FAILURES:',len(fails)); print('\n'.join(fails))
