import re, glob, sys
from cx import chap, N
prev=open('/dev/null').read()
prev=''.join(open(f,encoding='utf-8').read() for f in glob.glob('/work/heldback/prev/*.md'))
def en_re(term):
    parts=[re.escape(p) for p in re.split(r'[ -]',term)]
    return re.compile(r'(?<![\w])'+r'[ -]'.join(parts)+r"(s|es|ed|d|ing|’s|'s)?(?![\w])", re.I)
def check(book, terms, zh=False):
    t='\n'.join(chap(book,c) for c in range(1,N[book]+1))
    for term in terms:
        if zh: inbook=term in t; inprev=term in prev
        else: r=en_re(term); inbook=bool(r.search(t)); inprev=bool(r.search(prev))
        print(book, term, 'BOOK' if inbook else '', 'PREV' if inprev else '')
if __name__=='__main__':
    book=sys.argv[1]; check(book, sys.argv[2].split(','), book in('hlm','xyj'))
