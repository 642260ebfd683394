"""Independent checker for fresh12: reads only the written files, the corpus and prev.json."""
import os,re,json,glob,difflib,itertools,yaml,sys
sys.path.insert(0,os.path.dirname(os.path.abspath(__file__)))
import cx
OUT='/work/heldback/fresh12/'
BOOKS={'hongloumeng':'hlm','xiyouji':'xyj','pride-and-prejudice':'pp','war-and-peace':'wp'}
ZH={'hlm','xyj'}
T2S=dict(zip('電腦機視鍋爐熱導彈槍衛車鋸護綠紅燈遙達氣動風鐵鍊溫計頭報紙郵關觀園孫壯',
             '电脑机视锅炉热导弹枪卫车锯护绿红灯遥达气动风铁链温计头报纸邮关观园孙壮'))
T2S2={'鍊':'炼'}
fails=[];notes=[]
def fail(m): fails.append(m)
def variants(s):
    opts=[]
    for ch in s:
        o={ch}
        if ch in T2S: o.add(T2S[ch])
        if ch in T2S2: o.add(T2S2[ch])
        for t,si in T2S.items():
            if si==ch: o.add(t)
        opts.append(sorted(o))
    return {''.join(p) for p in itertools.product(*opts)}
def en_term_re(t):
    w=re.escape(t).replace(r'\ ',r'[\s-]')
    return re.compile(r'(?<![\w])'+w+r'(s|es|ed|d|ing|’s|\'s)?(?![\w])',re.I)
def book_count(key,s,en_word=True):
    if key in ZH: return sum(sum(t.count(v) for v in variants(s)) for t in cx.ch(key).values())
    pat=re.compile(r'(?<![\w])'+re.escape(s)+r'(?![\w])')
    return sum(len(pat.findall(t)) for t in cx.ch(key).values())
def term_in(key,term,text):
    if key in ZH: return any(v in text for v in variants(term))
    return bool(en_term_re(term).search(text))
def lev(a,b):
    d=list(range(len(b)+1))
    for i,ca in enumerate(a,1):
        p=d[:]; d[0]=i
        for j,cb in enumerate(b,1): d[j]=min(p[j]+1,d[j-1]+1,p[j-1]+(ca!=cb))
    return d[-1]
def load_ents(book):
    ents={}
    for f in sorted(glob.glob(OUT+book+'/entities/*/*.md')):
        txt=open(f,encoding='utf-8').read()
        m=re.match(r'---\n(.*?)\n---\n(.*)',txt,re.S)
        fm=yaml.safe_load(m.group(1)); rel=f.split('/entities/')[1][:-3]
        if list(fm.keys())!=['name','aliases','kind','facts','progressions','relations']: fail(f'{book} {rel}: front matter keys {list(fm.keys())}')
        ents[rel]=dict(fm=fm,text=txt,body=m.group(2))
    return ents
def state_at(e,ch):
    f=dict(e['fm']['facts'])
    for p in e['fm']['progressions'] or []:
        if p['chapter']<=ch: f.update({k:v for k,v in p.items() if k!='chapter'})
    return f
def names(e): return [e['fm']['name']]+list(e['fm']['aliases'])
def has_alias(key,e,text):
    for a in names(e):
        if key in ZH:
            if any(v in text for v in variants(a)): return a
        elif re.search(r'(?<![\w])'+re.escape(a)+r'(?![\w])',text): return a
    return None
prev=json.load(open(os.path.join(os.path.dirname(__file__),'prev.json')))
def lcs(a,b):
    sm=difflib.SequenceMatcher(None,a,b,autojunk=False); m=sm.find_longest_match(0,len(a),0,len(b)); return a[m.a:m.a+m.size]
