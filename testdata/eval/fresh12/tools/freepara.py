import sys,re,cx
book=sys.argv[1]; n=int(sys.argv[2]); al=sys.argv[3].split('|')
t=cx.ch(book)[n]; pos=0
en=book in('pp','wp')
for i,p in enumerate(t.split('\n\n')):
    hit=any(re.search(r'(?<!\w)'+re.escape(a)+r'(?!\w)',p) if en else a in p for a in al)
    if not hit and len(p)>120: print(i,pos,len(p),p[:110])
    pos+=len(p)+2
