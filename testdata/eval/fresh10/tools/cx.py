import sys,os,re,glob
C='/work/shared/corpus/'
_cache={}
def book(b):
    if b not in _cache:
        fs=sorted(glob.glob(C+b+'/*.txt'))
        _cache[b]=[(int(os.path.basename(f)[:3]),open(f).read()) for f in fs]
    return _cache[b]
def chap(b,n): return open(C+b+'/%03d.txt'%n).read()
def cnt(b,s,word=None):
    if word is None: word=b in('pride-and-prejudice','war-and-peace')
    if word:
        r=re.compile(r'(?<![\w’\'-])'+re.escape(s)+r'(?![\w-])')
        return sum(len(r.findall(t)) for _,t in book(b))
    return sum(t.count(s) for _,t in book(b))
def chs(b,s): return [n for n,t in book(b) if s in t]
def ctx(b,s,w=60,maxn=8,chrange=None):
    out=[]
    for n,t in book(b):
        if chrange and n not in chrange: continue
        i=t.find(s)
        while i>=0 and len(out)<maxn:
            out.append((n,t[max(0,i-w):i+len(s)+w].replace('\n','¶'))); i=t.find(s,i+1)
    return out
if __name__=='__main__':
    b=sys.argv[1]; mode=sys.argv[2]
    for s in sys.argv[3:]:
        if mode=='c': print(s,cnt(b,s), chs(b,s)[:12])
        elif mode=='x':
            for n,x in ctx(b,s): print(n,x)
