import re, json, glob
rows=[]
pref={'hlm':'hongloumeng','xyj':'xiyouji','pp':'pride-and-prejudice','wp':'war-and-peace'}
for f in sorted(glob.glob('/work/heldback/prev/*-WRITER.md')):
    for line in open(f, encoding='utf-8'):
        m=re.match(r'^\| ([a-z]+)-f\d+-\d+ \| (\d+) \| (\w+) \| (.*?) \| (.*) \|\s*$', line)
        if m:
            rows.append(dict(book=pref[m[1]], ch=int(m[2]), type=m[3], planted=m[4], expected=m[5], src=f.split('/')[-1]))
# fresh3: chapters listed without type -> reserve for all types
t=open('/work/heldback/prev/fresh3-WRITER.md',encoding='utf-8').read()
for book,key in [('xiyouji','xiyouji/planted'),('war-and-peace','war-and-peace/planted')]:
    line=[l for l in t.splitlines() if key in l][0]
    chs=re.search(r'\(([\d, ]+)\)',line)[1]
    for c in chs.split(','):
        for ty in ['name','fact','state','world']:
            rows.append(dict(book=book,ch=int(c),type=ty,planted='',expected='',src='fresh3'))
json.dump(rows,open('prev.json','w'),ensure_ascii=False,indent=0)
print(len(rows))
used={}
for r in rows: used.setdefault((r['book'],r['type']),set()).add(r['ch'])
N={'hongloumeng':120,'xiyouji':100,'pride-and-prejudice':61,'war-and-peace':365}
for b in N:
    for ty in ['name','fact','state','world']:
        free=[c for c in range(1,N[b]+1) if c not in used.get((b,ty),set())]
        print(b,ty,len(free),free if len(free)<70 else str(free[:70])+'...')
