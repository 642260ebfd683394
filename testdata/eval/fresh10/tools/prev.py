import re,glob,json
used={}  # (book,type)->set ch
planted=[]; terms=set()
bm={'hlm':'hongloumeng','xyj':'xiyouji','pp':'pride-and-prejudice','wp':'war-and-peace'}
for f in glob.glob('/work/heldback/prev/*-WRITER.md'):
    for line in open(f):
        m=re.match(r'\|\s*(hlm|xyj|pp|wp)-f\d+-\d+\s*\|\s*(\d+)\s*\|\s*(\w+)\s*\|\s*(.*?)\s*\|\s*(.*?)\s*\|',line)
        if m:
            b,ch,t,p,e=m.groups()
            used.setdefault(bm[b]+'/'+t,set()).add(int(ch)); planted.append((bm[b],t,p,e))
            mm=re.search(r'forbidden term: (.*?) \(',e)
            if mm: terms.add((bm[b],mm.group(1)))
json.dump({'used':{k:sorted(v) for k,v in used.items()},'planted':planted,'terms':sorted(terms)},open('prev.json','w'),ensure_ascii=False,indent=0)
for k,v in sorted(used.items()): print(k,sorted(v))
print(len(planted))
