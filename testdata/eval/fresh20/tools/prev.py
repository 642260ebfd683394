import re, json, glob
rows=[]
B={'hlm':'hongloumeng','xyj':'xiyouji','pp':'pride-and-prejudice','wp':'war-and-peace'}
for f in sorted(glob.glob('/work/heldback/prev/*-WRITER.md')):
    for line in open(f,encoding='utf-8'):
        m=re.match(r'^\| *(hlm|xyj|pp|wp)-f\d+-\d+ *\| *(\d+) *\| *(\w+) *\| *(.*?) *\| *(.*?) *\|\s*$',line)
        if m:
            rows.append(dict(book=B[m[1]],chapter=int(m[2]),type=m[3],planted=m[4],expected=m[5],src=f.split('/')[-1]))
# fresh3: chapter lists reserved for every type
t=open('/work/heldback/prev/fresh3-WRITER.md',encoding='utf-8').read()
for key,book in [('xiyouji/planted.jsonl','xiyouji'),('war-and-peace/planted.jsonl','war-and-peace')]:
    line=[l for l in t.splitlines() if key in l and l.startswith('|')][0]
    chs=re.search(r'\(([\d, ]+)\)',line)[1]
    for c in chs.split(','):
        for ty in ['name','fact','state','world']:
            rows.append(dict(book=book,chapter=int(c),type=ty,planted='',expected='',src='fresh3'))
json.dump(rows,open('prev.json','w'),ensure_ascii=False,indent=0)
used={}
for r in rows: used.setdefault((r['book'],r['type']),set()).add(r['chapter'])
for k in sorted(used): print(k, len(used[k]), sorted(used[k]))
print(len(rows))
