"""Independent checker for fresh20: reads only the written files, the corpus and the prev accounts."""
import json, re, glob, os, yaml, difflib, sys
ROOT=os.environ.get('F20ROOT','/work/heldback/fresh20'); C='/work/shared/corpus'
BOOKS={'hongloumeng':('hlm',120),'xiyouji':('xyj',100),'pride-and-prejudice':('pp',61),'war-and-peace':('wp',365)}
prev=json.load(open(f'{ROOT}/tools/prev.json',encoding='utf-8'))
prevtxt='\n'.join(open(f,encoding='utf-8').read() for f in glob.glob('/work/heldback/prev/*-WRITER.md'))
fails=[]; out=[]
def F(msg): fails.append(msg)
def cjk(s): return bool(re.search(r'[\u4e00-\u9fff]',s))
def lev(a,b):
    d=list(range(len(b)+1))
    for i,x in enumerate(a,1):
        p,d[0]=d[0],i
        for j,y in enumerate(b,1): p,d[j]=d[j],min(d[j]+1,d[j-1]+1,p+(x!=y))
    return d[-1]
VAR={'兒':'儿','寧':'宁','後':'后','裏':'里','麼':'么','於':'于','鐘':'钟','電':'电','機':'机','槍':'枪','車':'车','燈':'灯','報':'报','紙':'纸','視':'视','線':'线','鐵':'铁','語':'语','話':'话','聲':'声','書':'书','學':'学','術':'术','廠':'厂','彈':'弹','藥':'药','飛':'飞','醫':'医','網':'网','腦':'脑','劑':'剂','錶':'表','盤':'盘','鍵':'键','輪':'轮','氣':'气','際':'际','號':'号','碼':'码','塊':'块','錄':'录','幣':'币','鋼':'钢','筆':'笔','膠':'胶','帶':'带','罐':'罐','裝':'装','頭':'头','園':'园','館':'馆','質':'质','遠':'远','鏡':'镜','屬':'属','導':'导','體':'体','絲':'丝','廣':'广','播':'播','衛':'卫','星':'星','發':'发','壓':'压','郵':'邮','票':'票','證':'证','針':'针','紗':'纱','隊':'队','艦':'舰','煙':'烟','礦':'矿','燒':'烧','瓶':'瓶','傘':'伞','鏈':'链','車':'车','運':'运','動':'动','機':'机'}
def simp(s): return ''.join(VAR.get(ch,ch) for ch in s)
def forb_pat(t):
    if cjk(t): return None
    w=r'[\s\-]+'.join(re.escape(x) for x in t.split())
    return re.compile(r'(?<![A-Za-z])'+w+r"(s|es|ed|d|ing|’s|'s)?(?![A-Za-z])",re.I)
def has_term(text,t):
    if cjk(t): return t in text or simp(t) in text
    return bool(forb_pat(t).search(text))
def front(path):
    s=open(path,encoding='utf-8').read()
    m=re.match(r'---\n(.*?)\n---\n(.*)',s,re.S)
    return m.group(1),yaml.safe_load(m.group(1)),m.group(2),s
def facts_at(d,n):
    f=dict(d.get('facts') or {})
    for p in d.get('progressions') or []:
        if p['chapter']<=n: f.update(p['facts'])
    return f
