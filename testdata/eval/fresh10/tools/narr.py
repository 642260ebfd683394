import sys,re
from cx import chap
def narr(b,n,avoid=(),maxn=15,minlen=12):
    t=chap(b,n); out=[]
    depth=0; start=t.find('\n')+1; i=start; sent_start=start
    while i<len(t):
        c=t[i]
        if c in '“「': depth+=1
        elif c in '”」': depth=max(0,depth-1)
        elif c=='"':  # ascii closing quote used in hlm
            depth=max(0,depth-1)
        elif c=='\n': depth=0; sent_start=i+1
        if c in '．。' and depth==0:
            s=t[sent_start:i+1]
            win=t[max(0,i-700):i+700]
            if len(s)>=minlen and '“' not in s and '"' not in s and '「' not in s and t.count(s)==1 and not any(a in win for a in avoid):
                out.append((i+1,s))
            sent_start=i+1
        i+=1
    return out
if __name__=='__main__':
    b=sys.argv[1]; n=int(sys.argv[2]); av=sys.argv[3].split(',') if len(sys.argv)>3 and sys.argv[3] else []
    for p,s in narr(b,n,av)[:int(sys.argv[4]) if len(sys.argv)>4 else 25]: print(p,s)
