import sys,re
from cx import chapters
b=sys.argv[1]; T='\n'.join(chapters(b).values()); cjk=b in('hongloumeng','xiyouji')
for a in sys.argv[2:]:
    n=T.count(a) if cjk else len(re.findall(r'(?<![\w])'+re.escape(a)+r'(?![\w])',T))
    print(f'{a}={n}',end='  ')
print()
