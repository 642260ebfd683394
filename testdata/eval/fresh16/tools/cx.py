import sys, re
B={'hlm':'hongloumeng','xyj':'xiyouji','pp':'pride-and-prejudice','wp':'war-and-peace'}
N={'hlm':120,'xyj':100,'pp':61,'wp':365}
def chap(b,c): return open(f'/work/shared/corpus/{B[b]}/{c:03d}.txt',encoding='utf-8').read()
if __name__=='__main__':
    b,pat=sys.argv[1],sys.argv[2]; w=int(sys.argv[3]) if len(sys.argv)>3 else 30
    chs=[int(x) for x in sys.argv[4].split(',')] if len(sys.argv)>4 and sys.argv[4] else range(1,N[b]+1)
    maxn=int(sys.argv[5]) if len(sys.argv)>5 else 40
    n=0; counts={}
    for c in chs:
        t=chap(b,c)
        for m in re.finditer(pat,t):
            counts[c]=counts.get(c,0)+1
            if n<maxn: print(c, repr(t[max(0,m.start()-w):m.end()+w])); n+=1
    print('COUNTS',sum(counts.values()),counts if len(counts)<60 else list(counts)[:60])
