import sys,re,json,os,yaml,difflib; sys.path.insert(0,'/work/heldback/fresh8/tools'); from lib import *
T2S=dict(zip('電機燈車動鐵絲網話視腦錶鐘彈龍槍飛氣煙紙樂頭際絡膠麵戲銀蘭歐術衛線聲郵檳來報鉛筆裝書幣滅診聽遠鏡鋼輪發熱瓶護層樓開關針', '电机灯车动铁丝网话视脑表钟弹龙枪飞气烟纸乐头际络胶面戏银兰欧术卫线声邮槟来报铅笔装书币灭诊听远镜钢轮发热瓶护层楼开关针'))
T2S.update(zip('潛傘達對講鑽艙','潜伞达对讲钻舱'))
def simp(s): return ''.join(T2S.get(c,c) for c in s)
PREV={ # chapters used by earlier writers, per book and type
 'hongloumeng':{'name':[6,8,26,27,34,47,48,51,54,57,76,89,95,105],'fact':[1,2,3,4,7,22,41,55,67,71,96,99,109,110],'state':[14,19,29,38,53,62,76,81,91,101,108,113,117,118],'world':[4,12,13,18,38,40,41,45,52,63,70,92,119,120]},
 'xiyouji':{'name':[23,30,31,45,50,59,60,97],'fact':[15,22,38,53,54,56,88,91],'state':[12,16,20,28,29,47,61,63],'world':[1,14,28,41,49,62,68,93]},
 'pride-and-prejudice':{'name':[3,6,9,14,15,16,18,20,29,42,44,45,53,57],'fact':[1,5,7,10,13,16,18,22,29,30,32,50,52,59],'state':[25,28,31,38,39,41,42,45,47,51,53,54,55,59],'world':[1,7,8,10,11,12,26,36,43,46,47,48,57,60]},
 'war-and-peace':{'name':[12,41,48,133,144,195,231,256],'fact':[3,9,32,78,84,118,194,347],'state':[71,98,136,154,201,330,335,350],'world':[19,100,109,188,225,227,289,302]}}
PREVMIS={'寶叉','代玉','睛雯','相云','習人','賈連','劉佬佬','薜蟠','紫絹','蕭湘館','買母','汪夫人','怡虹院','薛姨嗎','朱八戒','悟靜','牛魔玉','唐三臧','康僧','八誡','洪孩兒','水濂洞',
 'Elizebeth','Mrs. Bennett','Lady Cathrine','Mr. Gardener','Georgianna','Netherfeild','Longbourne','Mr. Colins','Mrs. Phillips','Lady Catherine de Burgh','Lizy','Lidia','Mr. Dracy','Lampton',
 'Kity','Bingly','Wickam','Darcey','Charlote','Catharine','Fitzwiliam','Pemberly','Georgina','Elisabeth',
 'Dólokov','Bald Hils','Kutúsov','Piere','Bolkónsky','Sónia','Atrádnoe','Natáscha'}
PREVTERMS={'警察','坐火車','火車','電話','電燈','相片','沙發','咖啡','紙煙','鋼筆','火柴','電報','留聲機','汽車','輪船','望遠鏡','手錶','鬧鐘','手槍','滅火器','聽診器',
 'railway','cigarette','omnibus','telegram','detective','fountain pen','bicycle','photograph','weekend','revolver','telephone','wristwatch','linoleum','typewritten','chloroform','dynamite'}
def lev(a,b):
    d=list(range(len(b)+1))
    for i,ca in enumerate(a,1):
        p=d[:]; d[0]=i
        for j,cb in enumerate(b,1): d[j]=min(p[j]+1,d[j-1]+1,p[j-1]+(ca!=cb))
    return d[-1]
def load(book):
    ents={}
    for sub in ('characters','locations'):
        for f in sorted(os.listdir(f'{ROOT}/{book}/entities/{sub}')):
            txt=open(f'{ROOT}/{book}/entities/{sub}/{f}',encoding='utf-8').read()
            fm=yaml.safe_load(txt.split('---')[1]); ents[f'entities/{sub}/{f}']=(fm,txt)
    wr=open(f'{ROOT}/{book}/meta/world-rules.md',encoding='utf-8').read()
    return ents,yaml.safe_load(wr.split('---')[1])
