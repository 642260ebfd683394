"""Independent checker for fresh9: reads only the written files and the corpus."""
import json,os,re,sys,glob,difflib,yaml
ROOT='/work/heldback/fresh9'; CORP='/work/shared/corpus'
BOOKS={'hongloumeng':120,'xiyouji':100,'pride-and-prejudice':61,'war-and-peace':365}
EN={'pride-and-prejudice','war-and-peace'}
# chapters used by earlier writers (fresh4, 6, 7, 8), per book and type
PREV={
 'hongloumeng':{'name':[8,27,51,76,95,105,6,47,57,89,54,34,26,48,33,64,59,87],'fact':[7,41,55,67,99,110,4,71,96,109,1,2,3,22,6,16,36,37],
   'state':[14,53,62,81,91,117,29,76,108,113,19,38,101,118,22,50,86,111],'world':[13,18,40,52,92,119,12,38,63,70,41,45,4,120,31,58,75,85]},
 'xiyouji':{'name':[30,45,60,97,50,23,59,31,52,55,81,86],'fact':[15,38,56,91,22,88,54,53,3,18,41,60],
   'state':[12,16,20,61,29,47,63,28,14,21,32,44],'world':[1,28,62,93,14,41,68,49,43,66,76,96]},
 'pride-and-prejudice':{'name':[6,15,29,42,45,53,3,14,16,57,20,9,18,44,2,21,34,58],'fact':[10,16,22,30,50,52,1,18,29,59,7,13,32,5,4,35,49,61],
   'state':[25,31,38,47,55,59,28,42,51,54,39,41,45,53,23,40,48,56],'world':[1,11,26,46,48,60,7,10,12,47,8,36,43,57,17,27,44,53]},
 'war-and-peace':{'name':[48,195,231,256,41,12,133,144,166,184,287,303],'fact':[3,78,84,347,9,32,194,118,2,11,197,276],
   'state':[98,154,201,330,136,350,71,335,97,296,332,346],'world':[19,100,109,302,227,289,225,188,65,120,222,315]}}
PREV_MISSPELL=set('寶叉 代玉 睛雯 相云 習人 賈連 劉佬佬 薜蟠 紫絹 蕭湘館 買母 汪夫人 怡虹院 薛姨嗎 王希鳳 保兄弟 蘅蕪宛 吏湘云 朱八戒 悟靜 牛魔玉 唐三臧 康僧 八誡 洪孩兒 水濂洞 齊天大勝 觀士音 華果山 紗和尚'.split())|{
 'Elizebeth','Mrs. Bennett','Lady Cathrine','Mr. Gardener','Georgianna','Netherfeild','Longbourne','Mr. Colins','Mrs. Phillips','Lady Catherine de Burgh','Lizy','Lidia','Mr. Dracy','Lampton','Kittie','Carolyn','Rossings','Lady Catherina',
 'Kity','Bingly','Wickam','Darcey','Charlote','Catharine','Fitzwiliam','Pemberly','Georgina','Elisabeth',
 'Dólokov','Bald Hils','Kutúsov','Piere','Bolkónsky','Sónia','Atrádnoe','Natáscha','Count Bezúkov','Anatoly','Napolean','Dénisov'}
PREV_WORLD={'電話','電燈','相片','紙煙','留聲機','汽車','火車','鋼筆','火柴','電報','沙發','咖啡','警察','輪船','冰箱','手機','巧克力','香檳',
 '望遠鏡','手錶','鬧鐘','手槍','滅火器','聽診器','潛水艇','機關槍','降落傘','汽油','railway','cigarette','omnibus','telegram','detective','fountain pen',
 'bicycle','photograph','weekend','revolver','telephone','wristwatch','linoleum','typewritten','mail-order','taxicab','automobile','postcard','chloroform','dynamite','machine gun','poison gas','armoured car','electric light'}
T2S=dict(zip('維護鋼電來機視飛鐵郵車體溫計氣熱達調顯鏡潛膠馬腦險術號書筆燈錶鐘槍','维护钢电来机视飞铁邮车体温计气热达调显镜潜胶马脑险术号书笔灯表钟枪'))
FIELDS=['id','book','chapter','type','original_excerpt','modified_excerpt','span','planted','expected']
errs=[]; notes=[]
def err(*a): errs.append(' '.join(str(x) for x in a))
def chap(b,n): return open(f'{CORP}/{b}/{n:03d}.txt',encoding='utf-8').read()
def wre(t):
    return re.compile(r'(?<![\w])'+re.escape(t)+r'(?![\w])')