STAT={'unmarried','engaged','married','widowed','away','dead'}
for book,(pre,nch) in BOOKS.items():
    bd=f'{ROOT}/{book}'
    if not os.path.exists(f'{bd}/planted.jsonl'): F(f'{book}: no planted.jsonl'); continue
    chapters={n:open(f'{C}/{book}/{n:03d}.txt',encoding='utf-8').read() for n in range(1,nch+1)}
    whole='\n'.join(chapters.values())
    ents={}; texts={}
    for sub in ['characters','locations']:
        for p in sorted(glob.glob(f'{bd}/entities/{sub}/*.md')):
            raw,d,desc,s=front(p); rel=f'entities/{sub}/{os.path.basename(p)}'
            ents[rel]=d; texts[rel]=s
            keys=[l.split(':')[0] for l in raw.splitlines() if re.match(r'^\w+:',l)]
            if keys!=['name','aliases','kind','facts','progressions','relations']: F(f'{rel}: key order {keys}')
            if d['kind']!=('character' if sub=='characters' else 'location'): F(f'{rel}: kind')
            if not desc.strip(): F(f'{rel}: no description')
            for a in d['aliases']:
                n=whole.count(a) if cjk(a) else len(re.findall(r'(?<![A-Za-z])'+re.escape(a)+r'(?![A-Za-z])',whole))
                if n==0: F(f'{rel}: alias {a} not in book')
            if cjk(d['name']) and re.search('[儿宁后里么]',d['name']+''.join(d['aliases'])) is None and False: pass
            for k in d['facts']:
                if not re.fullmatch(r'[a-z][a-z0-9_]*',k): F(f'{rel}: key {k}')
            prog=d.get('progressions') or []
            if [p['chapter'] for p in prog]!=sorted(p['chapter'] for p in prog): F(f'{rel}: progressions order')
            for st in [d['facts']]+[p['facts'] for p in prog]:
                if 'status' in st:
                    if st['status'] not in STAT: F(f'{rel}: status {st["status"]}')
                    if st['status']=='away' and 'location' not in st: F(f'{rel}: away without location')
                for k in st:
                    if not re.fullmatch(r'[a-z][a-z0-9_]*',k): F(f'{rel}: key {k}')
    for rel,d in ents.items():
        for r in d.get('relations') or []:
            if r['to']+'.md' not in ents: F(f'{rel}: relation target {r["to"]}')
    nc=sum(1 for r in ents if 'characters/' in r); nl=len(ents)-nc
    if not 15<=nc<=18: F(f'{book}: {nc} characters')
    if not 5<=nl<=7: F(f'{book}: {nl} locations')
    raw,w,_,_=front(f'{bd}/meta/world-rules.md')
    terms=w['forbidden']
    if not w.get('era'): F(f'{book}: no era')
    if not 15<=len(terms)<=20: F(f'{book}: {len(terms)} terms')
    for t in terms:
        if has_term(whole,t): F(f'{book}: forbidden term {t} occurs in book')
        if (t in prevtxt) if cjk(t) else (t.lower() in prevtxt.lower()): F(f'{book}: term {t} in a prev account')
    cases=[json.loads(l) for l in open(f'{bd}/planted.jsonl',encoding='utf-8')]
    cnt={}; chs=[]
    used={(r['type'],r['chapter']) for r in prev if r['book']==book}
    prevplanted={r['planted'].strip() for r in prev if r['book']==book and r['planted']}
    allnames={}
    for rel,d in ents.items():
        for a in [d['name']]+d['aliases']: allnames.setdefault(a,set()).add(rel)
    for i,c in enumerate(cases,1):
        cid=c['id']; ty=c['type']; n=c['chapter']
        if list(c)!=['id','book','chapter','type','original_excerpt','modified_excerpt','span','planted','expected']: F(f'{cid}: fields')
        if cid!=f'{pre}-f20-{i:02d}': F(f'{cid}: id')
        cnt[ty]=cnt.get(ty,0)+1; chs.append(n)
        if (ty,n) in used: F(f'{cid}: chapter {n} used by earlier writer for {ty}')
        if c['planted'].strip() in prevplanted: F(f'{cid}: planted string used before')
        o,m=c['original_excerpt'],c['modified_excerpt']; s,e=c['span']; t=chapters[n]
        if t.count(o)!=1: F(f'{cid}: original occurs {t.count(o)}x')
        else:
            p=t.index(o); body=t.index('\n\n')+2
            if not (p>=body and (t[p-2:p]=='\n\n') and (t[p+len(o):p+len(o)+2]=='\n\n' or p+len(o)==len(t.rstrip('\n')))): F(f'{cid}: not paragraph-bounded')
        if not 300<=len(o)<=1500: F(f'{cid}: length {len(o)}')
        if m[s:e]!=c['planted']: F(f'{cid}: span mismatch')
        tail=len(m)-e
        if m[:s]!=o[:s] or (tail and m[e:]!=o[-tail:]) or len(o)<s+tail: F(f'{cid}: differs outside span')
        pl=c['planted']; ex=c['expected']
        mm=re.search(r'(entities/\S+?\.md)',ex); rel=mm.group(1) if mm else None
        if ty!='world' and rel not in ents: F(f'{cid}: expected file {rel}'); continue
        info=''
        if ty=='name':
            decl=ex.split(' — ')[0]; d=ents[rel]
            if decl not in [d['name']]+d['aliases']: F(f'{cid}: {decl} not declared in {rel}')
            mis=pl.strip()
            if cjk(mis):
                if len(mis)!=len(decl) or sum(a!=b for a,b in zip(mis,decl))!=1: F(f'{cid}: not one CJK substitution')
                if mis in whole or simp(mis) in whole: F(f'{cid}: misspelling occurs in book')
            else:
                if not 1<=lev(mis,decl)<=2: F(f'{cid}: edit distance')
                if re.search(r'(?<![A-Za-z])'+re.escape(mis)+r'(?![A-Za-z])',whole): F(f'{cid}: misspelling occurs in book')
            if mis in allnames: F(f'{cid}: misspelling is declared')
            if mis in prevtxt: F(f'{cid}: misspelling in prev account')
            if decl not in o[s:s+len(decl)+3] and decl not in o[max(0,s-3):s+len(decl)+3]: F(f'{cid}: original lacks {decl} at span')
            info=f'{decl}->{mis} d={lev(mis,decl)}'
        elif ty=='fact':
            mm=re.search(r'\.md: (\w+) = (.*)$',ex); key,val=mm.groups(); fa=facts_at(ents[rel],n)
            if key not in fa: F(f'{cid}: key {key} not declared as of {n}')
            elif str(fa[key])!=val: F(f'{cid}: expected value {val} != {fa[key]}')
            if val in pl: F(f'{cid}: planted contains right value')
            info=f'{rel}.{key}={val} -> {pl}'
        elif ty=='state':
            fa=facts_at(ents[rel],n); d=ents[rel]
            want=f"status = {fa.get('status')}"+(f", location = {fa.get('location')}" if fa.get('status')=='away' else '')+f' (as of chapter {n})'
            if fa.get('status') not in ('away','dead'): F(f'{cid}: status {fa.get("status")} as of {n}')
            if not ex.endswith(want): F(f'{cid}: expected {ex} vs {want}')
            nm=[d['name']]+d['aliases']
            if any((a in o) if cjk(a) else re.search(r'(?<![A-Za-z])'+re.escape(a)+r'(?![A-Za-z])',o) for a in nm): F(f'{cid}: original names the entity')
            if not any((a in pl) if cjk(a) else re.search(r'(?<![A-Za-z])'+re.escape(a)+r'(?![A-Za-z])',pl) for a in nm): F(f'{cid}: planted does not name entity')
            info=f'{rel} {fa.get("status")} {fa.get("location","")}'
        elif ty=='world':
            tm=re.match(r'forbidden term: (.*) \(meta/world-rules.md\)$',ex).group(1)
            if tm not in terms: F(f'{cid}: term not listed')
            if not has_term(pl,tm): F(f'{cid}: planted lacks term')
            info=tm
        for tm in terms:
            if has_term(o,tm): F(f'{cid}: original has term {tm}')
            if ty!='world' and has_term(m,tm): F(f'{cid}: modified has term {tm}')
        lim=8 if cjk(o) else 25; best=0
        for rel2,s2 in texts.items():
            for x in (o,m):
                sm=difflib.SequenceMatcher(None,s2,x,autojunk=False)
                b=sm.find_longest_match(0,len(s2),0,len(x)).size; best=max(best,b)
        if best>lim: F(f'{cid}: echo {best}')
        out.append(f'{cid} ch{n} {ty}: {pl!r} | {info} | len {len(o)} | longest echo {best}')
    if len(set(chs))!=len(chs): F(f'{book}: repeated chapter')
    out.insert(len(out)-len(cases),f'{book}: {nc} characters, {nl} locations, {len(terms)} forbidden terms, cases {dict(sorted(cnt.items()))}, chapters {sorted(chs)}')
print('\n'.join(out)); print('\n'.join('FAIL '+f for f in fails)); print('FAILURES:',len(fails))
