import sys,re,os
C='/work/shared/corpus'
def ch(book,n): return open(f'{C}/{book}/{n:03d}.txt',encoding='utf-8').read()
def nch(book): return len(os.listdir(f'{C}/{book}'))
def count(book,term):
    return {n:ch(book,n).count(term) for n in range(1,nch(book)+1) if term in ch(book,n)}
if __name__=='__main__':
    cmd=sys.argv[1]; book=sys.argv[2]
    if cmd=='cnt':  # count terms over book
        for t in sys.argv[3:]:
            c=count(book,t); print(t, sum(c.values()), 'chs', sorted(c)[:12], '...' if len(c)>12 else '', 'last',max(c) if c else None)
    elif cmd=='kw':  # show contexts: kw book term [width] [maxn]
        t=sys.argv[3]; w=int(sys.argv[4]) if len(sys.argv)>4 else 40; m=int(sys.argv[5]) if len(sys.argv)>5 else 20
        k=0
        for n in range(1,nch(book)+1):
            s=ch(book,n)
            for mm in re.finditer(re.escape(t),s):
                print(n, mm.start(), s[max(0,mm.start()-w):mm.end()+w].replace('\n','/')); k+=1
                if k>=m: sys.exit()
    elif cmd=='par': # par book chap [pattern] : print paragraphs with idx and length
        n=int(sys.argv[3]); s=ch(book,n); pat=sys.argv[4] if len(sys.argv)>4 else None
        pos=0
        for i,p in enumerate(s.split('\n')):
            if p and (not pat or re.search(pat,p)): print(f'[{i}] off={pos} len={len(p)}: {p}\n')
            pos+=len(p)+1
def kwc(book,n,t,w=300,m=3):
    s=ch(book,n)
    for k,mm in enumerate(re.finditer(re.escape(t),s)):
        if k>=m: break
        print(f'## {n} @{mm.start()}:', s[max(0,mm.start()-int(os.environ.get('B4',w))):mm.end()+w].replace('\n','/'))
if __name__=='__main__' and sys.argv[1]=='kwc':
    for spec in sys.argv[3:]:
        n,t=spec.split(':',1); kwc(sys.argv[2],int(n),t,int(os.environ.get('W',300)),int(os.environ.get('M',1)))
