import sys
from cx import chap
b,c=sys.argv[1],int(sys.argv[2]); full=len(sys.argv)>3
t=chap(b,c); pos=0
for i,p in enumerate(t.split('\n')):
    if p: print(i,pos,len(p), p if full else p[:60])
    pos+=len(p)+1
