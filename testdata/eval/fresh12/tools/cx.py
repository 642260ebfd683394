import sys,re,glob,os
R='/work/shared/corpus/'
B={'hlm':'hongloumeng','xyj':'xiyouji','pp':'pride-and-prejudice','wp':'war-and-peace'}
def chapters(book):
    d=R+B.get(book,book)
    out={}
    for f in sorted(glob.glob(d+'/*.txt')):
        out[int(os.path.basename(f)[:3])]=open(f,encoding='utf-8').read()
    return out
_cache={}
def ch(book):
    if book not in _cache:_cache[book]=chapters(book)
    return _cache[book]
def count(book,s,word=None):
    en=book in('pp','wp')
    if word is None: word=en
    pat=re.compile((r'(?<![\w])'+re.escape(s)+r'(?![\w])') if word else re.escape(s))
    per={}
    for n,t in ch(book).items():
        k=len(pat.findall(t))
        if k: per[n]=k
    return per
if __name__=='__main__':
    book=sys.argv[1]; mode=sys.argv[2]
    if mode=='c':
        for s in sys.argv[3:]:
            per=count(book,s)
            print(s, sum(per.values()), 'chs', len(per), sorted(per)[:25])
    elif mode=='x':
        s=sys.argv[3]; w=int(sys.argv[4]) if len(sys.argv)>4 else 60
        lim=int(sys.argv[5]) if len(sys.argv)>5 else 40
        chs=None
        if len(sys.argv)>6: chs=set(int(x) for x in sys.argv[6].split(','))
        k=0
        for n,t in ch(book).items():
            if chs and n not in chs: continue
            for m in re.finditer(s,t):
                print(n, m.start(), repr(t[max(0,m.start()-w):m.end()+w]))
                k+=1
                if k>=lim: sys.exit()
