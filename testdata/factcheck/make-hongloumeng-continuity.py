#!/usr/bin/env python3
# Generate hongloumeng-continuity.jsonl: a name that chapter N-1 of 红楼梦
# (../../../shared/corpus) uses at least twice, misspelt in chapter N by a
# homophone in one of its characters after the first, in a paragraph of
# chapter N that uses the name. The names are a hand list of characters
# that hongloumeng/ does not declare (declared names are the name
# checker's), chosen without looking at the checker. Seeded.
import json, random, gzip, collections, os
HERE=os.path.dirname(os.path.abspath(__file__))
SHARED=os.path.join(HERE,'..','..','..','shared')
random.seed(7)
C=os.path.join(SHARED,'corpus','hongloumeng')
read={}; bysyl=collections.defaultdict(list)
for line in gzip.open(os.path.join(HERE,'..','..','agent','factcheck','data','pinyin.txt.gz'),'rt'):
    s,chars=line.split(' ',1)
    for c in chars.strip():
        read.setdefault(c,s); bysyl[s].append(c)
# Traditional, as the corpus writes them.
names=['賈璉','平兒','探春','湘雲','李紈','尤氏','賈蓉','賈珍','薛蟠','香菱','鴛鴦','紫鵑','麝月','秋紋','賈環',
       '趙姨娘','林之孝','賴大','茗煙','寶琴','賈赦','惜春','迎春','岫煙','芳官','司棋','侍書','入畫','雪雁','李嬤嬤',
       '賈芸','賈薔','齡官','藕官','小紅','玉釧','彩云','彩霞','夏金桂','寶蟾','邢岫煙','薛姨媽','賈母','王夫人','邢夫人',
       '劉老老','周瑞','焦大','詹光','單聘仁','程日興','王仁','巧姐','賈蘭','柳湘蓮','蔣玉菡','北靜王','馮紫英','倪二','卜世仁']
# Common characters to plant (a homophone a typist would pick).
common=set(open(os.path.join(HERE,'make-hongloumeng-random.py'),encoding='utf-8').read().split("common=set('")[1].split("')")[0])
kin=set('姐妹哥弟兄叔伯姑姨娘爷爺奶嫂婶嬸母父公婆老太大小二三四五六七八九十儿兒夫氏姥舅妈媽爹奴丫头頭君妃后侯相爵少')
def chapter(ch): return open('%s/%03d.txt'%(C,ch),encoding='utf-8').read()
def paras(t): return [p for p in t.split('\n\n')[1:] if 300<=len(p)<=1500]
cases=[]; used=set(); tries=0
while len(cases)<30 and tries<50000:
    tries+=1
    ch=random.randint(2,120)
    prev=chapter(ch-1); cur=chapter(ch)
    n=random.choice(names)
    if prev.count(n)<2: continue
    ps=[p for p in paras(cur) if n in p]
    if not ps: continue
    p=random.choice(ps)
    pos=random.randrange(1,len(n))
    c=n[pos]
    if c in kin or c not in read: continue
    cands=[x for x in bysyl[read[c]] if x!=c and x in common and x not in kin]
    if not cands: continue
    nn=n[:pos]+random.choice(cands)+n[pos+1:]
    if nn in cur or nn in prev or (ch,n) in used: continue
    used.add((ch,n))
    i=p.find(n)
    mod=p[:i]+nn+p[i+len(n):]
    cases.append(dict(id='hlm-cont-%02d'%len(cases),book='hongloumeng',chapter=ch,type='continuity',original_excerpt=p,
        modified_excerpt=mod,span=[i,i+len(nn)],planted=nn,expected='misspelled name; should be %s (chapter %d)'%(n,ch-1)))
with open(os.path.join(HERE,'hongloumeng-continuity.jsonl'),'w',encoding='utf-8') as f:
    for c in cases: f.write(json.dumps(c,ensure_ascii=False)+'\n')
print(len(cases))
