import sys; sys.path.insert(0,'.'); from lib import *
book=sys.argv[1]; chs=[int(x) for x in sys.argv[2].split(',')]; names=sys.argv[3].split(',')
for ch in chs:
    t=chap(book,ch); ps=paras(t)
    ok=[not any(n in t[a:b] for n in names) for a,b in ps]
    i=0
    while i<len(ps):
        if ok[i]:
            j=i
            while j+1<len(ps) and ok[j+1]: j+=1
            L=ps[j][1]-ps[i][0]
            if L>=300: print(ch,f'paras {i}-{j} len {L}:',t[ps[i][0]:ps[i][0]+60].replace('\n','/'))
            i=j+1
        else: i+=1
