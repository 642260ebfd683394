import json,re,os,glob,yaml,itertools,collections
from difflib import SequenceMatcher
from cx import chapters
ROOT='/work/heldback/fresh11'
BOOKS=['hongloumeng','xiyouji','pride-and-prejudice','war-and-peace']
CJKB={'hongloumeng','xiyouji'}
PREV=json.load(open(os.path.join(os.path.dirname(__file__),'prev.json')))
# traditional<->simplified pairs for characters appearing in forbidden terms / names (manual table)
TS=dict(zip('電腦機話視燈車筒鍵盤飛彈槍網銀鐵齒輪線燈錶鐘錄聲熱氣調鋼琴貓頭鷹爐箱幣場運動網遊戲碼衛閃員營數據軟體紅綠燈霓虹樓梯鏡頭隊備裝導體蘋記憶卡照攝晶顯標語罐頭麵條紙簡訊號讀報館縣區廠藥療傳針劑營養維權選舉議會黨團專產實際開關應節級權',
                '电脑机话视灯车筒键盘飞弹枪网银铁齿轮线灯表钟录声热气调钢琴猫头鹰炉箱币场运动网游戏码卫闪员营数据软体红绿灯霓虹楼梯镜头队备装导体苹记忆卡照摄晶显标语罐头面条纸简讯号读报馆县区厂药疗传针剂营养维权选举议会党团专产实际开关应节级权'))
EXTRA=dict(zip('筆輪礦計調鐵爐氣達噴動車扇塵器','笔轮矿计调铁炉气达喷动车扇尘器'))
TS.update(EXTRA)
def variants(term):
    opts=[]
    for ch in term:
        s={ch}
        if ch in TS: s.add(TS[ch])
        for k,v in TS.items():
            if v==ch: s.add(k)
        opts.append(sorted(s))
    return {''.join(p) for p in itertools.product(*opts)}
def eng_pat(term):
    words=term.split()
    body=r'\s+'.join(re.escape(w) for w in words)
    return re.compile(r'(?<![\w-])'+body+r'(?:s|es|ed|d|ing|’s)?(?![\w])',re.I)
def count_in(book,text_or_chs,term,cjk,case=True):
    if cjk:
        return sum(t.count(v) for t in text_or_chs for v in variants(term))
    pat=eng_pat(term) if not case else re.compile(r'(?<![\w])'+re.escape(term)+r'(?![\w])')
    return sum(len(pat.findall(t)) for t in text_or_chs)
def name_in(text,n,cjk):
    if cjk: return n in text
    return re.search(r'(?<![\w])'+re.escape(n)+r'(?![\w])',text) is not None
def lev(a,b):
    d=list(range(len(b)+1))
    for i,ca in enumerate(a,1):
        p,d[0]=d[0],i
        for j,cb in enumerate(b,1):
            p,d[j]=d[j],min(d[j]+1,d[j-1]+1,p+(ca!=cb))
    return d[-1]
def load_entities(book):
    ents={}
    for p in sorted(glob.glob(f'{ROOT}/{book}/entities/*/*.md')):
        txt=open(p,encoding='utf-8').read(); m=re.match(r'---\n(.*?)\n---\n(.*)',txt,re.S)
        fm=yaml.safe_load(m.group(1)); rel=os.path.relpath(p,f'{ROOT}/{book}')
        ents[rel[:-3]]=dict(fm=fm,body=m.group(2),path=rel,raw=txt)
    return ents
def facts_as_of(fm,ch):
    f=dict(fm.get('facts') or {})
    for pr in fm.get('progressions') or []:
        if pr['chapter']<=ch: f.update({k:v for k,v in pr.items() if k!='chapter'})
    return f
def lcs(a,b):
    sm=SequenceMatcher(None,a,b,autojunk=False); m=sm.find_longest_match(0,len(a),0,len(b)); return a[m.a:m.a+m.size]
