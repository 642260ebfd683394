import sys; sys.path.insert(0,'.'); from lib import *
book,ch,needle=sys.argv[1],int(sys.argv[2]),sys.argv[3]
w=int(sys.argv[4]) if len(sys.argv)>4 else 0
t=chap(book,ch); ps=paras(t)
for j,(a,b) in enumerate(ps):
    if needle in t[a:b]:
        for jj in range(max(0,j-w),min(len(ps),j+w+1)):
            a2,b2=ps[jj]; print(f'[{jj} len={b2-a2}]',t[a2:b2]); print()