def asof(fm,ch):
    f=dict(fm['facts'])
    for p in sorted(fm.get('progressions') or [],key=lambda p:p['chapter']):
        if p['chapter']<=ch: f.update({k:v for k,v in p.items() if k!='chapter'})
    return f
def names(fm): return [str(fm['name'])]+[str(a) for a in fm.get('aliases') or []]
def has(book,text,term):
    if is_cjk(book): return term in text
    return re.search(r'(?<![A-Za-z])'+re.escape(term)+r'(?![A-Za-z])',text) is not None
def hasterm(book,text,term):
    if is_cjk(book): return term in text or simp(term) in text
    return re.search(r'(?<![A-Za-z])'+re.escape(term)+r'(?:s|es|ed|d|ing)?(?![A-Za-z])',text,re.I) is not None
errs=[];summary=[]
def E(m): errs.append(m)
FIELDS=['id','book','chapter','type','original_excerpt','modified_excerpt','span','planted','expected']
for book in ('hongloumeng','xiyouji','pride-and-prejudice','war-and-peace'):
    if not os.path.exists(f'{ROOT}/{book}/planted.jsonl'): E(f'{book}: missing'); continue
    ents,wr=load(book); forb=[str(t) for t in wr['forbidden']]
    alln={n for fm,_ in ents.values() for n in names(fm)}
    recs=[json.loads(l) for l in open(f'{ROOT}/{book}/planted.jsonl',encoding='utf-8')]
    nch=len(booktext(book))
    chars=sum(k.startswith('entities/characters') for k in ents); locs=len(ents)-chars
    if not (15<=chars<=18 and 5<=locs<=7): E(f'{book}: {chars} chars {locs} locs')
    # aliases occur
    for k,(fm,_) in ents.items():
        for a in fm.get('aliases') or []:
            if count(book,str(a))==0: E(f'{book} {k}: alias {a} absent')
        for r in fm.get('relations') or []:
            if r['to']+'.md' not in ents: E(f'{book} {k}: relation target {r["to"]}')
        ps=[p['chapter'] for p in fm.get('progressions') or []]
        if ps!=sorted(ps): E(f'{book} {k}: progressions not in order')
        for p in fm.get('progressions') or []:
            if p.get('status')=='away' and 'location' not in p: E(f'{book} {k}: away w/o location')
    # forbidden
    if not 18<=len(forb)<=26: E(f'{book}: {len(forb)} forbidden')
    for t in forb:
        n=sum(hasterm(book,x,t) for x in booktext(book))
        if n: E(f'{book}: forbidden {t} occurs in {n} chapters')
    bytype={};chs=set()
    for r in recs:
        rid=r['id']
        if list(r)!=FIELDS: E(f'{rid}: fields {list(r)}')
        ch=r['chapter']; t=r['type']; o=r['original_excerpt']; m=r['modified_excerpt']; st,en=r['span']
        bytype.setdefault(t,[]).append(ch)
        if ch in chs: E(f'{rid}: chapter {ch} reused')
        chs.add(ch)
        if ch in PREV[book][t]: E(f'{rid}: chapter {ch} used before for {t}')
        if o not in chap(book,ch): E(f'{rid}: original not in chapter')
        if not 300<=len(o)<=1500: E(f'{rid}: len {len(o)}')
        if m[st:en]!=r['planted']: E(f'{rid}: span mismatch')
        # minimal diff region within span (+ one space either side)
        p=0
        while p<min(len(o),len(m)) and o[p]==m[p]: p+=1
        s=0
        while s<min(len(o),len(m))-p and o[-1-s]==m[-1-s]: s+=1
        a,b=p,len(m)-s
        if not (a>=st-1 and b<=en+1) or (a==st-1 and m[a]!=' ') or (b==en+1 and m[en]!=' '): E(f'{rid}: diff region {a},{b} outside span {st},{en}')
        for tt in forb:
            if hasterm(book,o,tt): E(f'{rid}: original has forbidden {tt}')
            if t!='world' and hasterm(book,m,tt): E(f'{rid}: modified has forbidden {tt}')
        exp=r['expected']; pl=r['planted']
        if t=='name':
            right,f=exp.split(' — '); fm=ents[f][0]
            if right not in names(fm): E(f'{rid}: {right} not declared in {f}')
            # the misspelled token
            ow=o[a:len(o)-s]; mw=m[a:b]
            mis=None
            for cand in [pl]+[pl[i:j] for i in range(len(pl)) for j in range(i+1,len(pl)+1)]:
                pass
            # misspelling = planted minus common context with the right form
            if is_cjk(book):
                if len(pl)!=len(right) or sum(x!=y for x,y in zip(pl,right))!=1: E(f'{rid}: CJK not 1 substitution {pl} {right}')
                mis=pl
            else:
                mis=pl; d=lev(pl,right)
                if not 1<=d<=2: E(f'{rid}: edit distance {d}')
            if mis in alln: E(f'{rid}: misspelling is a declared name')
            if count(book,mis)>0 or any(mis in x for x in booktext(book)): E(f'{rid}: misspelling {mis} occurs in book')
            if mis in PREVMIS: E(f'{rid}: misspelling used before')
            if o[st:st+len(right)]!=right and right not in o: E(f'{rid}: right form not in original')
            if o[st:st+len(right)]!=right: E(f'{rid}: original at span is {o[st:st+len(right)]!r} not {right}')
        elif t=='fact':
            f,rest=exp.split(': ',1); key,val=rest.split(' = ',1); fm=ents[f][0]; fa=asof(fm,ch)
            if key not in fa: E(f'{rid}: key {key} not declared as of {ch}')
            elif str(fa[key])!=val: E(f'{rid}: expected {val} != declared {fa[key]}')
            if val in pl: E(f'{rid}: planted contains value')
            if pl in o and len(pl)>3 and o.count(pl)>=m.count(pl): E(f'{rid}: planted text already in original')
        elif t=='state':
            f=exp.split(': ')[0]; fm=ents[f][0]; fa=asof(fm,ch)
            if fa['status'] not in ('away','dead'): E(f'{rid}: status {fa["status"]}')
            stx=f"status = {fa['status']}"+(f", location = {fa['location']}" if fa['status']=='away' else '')+f" (as of chapter {ch})"
            if not exp.endswith(stx): E(f'{rid}: expected text {exp} vs {stx}')
            for n in names(fm):
                if has(book,o,n): E(f'{rid}: original names {n}')
            if not any(has(book,pl,n) for n in names(fm)): E(f'{rid}: planted does not name entity')
        elif t=='world':
            term=exp.split(': ',1)[1].split(' (')[0]
            if term not in forb: E(f'{rid}: {term} not forbidden')
            if not hasterm(book,pl,term): E(f'{rid}: term not in planted')
            if term in PREVTERMS: E(f'{rid}: term used before')
    # echo check
    lim=8 if is_cjk(book) else 25
    for r in recs:
        m=r['modified_excerpt']
        for k,(fm,txt) in ents.items():
            sm=difflib.SequenceMatcher(None,m,txt,autojunk=False)
            mt=sm.find_longest_match(0,len(m),0,len(txt))
            if mt.size>lim: E(f'{r["id"]}: echo {m[mt.a:mt.a+mt.size]!r} in {k}')
        for k,(fm,txt) in ents.items():
            if r['type'] in ('name','world') and r['planted'] in txt and len(r['planted'])>2: E(f'{r["id"]}: planted in {k}')
    cnt={t:len(v) for t,v in bytype.items()}
    if any(cnt.get(t)!=4 for t in ('name','fact','state','world')) or len(recs)!=16: E(f'{book}: counts {cnt}')
    summary.append(f'{book}: {len(recs)} cases {cnt}; {chars} characters, {locs} locations; {len(forb)} forbidden terms')
    for t in ('name','fact','state','world'): summary.append(f'  {t}: chapters {sorted(bytype.get(t,[]))}')
print('\n'.join(summary))
for e in errs: print('ERROR',e)
print('OK: no errors' if not errs else f'{len(errs)} errors')
