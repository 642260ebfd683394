import json,re,sys
from cx import chap,B
b=sys.argv[1]; typ=sys.argv[2]; pats=sys.argv[3:]
free=json.load(open(f'/tmp/{B[b]}free.json'))[typ] if b in('hlm','xyj') else json.load(open('/tmp/wpfree.json'))[typ]
for c in free:
    t=chap(b,c)
    for p in pats:
        for m in re.finditer(p,t):
            a=t.rfind('\n',0,m.start()); e=t.find('\n',m.end())
            if e==-1: e=len(t)
            if e-a<=1500: print(c,e-a,p,repr(t[max(0,m.start()-30):m.end()+30]))