cjk=lambda s: sum(1 for c in s if '\u3400'<=c<='\u9fff')
lines=[]
for book,key in BOOKS.items():
    ents=load_ents(book)
    nch=sum(1 for r in ents if r.startswith('characters/')); nlo=sum(1 for r in ents if r.startswith('locations/'))
    if not(15<=nch<=18): fail(f'{book}: {nch} characters')
    if not(5<=nlo<=7): fail(f'{book}: {nlo} locations')
    allnames=set()
    for r,e in ents.items():
        fm=e['fm']
        for a in fm['aliases']:
            if book_count(key,a)==0: fail(f'{book} {r}: alias {a} not in book')
        if book_count(key,fm['name'])==0: notes.append(f'{book} {r}: canonical name {fm["name"]} not spelled out in the book (kept as name only)')
        allnames.update(names(e))
        for rel in fm['relations'] or []:
            if rel['to'].replace('entities/','') not in ents: fail(f'{book} {r}: relation target {rel["to"]} missing')
        chs=[p['chapter'] for p in fm['progressions'] or []]
        if chs!=sorted(chs): fail(f'{book} {r}: progressions out of order')
        for p in fm['progressions'] or []:
            if p.get('status')=='away' and 'location' not in p: fail(f'{book} {r}: away without location')
            if 'status' in p and p['status'] not in('unmarried','engaged','married','widowed','away','dead'): fail(f'{book} {r}: status {p["status"]}')
        for k in fm['facts']:
            if not re.fullmatch(r'[a-z_]+',k): fail(f'{book} {r}: fact key {k}')
    wr=open(OUT+book+'/meta/world-rules.md',encoding='utf-8').read()
    wfm=yaml.safe_load(re.match(r'---\n(.*?)\n---',wr,re.S).group(1))
    forb=wfm['forbidden']
    if not wfm.get('era'): fail(f'{book}: no era')
    for t in forb:
        n=sum(1 for tx in cx.ch(key).values() if term_in(key,t,tx))
        if n: fail(f'{book}: forbidden {t} occurs in {n} chapters')
    pv=[p for p in prev if p['book']==key]
    prev_terms={re.search(r'forbidden term: (.*?) \(',p['expected']).group(1).lower() for p in prev if p['type']=='world'}
    for t in forb:
        if t.lower() in prev_terms: fail(f'{book}: forbidden term {t} used by an earlier writer')
    cases=[json.loads(l) for l in open(OUT+book+'/planted.jsonl',encoding='utf-8')]
    from collections import Counter
    cnt=Counter(c['type'] for c in cases)
    if cnt!={'name':4,'fact':4,'state':4,'world':4}: fail(f'{book}: counts {cnt}')
    chs=[c['chapter'] for c in cases]
    if len(set(chs))!=len(chs): fail(f'{book}: repeated chapters')
    lines.append(f'{book}: {nch} characters, {nlo} locations, {len(forb)} forbidden terms, cases {dict(cnt)}, chapters {sorted(chs)}')
    for c in cases:
        cid=c['id']; ch=c['chapter']; o=c['original_excerpt']; m=c['modified_excerpt']; s,e=c['span']; t=c['type']
        if list(c.keys())!=['id','book','chapter','type','original_excerpt','modified_excerpt','span','planted','expected']: fail(f'{cid}: field order')
        text=cx.ch(key)[ch]
        if text.count(o)!=1: fail(f'{cid}: original occurs {text.count(o)} times in chapter')
        if not(300<=len(o)<=1500): fail(f'{cid}: length {len(o)}')
        if m[s:e]!=c['planted']: fail(f'{cid}: span does not slice to planted')
        # difference only inside span
        pre=0
        while pre<min(len(o),len(m)) and o[pre]==m[pre]: pre+=1
        suf=0
        while suf<min(len(o),len(m))-pre and o[-1-suf]==m[-1-suf]: suf+=1
        ds,de=pre,len(m)-suf
        if not(ds>=s-1 and de<=e and (ds>=s or m[ds]==' ')): fail(f'{cid}: diff region [{ds},{de}) outside span [{s},{e})')
        if any(p['ch']==ch and p['type']==t for p in pv): fail(f'{cid}: chapter {ch} used by an earlier writer for {t}')
        if any(p['planted']==c['planted'] for p in pv): fail(f'{cid}: planted string used earlier')
        for tt in forb:
            if term_in(key,tt,o): fail(f'{cid}: original contains forbidden {tt}')
            if t!='world' and term_in(key,tt,m): fail(f'{cid}: modified contains forbidden {tt}')
        info=''
        if t=='name':
            mm=re.match(r'(.+?) — entities/(.+)\.md$',c['expected']); right,ent=mm.group(1),mm.group(2)
            if ent not in ents or right not in names(ents[ent]): fail(f'{cid}: {right} not declared for {ent}')
            pl=c['planted']
            # misspelling: the planted string itself or as a word inside the planted text
            if key in ZH:
                if len(pl)!=len(right) or sum(a!=b for a,b in zip(pl,right))!=1: fail(f'{cid}: {pl} not one substitution from {right}')
                d=1
            else:
                cands=[a for a in names(ents[ent]) if a in o[s-30 if s>30 else 0:e+30] or True]
                d=min(lev(pl,right),min(lev(pl,w) for w in right.split()))
                if not(1<=d<=2): fail(f'{cid}: edit distance {d}')
            if book_count(key,pl)!=0: fail(f'{cid}: misspelling {pl} occurs in book')
            if pl in allnames: fail(f'{cid}: misspelling is a declared name')
            if any(pl==p['planted'] for p in prev): fail(f'{cid}: misspelling used before')
            info=f"'{right}'->'{pl}' (d={d})"
        elif t=='fact':
            mm=re.match(r'entities/(.+)\.md: (\w+) = (.+)$',c['expected']); ent,k,v=mm.groups()
            st=state_at(ents[ent],ch)
            if k not in st: fail(f'{cid}: key {k} not declared for {ent} at ch {ch}')
            elif str(st[k])!=v: fail(f'{cid}: expected {v} != declared {st[k]}')
            if any(p['type']=='fact' and f'entities/{ent}.md: {k} =' in p['expected'] for p in prev): fail(f'{cid}: ({ent},{k}) used earlier')
            core=v
            if core not in o and not(key=='pp' and core.split()[0] in o): notes.append(f'{cid}: value {v} not verbatim in original')
            if v in c['planted']: fail(f'{cid}: planted contains the right value')
            info=f'{ent}.{k}={v} -> {c["planted"]}'
        elif t=='state':
            mm=re.match(r'entities/(.+)\.md: status = (\w+)(?:, location = (.+?))? \(as of chapter (\d+)\)$',c['expected']); ent,stt,loc,chx=mm.groups()
            st=state_at(ents[ent],ch)
            if int(chx)!=ch: fail(f'{cid}: chapter mismatch')
            if st.get('status')!=stt or stt not in('away','dead'): fail(f'{cid}: status {st.get("status")} vs {stt}')
            if stt=='away' and st.get('location')!=loc: fail(f'{cid}: location {st.get("location")} vs {loc}')
            a=has_alias(key,ents[ent],o)
            if a: fail(f'{cid}: original names {ent} ({a})')
            if not has_alias(key,ents[ent],c['planted']): fail(f'{cid}: planted does not name {ent}')
            info=f'{ent} {stt} {loc or ""}'
        elif t=='world':
            term=re.match(r'forbidden term: (.+) \(meta/world-rules.md\)$',c['expected']).group(1)
            if term not in forb: fail(f'{cid}: {term} not listed')
            if not term_in(key,term,c['planted']): fail(f'{cid}: planted lacks {term}')
            if term.lower() in prev_terms: fail(f'{cid}: term used earlier')
            info=term
        # echo check
        worst=('',None)
        for r,en in ents.items():
            for ex in (m,o):
                x=lcs(en['text'],ex)
                score=cjk(x) if key in ZH else len(x)
                if score>(cjk(worst[0]) if key in ZH else len(worst[0])): worst=(x,r)
        score=cjk(worst[0]) if key in ZH else len(worst[0])
        lim=8 if key in ZH else 25
        if score>lim: fail(f'{cid}: entity file {worst[1]} shares {worst[0]!r} with excerpt')
        lines.append(f'{cid} ch{ch} {t}: {c["planted"]!r} | {info} | len {len(o)} | longest echo {score}')
print('\n'.join(lines))
print('NOTES:'); print('\n'.join(notes))
print('FAILURES:',len(fails)); print('\n'.join(fails))