FAIL=[];NOTES=[]
def fail(*a): FAIL.append(' '.join(str(x) for x in a))
report=[]
for book in BOOKS:
    if not os.path.isdir(f'{ROOT}/{book}'): fail(book,'missing'); continue
    cjk=book in CJKB; chs=chapters(book); texts=list(chs.values()); alltext='\n'.join(texts)
    ents=load_entities(book)
    nchar=sum(1 for k in ents if k.startswith('entities/characters/')); nloc=sum(1 for k in ents if k.startswith('entities/locations/'))
    if not 15<=nchar<=18: fail(book,'characters',nchar)
    if not 5<=nloc<=7: fail(book,'locations',nloc)
    allnames=set()
    for k,e in ents.items():
        fm=e['fm']
        for key in ['name','aliases','kind','facts','progressions','relations']:
            if key not in fm: fail(book,k,'missing key',key)
        if list(fm.keys())!=['name','aliases','kind','facts','progressions','relations']: fail(book,k,'key order',list(fm.keys()))
        for a in fm['aliases']:
            c=count_in(book,texts,a,cjk)
            if c==0: fail(book,k,'alias not in book',a)
        if count_in(book,texts,fm['name'],cjk)==0: NOTES.append(f'{book} {k}: canonical name {fm["name"]} not spelled out in the book (kept as name only)')
        allnames.update([fm['name']]+fm['aliases'])
        prs=[p['chapter'] for p in fm['progressions'] or []]
        if prs!=sorted(prs): fail(book,k,'progressions out of order')
        for r in fm['relations'] or []:
            if r['to'] not in ents: fail(book,k,'relation target missing',r['to'])
        for kk in (fm['facts'] or {}):
            if not re.fullmatch(r'[a-z_]+',kk): fail(book,k,'fact key not English snake case',kk)
        if not e['body'].strip(): fail(book,k,'no description')
    rules=yaml.safe_load(re.match(r'---\n(.*?)\n---',open(f'{ROOT}/{book}/meta/world-rules.md',encoding='utf-8').read(),re.S).group(1))
    terms=rules['forbidden']
    for t in terms:
        c=count_in(book,texts,t,cjk,case=False)
        if c: fail(book,'forbidden term occurs in book',t,c)
    prevw={re.search(r'forbidden term: (.+?) \(',r['expected']).group(1).lower() for r in PREV['rows'] if r['type']=='world' and 'forbidden term' in r['expected']}
    cases=[json.loads(l) for l in open(f'{ROOT}/{book}/planted.jsonl',encoding='utf-8')]
    cnt=collections.Counter(c['type'] for c in cases)
    if any(cnt[t]!=4 for t in ['name','fact','state','world']) or len(cases)!=16: fail(book,'case counts',dict(cnt))
    chapters_used=[c['chapter'] for c in cases]
    if len(set(chapters_used))!=16: fail(book,'chapters repeat',sorted(chapters_used))
    prevplanted={r['planted'] for r in PREV['rows']}
    ids=set()
    for c in cases:
        cid=c['id']
        if list(c.keys())!=['id','book','chapter','type','original_excerpt','modified_excerpt','span','planted','expected']: fail(cid,'field order')
        if cid in ids: fail(cid,'dup id')
        ids.add(cid)
        ch=c['chapter']; t=chs[ch]; o=c['original_excerpt']; m=c['modified_excerpt']; a,b=c['span']
        if ch in PREV['used'][book][c['type']]: fail(cid,'chapter used by earlier writer for',c['type'])
        if c['planted'] in prevplanted: fail(cid,'planted string reused from earlier writer')
        if t.count(o)!=1: fail(cid,'original not unique verbatim',t.count(o))
        if not 300<=len(o)<=1500: fail(cid,'length',len(o))
        if m[a:b]!=c['planted']: fail(cid,'span does not slice to planted')
        tail=len(m)-b
        strict=(m[:a]==o[:a] and m[b:]==o[len(o)-tail:] and len(o)-tail>=a)
        loose=(a>0 and m[a-1]==' ' and o.startswith(m[:a-1]) and o.endswith(m[b:]) and len(o)-tail>=a-1)
        if not (strict or loose): fail(cid,'differs outside span')
        old=o[a:len(o)-tail] if strict else o[a-1:len(o)-tail]; new=m[a:b]
        ent=None; em=re.search(r'(entities/(?:characters|locations)/[\w-]+)\.md',c['expected'])
        if em: ent=ents.get(em.group(1))
        info=''
        if c['type']=='name':
            if not ent: fail(cid,'expected entity missing'); continue
            names=[ent['fm']['name']]+ent['fm']['aliases']
            # find misspelled token: the planted text
            mis=new
            if cjk:
                ok=[n for n in names if len(n)==len(mis) and sum(x!=y for x,y in zip(n,mis))==1]
            else:
                ok=[n for n in names if 1<=lev(n,mis)<=2] or [n for n in names if mis in n or 1<=lev(n.split()[-1],mis)<=2]
            ok.sort(key=lambda n:(n!=old, len(n)))
            if not ok: fail(cid,'not a near miss of any alias of',em.group(1),mis)
            if not name_in(o,old,cjk) and not any(n in o for n in ok): fail(cid,'original lacks the correct form')
            if (alltext.count(mis) if cjk else len(re.findall(r'(?<![\w])'+re.escape(mis)+r'(?![\w])',alltext))): fail(cid,'misspelling occurs in book',mis)
            if cjk:
                for v in variants(mis):
                    if v in alltext: fail(cid,'misspelling variant occurs in book',v)
            if mis in allnames: fail(cid,'misspelling is a declared name')
            if mis in prevplanted: fail(cid,'misspelling used by earlier writer')
            want=f"— {em.group(1)}.md"
            if not any(c['expected'].startswith(n+' ') for n in names): fail(cid,'expected does not start with a declared name')
            info=f'{old!r}->{mis!r} (d={lev(old,mis)}) alias {ok[0]!r}'
        elif c['type']=='fact':
            fm_=re.search(r':\s*(\w+) = (.+)$',c['expected'])
            if not ent or not fm_: fail(cid,'bad expected'); continue
            key,val=fm_.group(1),fm_.group(2)
            f=facts_as_of(ent['fm'],ch)
            if key not in f: fail(cid,'key not declared as of chapter',key)
            elif str(f[key])!=val: fail(cid,'expected value differs',f[key],val)
            if val.split()[-1].lower() not in o.lower(): NOTES.append(f'{cid}: declared value {val!r} not literally in original')
            prevf={tuple(re.search(r'entities/\S+/([\w-]+)\.md: (\w+)',r['expected']).groups()) for r in PREV['rows'] if r['type']=='fact' and r['pre']==cid.split('-')[0] and re.search(r'entities/\S+/([\w-]+)\.md: (\w+)',r['expected'])}
            if (em.group(1).split('/')[-1],key) in prevf: fail(cid,'fact (entity,key) used by earlier writer')
            info=f'{old!r}->{new!r} key {key}={val}'
        elif c['type']=='state':
            if not ent: fail(cid,'expected entity missing'); continue
            f=facts_as_of(ent['fm'],ch); st=f.get('status')
            if st not in ('away','dead'): fail(cid,'status as of chapter is',st)
            exp=f"status = {st}"+(f", location = {f.get('location')}" if st=='away' else '')+f" (as of chapter {ch})"
            if exp not in c['expected']: fail(cid,'expected mismatch',exp)
            names=[ent['fm']['name']]+ent['fm']['aliases']
            hit=[n for n in names if name_in(o,n,cjk)]
            if hit: fail(cid,'absent entity named in original',hit)
            if not any(name_in(new,n,cjk) for n in names): fail(cid,'planted text does not name the entity')
            info=f'{st} {f.get("location","")}'
        elif c['type']=='world':
            tm=re.search(r'forbidden term: (.+?) \(',c['expected']).group(1)
            if tm not in terms: fail(cid,'term not in list',tm)
            if count_in(book,[new],tm,cjk,case=False)==0: fail(cid,'planted lacks term',tm)
            if tm.lower() in prevw: fail(cid,'world term used by earlier writer',tm)
            info=tm
        for tt in terms:
            if count_in(book,[o],tt,cjk,case=False): fail(cid,'original contains forbidden term',tt)
            if c['type']!='world' and count_in(book,[m],tt,cjk,case=False): fail(cid,'modified contains forbidden term',tt)
        # echo check
        lim=8 if cjk else 25
        win=m[max(0,a-200):b+200]
        for k,e in ents.items():
            for src in (m,o):
                s=lcs(e['raw'],src)
                n=len(re.findall(r'[\u3400-\u9fff]',s)) if cjk else len(s)
                if n>lim: fail(cid,'entity file echoes excerpt',k,repr(s))
        report.append(f"{cid} ch{ch} {c['type']}: {c['planted']!r} | {info} | len {len(o)}")
    print(f"{book}: {nchar} characters, {nloc} locations, {len(terms)} forbidden terms, cases {dict(cnt)}, chapters {sorted(chapters_used)}")
print('\n'.join(report))
print('NOTES:'); print('\n'.join(NOTES) or '(none)')
print('FAILURES:',len(FAIL)); print('\n'.join(FAIL))
