import sys,re
b,n=sys.argv[1],int(sys.argv[2]); inc=sys.argv[3] if len(sys.argv)>3 else ''; exc=sys.argv[4] if len(sys.argv)>4 else ''
W=int(sys.argv[5]) if len(sys.argv)>5 else 400
t=open(f'/work/shared/corpus/{b}/{n:03d}.txt',encoding='utf-8').read()
for i,p in enumerate(t.split('\n\n')):
    if inc and not re.search(inc,p): continue
    if exc and re.search(exc,p): continue
    print(f'[{i}] len{len(p)}:',p[:W].replace('\n',' '),'\n')
