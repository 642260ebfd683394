import sys,glob
from cx import chap,N
from zhvar import variants
prev=''.join(open(f,encoding='utf-8').read() for f in glob.glob('/work/heldback/prev/*.md'))
b=sys.argv[1]; t='\n'.join(chap(b,c) for c in range(1,N[b]+1))
for term in sys.argv[2].split(','):
    vs=variants(term)
    ib=[v for v in vs if v in t]; ip=[v for v in vs if v in prev]
    if not ib and not ip: print('OK',term)
    else: print('--',term,ib,ip)
