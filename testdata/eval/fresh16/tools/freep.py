import sys
from cx import chap
b,c=sys.argv[1],int(sys.argv[2]); al=sys.argv[3].split(',')
ps=chap(b,c).split('\n')
for i,p in enumerate(ps):
    if i and p and not any(a in p for a in al) and 150<=len(p)<=1400: print(i,len(p),p[:int(sys.argv[4]) if len(sys.argv)>4 else 90])