def infl_re(t):
    base=re.escape(t.lower()); alts=[base+r'(s|es|ed|d|ing)?']
    if t.endswith('y'): alts.append(re.escape(t[:-1].lower())+'ies')
    return re.compile(r'(?<![\w])('+'|'.join(alts)+r')(?![\w])',re.I)
def occurs(b,text,t):
    if b in EN: return bool(wre(t).search(text))
    return t in text
def lev(a,b):
    d=list(range(len(b)+1))
    for i,ca in enumerate(a,1):
        p=d[:]; d[0]=i
        for j,cb in enumerate(b,1): d[j]=min(p[j]+1,d[j-1]+1,p[j-1]+(ca!=cb))
    return d[-1]
def load_entities(b):
    ents={}
    for f in sorted(glob.glob(f'{ROOT}/{b}/entities/*/*.md')):
        s=open(f,encoding='utf-8').read(); m=re.match(r'---\n(.*?)\n---\n(.*)',s,re.S)
        if not m: err(b,f,'no front matter'); continue
        fm=yaml.safe_load(m.group(1)); rel=os.path.relpath(f,f'{ROOT}/{b}')
        for k in ['name','aliases','kind','facts','progressions','relations']:
            if k not in fm: err(b,rel,'missing',k)
        if list(fm)!=['name','aliases','kind','facts','progressions','relations']: err(b,rel,'key order',list(fm))
        ents[rel[:-3]]=dict(fm,_text=s,_desc=m.group(2))
    return ents
def facts_at(e,n):
    f=dict(e['facts'])
    for p in e['progressions'] or []:
        if p['chapter']<=n: f.update({k:v for k,v in p.items() if k!='chapter'})
    return f
