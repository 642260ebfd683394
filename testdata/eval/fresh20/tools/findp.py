import sys,re,json
b,pat,types=sys.argv[1],sys.argv[2],sys.argv[3]
W=int(sys.argv[4]) if len(sys.argv)>4 else 30
rows=json.load(open('prev.json'))
nmax={'hongloumeng':120,'xiyouji':100,'pride-and-prejudice':61,'war-and-peace':365}[b]
used={r['chapter'] for r in rows if r['book']==b and r['type']==types}
excl={int(x) for x in sys.argv[5].split(',')} if len(sys.argv)>5 else set()
for n in range(1,nmax+1):
    if n in used or n in excl: continue
    t=open(f'/work/shared/corpus/{b}/{n:03d}.txt').read()
    for p in t.split('\n\n')[1:]:
        if len(p)>1450: continue
        for m in re.finditer(pat,p):
            print(n,len(p),repr(p[max(0,m.start()-W):m.end()+W]))
