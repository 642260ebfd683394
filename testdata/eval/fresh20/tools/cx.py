import sys,re
b,pat=sys.argv[1],sys.argv[2]; w=int(sys.argv[3]) if len(sys.argv)>3 else 40
chs=None
if len(sys.argv)>4 and sys.argv[4]: chs=[int(x) for x in sys.argv[4].split(',')]
import glob
tot=0
for f in sorted(glob.glob(f'/work/shared/corpus/{b}/*.txt')):
    n=int(f[-7:-4])
    if chs and n not in chs: continue
    t=open(f,encoding='utf-8').read()
    for m in re.finditer(pat,t):
        tot+=1
        if tot<=int(sys.argv[5]) if len(sys.argv)>5 else tot<=30:
            print(n,m.start(),repr(t[max(0,m.start()-w):m.end()+w]))
print('total',tot)
