import sys,cx
book=sys.argv[1]; n=int(sys.argv[2]); w=int(sys.argv[3]) if len(sys.argv)>3 else 50
t=cx.ch(book)[n]; pos=0
for i,p in enumerate(t.split('\n\n')):
    print(i,pos,len(p),p[:w].replace('\n','/'),'…',p[-20:].replace('\n','/') if len(p)>w else '')
    pos+=len(p)+2
