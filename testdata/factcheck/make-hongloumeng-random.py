#!/usr/bin/env python3
# Generate hongloumeng-random.jsonl: random homophone misspellings of names,
# dead characters made to speak and forbidden terms, planted in 红楼梦
# (../../../shared/corpus), checked against hongloumeng/. Seeded.
import json, random, re, glob, gzip, collections, os
HERE=os.path.dirname(os.path.abspath(__file__))
SHARED=os.path.join(HERE,'..','..','..','shared')
random.seed(11)
C=os.path.join(SHARED,'corpus','hongloumeng')
# pinyin primary readings -> homophones
read={}; bysyl=collections.defaultdict(list)
for line in gzip.open(os.path.join(HERE,'..','..','agent','factcheck','data','pinyin.txt.gz'),'rt'):
    s,chars=line.split(' ',1)
    for c in chars.strip(): read[c]=s; bysyl[s].append(c)
# traditional names in text
targets={'林黛玉':'lin-daiyu','黛玉':'lin-daiyu','薛寶釵':'xue-baochai','寶釵':'xue-baochai','王熙鳳':'wang-xifeng','賈寶玉':'jia-baoyu','寶玉':'jia-baoyu','襲人':'xiren','晴雯':'qingwen','劉姥姥':'liu-laolao','賈政':'jia-zheng','妙玉':'miaoyu'}
common=set('的一是了不在有人這中大為上個國我以要他時來用們生到作地於出就分對成會可主發年動同工也能下過子說產種面而方後多定行學法所民得經十三之進著等部度家電力裡如水化高自二理起小物現實加量都兩體制機當使點從業本去把性好應開它合還因由其些然前外天政四日那社義事平形相全表間樣與關各重新線內數正心反你明看原又麼利比或但質氣第向道命此變條只沒結解問意建月公無系軍很情者最立代想已通並提直題黨程展五果料象員革位入常文總次品式活設及管特件長求老頭基資邊流路級少圖山統接知較將組見計別她手角期根論運農指幾九區強放決西被幹做必戰先回則任取據處隊南給色光門即保治北造百規熱領七海口東導器壓志世金增爭濟階油思術極交受聯什認六共權收證改清己美再採轉更單風切打白教速花帶安場身車例真務具萬每目至達走積示議聲報鬥完類八離華名確才科張信馬節話米整空元況今集溫傳土許步群廣石記需段研界拉林律叫且究觀越織裝影算低持音眾書布复容兒須際商非驗連斷深難近礦千週委素技備半辦青省列習響約支般史感勞便團往酸歷市克何除消構府稱太準精值號率族維劃選標寫存候毛親快效斯院查江型眼王按格養易置派層片始卻專狀育廠京識適屬圓包火住調滿縣局照參紅細引聽該鐵價嚴')
cases=[]
def paras(ch):
    t=open('%s/%03d.txt'%(C,ch),encoding='utf-8').read()
    return [p for p in t.split('\n\n')[1:] if 300<=len(p)<=1500]
def add(typ,ch,p,i,j,planted,exp):
    mod=p[:i]+planted+p[j:]
    cases.append(dict(id='z-%d'%len(cases),book='hlm',chapter=ch,type=typ,original_excerpt=p,modified_excerpt=mod,span=[i,i+len(planted)],planted=planted,expected=exp))
tries=0
while sum(c['type']=='name' for c in cases)<30 and tries<20000:
    tries+=1
    ch=random.randint(1,120); ps=paras(ch)
    if not ps: continue
    p=random.choice(ps); n=random.choice(list(targets))
    i=p.find(n)
    if i<0: continue
    pos=random.randrange(1,len(n))
    c=n[pos]
    # simplified reading lookup: try the char itself
    s=read.get(c)
    if not s: continue
    cands=[x for x in bysyl[s] if x!=c and x in common]
    if not cands: continue
    nn=n[:pos]+random.choice(cands)+n[pos+1:]
    if nn in p: continue
    add('name',ch,p,i,i+len(n),nn,'should be '+n)
dead={'lin-daiyu':(99,['黛玉']),'qingwen':(78,['晴雯']),'wang-xifeng':(115,['鳳姐']),'jia-mu':(111,['賈母']),'you-sanjie':(67,['尤三姐']),'qin-keqing':(14,['秦氏'])}
tries=0
while sum(c['type']=='state' for c in cases)<20 and tries<20000:
    tries+=1
    e=random.choice(list(dead)); start,ns=dead[e]
    ch=random.randint(start,120); ps=paras(ch)
    if not ps: continue
    p=random.choice(ps)
    ms=list(re.finditer(r'(?<=[．。，：”"])(寶玉|襲人|平儿|王夫人|寶釵|探春|紫鵑|麝月)(笑道|道|說道|便道|忙道)',p))
    if not ms: continue
    if any(x in p for x in ns): continue
    m=random.choice(ms)
    add('state',ch,p,m.start(1),m.end(1),ns[0],e)
terms=['手機','電話','汽車','火車','電燈','照片','飛機','電視']
while sum(c['type']=='world' for c in cases)<15:
    ch=random.randint(1,120); ps=paras(ch)
    if not ps: continue
    p=random.choice(ps)
    ms=list(re.finditer(r'書信|轎子|燈籠|畫儿',p))
    if not ms: continue
    m=random.choice(ms)
    add('world',ch,p,m.start(),m.end(),random.choice(terms),'')
with open(os.path.join(HERE,'hongloumeng-random.jsonl'),'w',encoding='utf-8') as f:
    for c in cases: f.write(json.dumps(c,ensure_ascii=False)+'\n')
print(len(cases),{t:sum(c['type']==t for c in cases) for t in ('name','state','world')})