def main():
    summary=[]
    for b,N in BOOKS.items():
        text={n:chap(b,n) for n in range(1,N+1)}; whole='\n'.join(text.values())
        ents=load_entities(b)
        nc=sum(1 for k in ents if k.startswith('entities/characters/')); nl=sum(1 for k in ents if k.startswith('entities/locations/'))
        if not(15<=nc<=18): err(b,'characters',nc)
        if not(5<=nl<=7): err(b,'locations',nl)
        allnames={}
        for k,e in ents.items():
            kind='character' if '/characters/' in k else 'location'
            if e['kind']!=kind: err(b,k,'kind')
            for a in [e['name']]+list(e['aliases']):
                allnames.setdefault(a,[]).append(k)
                if not occurs(b,whole,a):
                    if a==e['name']: notes.append(f'{b}: canonical name not used verbatim in the book: {a}')
                    else: err(b,k,'alias not in book:',a)
            for r in e['relations'] or []:
                if r['to'] not in ents: err(b,k,'relation target missing',r['to'])
            ch=[p['chapter'] for p in e['progressions'] or []]
            if ch!=sorted(ch): err(b,k,'progressions out of order')
            for p in [e['facts']]+list(e['progressions'] or []):
                if p.get('status')=='away' and 'location' not in p: err(b,k,'away without location')
                if 'status' in p and p['status'] not in ('unmarried','engaged','married','widowed','away','dead'): err(b,k,'bad status',p['status'])
        rules=open(f'{ROOT}/{b}/meta/world-rules.md',encoding='utf-8').read()
        rm=yaml.safe_load(re.match(r'---\n(.*?)\n---',rules,re.S).group(1)); forb=rm['forbidden']
        if 'era' not in rm: err(b,'no era')
        if not(18<=len(forb)<=26): err(b,'forbidden count',len(forb))
        def has_forb(s):
            out=[]
            for t in forb:
                if b in EN:
                    if infl_re(t).search(s): out.append(t)
                else:
                    simp=''.join(T2S.get(c,c) for c in t)
                    if t in s or simp in s: out.append(t)
            return out
        for t in forb:
            if has_forb(whole) and t in has_forb(whole): err(b,'forbidden term occurs in book',t)
            if t in PREV_WORLD: err(b,'forbidden term used by an earlier writer as a case',t)
        cases=[json.loads(l) for l in open(f'{ROOT}/{b}/planted.jsonl',encoding='utf-8')]
        bytype={}; chs=[]
        for c in cases:
            cid=c['id']
            if list(c)!=FIELDS: err(cid,'field order')
            if c['book']!=b: err(cid,'book')
            n=c['chapter']; typ=c['type']; bytype.setdefault(typ,[]).append(n); chs.append(n)
            if n in PREV[b][typ]: err(cid,'chapter used by an earlier writer for',typ)
            o=c['original_excerpt']; m=c['modified_excerpt']; a,z=c['span']; pl=c['planted']
            if o not in text[n]: err(cid,'original not verbatim')
            if not(300<=len(o)<=1500): err(cid,'original length',len(o))
            if m[a:z]!=pl: err(cid,'span does not slice to planted')
            tail=len(m)-z
            ok=o[:a]==m[:a] and o[len(o)-tail:]==m[z:] if tail else o[:a]==m[:a]
            ok2=a>0 and m[a-1]==' ' and o[:a-1]==m[:a-1] and (o[len(o)-tail:]==m[z:] if tail else True)
            if not(ok or ok2): err(cid,'difference outside span',(a,z))
            if has_forb(o): err(cid,'forbidden term in original',has_forb(o))
            if typ!='world' and has_forb(m): err(cid,'forbidden term in modified',has_forb(m))
            exp=c['expected']
            if typ=='name':
                right,path=exp.split(' — '); k=path[:-3]
                if k not in ents: err(cid,'entity missing',path); continue
                e=ents[k]
                if right not in [e['name']]+e['aliases']: err(cid,'expected not declared',right)
                if o[a:a+len(right)]!=right: err(cid,'original at span is not',right)
                if b in EN:
                    d=lev(pl,right)
                    if not 1<=d<=2: err(cid,'edit distance',d)
                else:
                    if len(pl)!=len(right) or sum(x!=y for x,y in zip(pl,right))!=1: err(cid,'not a one-character substitution')
                if pl in allnames: err(cid,'misspelling is a declared name')
                if occurs(b,whole,pl): err(cid,'misspelling occurs in book')
                if pl in PREV_MISSPELL: err(cid,'misspelling used before')
                c['_info']=f'{pl} for {right}'
            elif typ=='fact':
                mm=re.match(r'(entities/\S+)\.md: (\w+) = (.+)$',exp)
                if not mm: err(cid,'expected format'); continue
                k,key,val=mm.groups()
                if k not in ents: err(cid,'entity missing',k); continue
                f=facts_at(ents[k],n)
                if key not in f: err(cid,'key not declared as of chapter',key)
                elif str(f[key])!=val: err(cid,'expected value differs',f[key],val)
                if val in pl: err(cid,'planted contains the declared value')
                c['_info']=f'{key}: {val} -> {pl}'
            elif typ=='state':
                mm=re.match(r'(entities/\S+)\.md: status = (away|dead)(?:, location = (.+?))? \(as of chapter (\d+)\)$',exp)
                if not mm: err(cid,'expected format'); continue
                k,st,loc,cn=mm.groups()
                if int(cn)!=n: err(cid,'chapter in expected')
                e=ents.get(k); f=facts_at(e,n)
                if f.get('status')!=st: err(cid,'status as of chapter is',f.get('status'))
                if st=='away' and f.get('location')!=loc: err(cid,'location',f.get('location'),loc)
                names=[e['name']]+e['aliases']
                hit=[x for x in names if occurs(b,o,x)]
                if hit: err(cid,'absent entity named in original',hit)
                if not [x for x in names if occurs(b,pl,x)]: err(cid,'planted does not name the entity')
                c['_info']=f'{e["name"]} {st}{" @"+loc if loc else ""}'
            elif typ=='world':
                mm=re.match(r'forbidden term: (.+) \(meta/world-rules\.md\)$',exp)
                t=mm.group(1) if mm else None
                if t not in forb: err(cid,'term not listed',t)
                elif t not in has_forb(pl): err(cid,'planted lacks term')
                c['_info']=t
            # echo check against every entity file of the book
            lim=8 if b not in EN else 25
            for k,e in ents.items():
                et=e['_text']; sm=difflib.SequenceMatcher(None,et,m,autojunk=False)
                r=sm.find_longest_match(0,len(et),0,len(m))
                if r.size>lim: err(cid,'entity file',k,'shares a run of',r.size,repr(et[r.a:r.a+r.size]))
        if len(set(chs))!=len(chs): err(b,'repeated chapter')
        cnt={t:len(v) for t,v in bytype.items()}
        if cnt!={'name':4,'fact':4,'state':4,'world':4}: err(b,'type counts',cnt)
        summary.append(f'{b}: {len(cases)} cases {cnt}; {nc} characters, {nl} locations; {len(forb)} forbidden terms')
        for t in ['name','fact','state','world']: summary.append(f'  {t}: chapters {sorted(bytype.get(t,[]))}')
        for c in cases: summary.append(f'    {c["id"]} ch{c["chapter"]} {c["type"]}: {c.get("_info","")}')
    print('\n'.join(summary)); print('\n'.join('note: '+x for x in notes))
    print('\n'.join('ERROR '+e for e in errs) if errs else 'OK: no errors')
main()
