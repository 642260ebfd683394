import re,json,glob,collections
rows=[]
for f in sorted(glob.glob('/work/heldback/prev/*-WRITER.md')):
    for line in open(f,encoding='utf-8'):
        m=re.match(r'^\|\s*([a-z]+)-[a-z0-9]+-\d+\s*\|\s*(\d+)\s*\|\s*(name|fact|state|world)\s*\|(.*)\|\s*$',line)
        if m:
            cells=[c.strip() for c in m.group(4).split('|')]
            rows.append(dict(src=f.split('/')[-1],pre=m.group(1),ch=int(m.group(2)),type=m.group(3),planted=cells[0],expected=cells[-1]))
bk={'hlm':'hongloumeng','xyj':'xiyouji','pp':'pride-and-prejudice','wp':'war-and-peace'}
out=collections.defaultdict(lambda:collections.defaultdict(list))
for r in rows:
    out[bk[r['pre']]][r['type']].append(r['ch'])
json.dump(dict(rows=rows,used={b:{t:sorted(set(v)) for t,v in d.items()} for b,d in out.items()}),open('prev.json','w'),ensure_ascii=False,indent=0)
for b,d in out.items():
    for t,v in d.items(): print(b,t,sorted(set(v)))
print(len(rows))
