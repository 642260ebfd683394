import re,json,glob
rows=[]
for f in sorted(glob.glob('/work/heldback/prev/*-WRITER.md')):
    for line in open(f):
        m=re.match(r'^\|\s*((hlm|xyj|pp|wp)-[^|]+?)\s*\|\s*(\d+)\s*\|\s*(name|fact|state|world)\s*\|(.*)\|\s*(.*?)\s*\|\s*$',line)
        if m:
            rows.append(dict(id=m.group(1),book=m.group(2),ch=int(m.group(3)),type=m.group(4),planted=m.group(5).strip(),expected=m.group(6),src=f.split('/')[-1]))
json.dump(rows,open('prev.json','w'),ensure_ascii=False,indent=0)
print(len(rows))
from collections import defaultdict
d=defaultdict(set)
for r in rows: d[(r['book'],r['type'])].add(r['ch'])
for k in sorted(d): print(k,sorted(d[k]))
