import sys,re; sys.path.insert(0,'.'); from cx import ch
B=sys.argv[1]; n=int(sys.argv[2]); al=sys.argv[3].split('|')
s=ch(B,n); pos=0
print('==',n,s.split('\n')[0])
for i,p in enumerate(s.split('\n')):
    if p and len(p)>120:
        bad=[a for a in al if a in p]
        print(i,pos,len(p),'BAD' if bad else 'ok',p[:160])
    pos+=len(p)+1
