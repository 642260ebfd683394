import sys,re,os
C='/work/shared/corpus/'
def chapters(b):
    n=len([f for f in os.listdir(C+b) if f.endswith('.txt')])
    return {i:open(f'{C}{b}/{i:03d}.txt',encoding='utf-8').read() for i in range(1,n+1)}
if __name__=='__main__':
    b=sys.argv[1]; pat=sys.argv[2]; w=int(sys.argv[3]) if len(sys.argv)>3 else 40
    chs=[int(x) for x in sys.argv[4].split(',')] if len(sys.argv)>4 else None
    tot=0; per={}
    for i,t in chapters(b).items():
        if chs and i not in chs: continue
        ms=list(re.finditer(pat,t)); 
        if ms: per[i]=len(ms); tot+=len(ms)
        for m in ms[: (50 if chs else 3)]:
            if w>=0: print(i, repr(t[max(0,m.start()-w):m.end()+w]))
    print('TOTAL',tot,per)
