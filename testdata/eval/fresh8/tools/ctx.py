import sys; sys.path.insert(0,'.'); from lib import *
book,ch,needle=sys.argv[1],int(sys.argv[2]),sys.argv[3]; a=int(sys.argv[4]) if len(sys.argv)>4 else 300; b=int(sys.argv[5]) if len(sys.argv)>5 else a
t=chap(book,ch); i=t.find(needle); print(t.count(needle),'hits; pos',i); print(t[max(0,i-a):i+b])
