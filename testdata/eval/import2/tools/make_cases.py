#!/usr/bin/env python3
"""Builds /work/heldback/import2/case01..case16 from /work/shared/corpus. Re-running regenerates exactly."""
import json, os, re, shutil, textwrap
C = '/work/shared/corpus'
OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def paras(book, n, k=None, start=0):
    lines = open(f'{C}/{book}/{n:03d}.txt', encoding='utf-8').read().split('\n')
    p = [l for l in lines[1:] if l.strip()]
    return p[start:start + k] if k else p[start:]

def head(book, n):
    return open(f'{C}/{book}/{n:03d}.txt', encoding='utf-8').readline().strip()

def title1(book, n):          # first half of the 回目 couplet
    return head(book, n).split('　')[1]

def nws(s, k=12):
    return ''.join(s.split())[:k]

CN = '零一二三四五六七八九'
def cn(n):
    if n < 10: return CN[n]
    if n < 20: return '十' + (CN[n % 10] if n % 10 else '')
    if n < 100: return CN[n // 10] + '十' + (CN[n % 10] if n % 10 else '')
    h, r = divmod(n, 100)
    s = CN[h] + '百'
    if r == 0: return s
    if r < 10: return s + '零' + CN[r]
    return s + CN[r // 10] + '十' + (CN[r % 10] if r % 10 else '')

ONES = 'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'.split()
TENS = 'x x twenty thirty forty fifty sixty seventy eighty ninety'.split()
def words(n):
    if n < 20: return ONES[n]
    t, o = divmod(n, 10)
    return TENS[t] + ('-' + ONES[o] if o else '')
def Words(n):
    return '-'.join(w.capitalize() for w in words(n).split('-'))
def roman(n):
    out = ''
    for v, s in [(50, 'L'), (40, 'XL'), (10, 'X'), (9, 'IX'), (5, 'V'), (4, 'IV'), (1, 'I')]:
        while n >= v: out += s; n -= v
    return out

def wrap(p, w):
    return textwrap.fill(p, width=w, break_long_words=False, break_on_hyphens=False)

class Case:
    def __init__(self, name, enc, nl='\n', notes=''):
        self.name, self.enc, self.nl, self.notes = name, enc, nl, notes
        self.parts = []          # text pieces for single-file cases
        self.files = []          # (filename, text) for folder cases
        self.chapters, self.extras, self.arcs = [], [], []
    def add(self, s):
        self.parts.append(s)
    def chap(self, number, kind, heading, body, **extra):
        d = {'number': number, 'kind': kind, 'heading': heading, 'starts_with': nws(body)}
        d.update(extra)
        self.chapters.append(d)
    def extra(self, heading, body):
        self.extras.append({'heading': heading, 'starts_with': nws(body)})
    def arc(self, heading, first):
        self.arcs.append({'heading': heading, 'first_chapter': first})
    def write(self):
        d = os.path.join(OUT, self.name)
        if os.path.exists(d): shutil.rmtree(d)
        os.makedirs(d + '/input')
        codec = {'utf-8': 'utf-8', 'utf-8-bom': 'utf-8', 'utf-16le': 'utf-16-le', 'utf-16be': 'utf-16-be',
                 'gb18030': 'gb18030', 'big5': 'big5'}[self.enc]
        bom = {'utf-8-bom': '\ufeff', 'utf-16le': '\ufeff', 'utf-16be': '\ufeff'}.get(self.enc, '')
        files = self.files or [(self.fname, ''.join(self.parts))]
        for fn, text in files:
            text = text.replace('\n', self.nl)
            with open(f'{d}/input/{fn}', 'wb') as f:
                f.write((bom + text).encode(codec))
        exp = {'chapters': self.chapters, 'extras': self.extras, 'arcs': self.arcs,
               'encoding': self.enc, 'notes': self.notes}
        with open(f'{d}/expected.json', 'w', encoding='utf-8') as f:
            json.dump(exp, f, ensure_ascii=False, indent=1)
            f.write('\n')

cases = []

# ---------------- case01: GB18030 web-novel download of 西遊記 64–71
c = Case('case01', 'gb18030', '\r\n',
         '西遊記 64–71 as a GB18030/CRLF web-novel download: site banner front matter = chapter 0, `第64章 標題` headings, `第七卷 …` volume lines as arcs, in-text site ads, （本章完）, 作者有話說 notes, full-width indents; ch.68 has real verse lines `第一望他神氣色…`/`第二聞聲清與濁…` that are not headings.')
c.fname = '西遊記_64-71.txt'
front = '《西遊記》\n作者：吳承恩\n\n【書香小築】 www.shuxiangxz.com 整理\n本書僅供試閱交流，請於下載後24小時內刪除。\n\n==============================\n\n\n'
c.add(front); c.chap(0, 'prologue', '', front)
for n in range(64, 72):
    if n == 64:
        h = '第七卷 荊棘嶺'; c.add(h + '\n\n\n'); c.arc(h, 64)
    if n == 68:
        h = '第八卷 朱紫國'; c.add(h + '\n\n\n'); c.arc(h, 68)
    ps = paras('xiyouji', n, 36 if n == 68 else 5)
    h = f'第{n}章 {title1("xiyouji", n)}'
    body = ''
    for i, p in enumerate(ps):
        body += '　　' + p + '\n\n'
        if i == 2 and n % 2 == 0:
            body += '　　一秒記住【書香小築】，精彩小說無彈窗免費閱讀！\n\n'
    if n in (65, 69):
        body += '\n作者有話說：今天兩更，晚上九點還有一章。謝謝大家的月票和打賞！\n\n'
    body += '（本章完）\n\n\n\n'
    c.add(h + '\n\n' + body); c.chap(n, 'chapter', h, body)
cases.append(c)

# ---------------- case02: 紅樓夢 101–110 as 第一百零一章 web chapters, with 番外 extras
c = Case('case02', 'utf-8', '\n',
         '紅樓夢 101–110 re-headed as a web serial `第一百零一章　標題` (hundreds with 零 and 一百一十), double blank lines, a `——` scene break and `PS：` footers; two 番外 extras after the last chapter that must not renumber it.')
c.fname = 'honglou-101-110.txt'
for n in range(101, 111):
    ps = paras('hongloumeng', n, 4)
    h = f'第{cn(n)}章　{title1("hongloumeng", n)}'
    body = ''
    for i, p in enumerate(ps):
        body += p + '\n\n\n'
        if i == 1 and n in (103, 107):
            body += '——\n\n\n'
    if n in (104, 110):
        body += 'PS：本卷至此暫告一段落，明日起恢復日更。\n\n\n'
    c.add(h + '\n\n\n' + body); c.chap(n, 'chapter', h, body)
for k, n in ((1, 113), (2, 115)):
    ps = paras('hongloumeng', n, 3, start=4)
    h = f'番外{cn(k)}　{title1("hongloumeng", n)}'
    body = ''.join(p + '\n\n\n' for p in ps)
    c.add(h + '\n\n\n' + body); c.extra(h, body)
cases.append(c)

# ---------------- case03: Big5, 卷N arcs, two-line headings, 後記
c = Case('case03', 'big5', '\r\n',
         '紅樓夢 61–66 in Big5/CRLF: bare `卷七`/`卷八` volume lines as arcs, two-line headings (`第六十一回` line, then the couplet title on its own line; `heading_title` holds it), and a `後記` epilogue after the last chapter.')
c.fname = 'hlm_vol7-8.txt'
for n in range(61, 67):
    if n == 61: c.add('卷七\n\n'); c.arc('卷七', 61)
    if n == 64: c.add('卷八\n\n'); c.arc('卷八', 64)
    h = f'第{cn(n)}回'
    t = head('hongloumeng', n).split('　', 1)[1]
    body = ''.join('　　' + p + '\n' for p in paras('hongloumeng', n, 5)) + '\n'
    c.add(h + '\n' + t + '\n\n' + body); c.chap(n, 'chapter', h, body, heading_title=t)
body = ''.join('　　' + p + '\n' for p in paras('hongloumeng', 67, 3)) + '\n'
c.add('後記\n\n' + body); c.chap(67, 'epilogue', '後記', body)
cases.append(c)

# ---------------- case04: hard-wrapped W&P, Part I/Part II arcs, bare "1." headings restarting
WAR = {'two': 29, 'three': 50, 'seven': 133, 'eight': 146, 'fourteen': 299}
def pick_width(texts, widths):
    for w in widths:
        if any(re.match(r'\d', l) for t in texts for l in wrap(t, w).split('\n')[1:]):
            return w
    return widths[0]
srcs = [(WAR['two'] + i, 4) for i in range(4)] + [(WAR['three'] + i, 4) for i in range(4)]
allp = [p for n, k in srcs for p in paras('war-and-peace', n, k)]
W4 = pick_width(allp, [79, 72, 74, 76, 78])
c = Case('case04', 'utf-8', '\r\n',
         f'War and Peace Books Two/Three as `Part II`/`Part III` arcs with bare `1.` `2.` … headings restarting per part (chapters count 1–8); CRLF, hard-wrapped at {W4} columns so that wrapped lines start with numbers (e.g. a year) and must be unwrapped, not taken as headings.')
c.fname = 'war_and_peace_parts.txt'
num = 0
for part, base in (('Part II', WAR['two']), ('Part III', WAR['three'])):
    c.add(part + '\n\n\n'); c.arc(part, num + 1)
    for i in range(4):
        num += 1
        h = f'{i + 1}.'
        body = ''.join(wrap(p, W4) + '\n\n' for p in paras('war-and-peace', base + i, 4)) + '\n'
        c.add(h + '\n\n' + body); c.chap(num, 'chapter', h, body)
cases.append(c)

# ---------------- case05: UTF-16LE, P&P 31–38 "Chapter Thirty-One"
c = Case('case05', 'utf-16le', '\r\n',
         'Pride and Prejudice 31–38 in UTF-16LE with BOM, CRLF: spelled-out hyphenated headings `Chapter Thirty-One` … `Chapter Thirty-Eight`, one paragraph per line with no blank lines between paragraphs (a word-processor export), two blank lines before each heading.')
c.fname = 'pride_31-38.txt'
for n in range(31, 39):
    h = f'Chapter {Words(n)}'
    body = ''.join(p + '\n' for p in paras('pride-and-prejudice', n, 6)) + '\n\n'
    c.add(h + '\n\n' + body); c.chap(n, 'chapter', h, body)
cases.append(c)

# ---------------- case06: TOC with dot leaders and page numbers
c = Case('case06', 'utf-8', '\n',
         '紅樓夢 21–28 with a title block and a 目　錄 whose lines are the headings followed by dot leaders and page numbers (front matter = chapter 0, must not become chapters); full corpus headings `第二十一回　上聯　下聯`.')
c.fname = '紅樓夢二十一至二十八回.txt'
toc = '紅樓夢（第二冊）\n曹雪芹　著\n\n目　錄\n\n'
for i, n in enumerate(range(21, 29)):
    toc += head('hongloumeng', n) + '…………' + str(1 + i * 14) + '\n'
toc += '\n\n'
c.add(toc); c.chap(0, 'prologue', '', toc)
for n in range(21, 29):
    h = head('hongloumeng', n)
    body = ''.join('　　' + p + '\n' for p in paras('hongloumeng', n, 4)) + '\n'
    c.add(h + '\n\n' + body); c.chap(n, 'chapter', h, body)
cases.append(c)

# ---------------- case07: English Markdown, P&P 50–57
c = Case('case07', 'utf-8', '\n',
         'Markdown manuscript of Pride and Prejudice 50–57: `# Pride and Prejudice` with an italic byline and an epigraph-style blockquote as front matter (chapter 0), `## Chapter 50` … headings, `---` and `***` scene breaks (not chapters), and in ch.57 Mr Bennet\'s reading of Collins\'s letter set as a `>` blockquote.')
c.fname = 'pride-and-prejudice.md'
front = '# Pride and Prejudice\n\n*by Jane Austen — working draft, volume three*\n\n> It is a truth universally acknowledged.\n\n'
c.add(front); c.chap(0, 'prologue', '', front)
for n in range(50, 58):
    h = f'## Chapter {n}'
    ps = paras('pride-and-prejudice', n, 9, start=5) if n == 57 else paras('pride-and-prejudice', n, 6)
    body = ''
    for i, p in enumerate(ps):
        if n == 57 and i == 8:
            body += '> ' + p + '\n\n'
            continue
        body += p + '\n\n'
        if i == 2 and n in (51, 55): body += '---\n\n'
        if i == 3 and n == 53: body += '***\n\n'
    c.add(h + '\n\n' + body); c.chap(n, 'chapter', h, body)
cases.append(c)

# ---------------- case08: Chinese Markdown, 西遊記 72–79 + 尾聲
c = Case('case08', 'utf-8', '\n',
         'Chinese Markdown of 西遊記 72–79: `# 西遊記` plus `> 作者` blockquote as front matter (chapter 0), `## 第七十二回　上聯　下聯` headings, `* * *` scene breaks, and a `## 尾聲` epilogue after the last 回.')
c.fname = '西遊記.md'
front = '# 西遊記\n\n> 吳承恩　著　（第七十二回至第七十九回，校對稿）\n\n'
c.add(front); c.chap(0, 'prologue', '', front)
for n in range(72, 80):
    h = '## ' + head('xiyouji', n)
    ps = paras('xiyouji', n, 5)
    body = ''
    for i, p in enumerate(ps):
        body += p + '\n\n'
        if i == 2 and n in (74, 77): body += '* * *\n\n'
    c.add(h + '\n\n' + body); c.chap(n, 'chapter', h, body)
body = ''.join(p + '\n\n' for p in paras('xiyouji', 80, 3))
c.add('## 尾聲\n\n' + body); c.chap(80, 'epilogue', '## 尾聲', body)
cases.append(c)

# ---------------- case09: folder 1.txt..12.txt, UTF-8 BOM, CRLF, headings inside
c = Case('case09', 'utf-8-bom', '\r\n',
         'Folder of 12 Notepad files `1.txt` … `12.txt` (UTF-8 with BOM in every file, CRLF) from 西遊記 41–52 renumbered by the author as `第一章　標題` … `第十二章　標題`; files must be read in numeric order (10, 11, 12 after 9).')
for i, n in enumerate(range(41, 53), 1):
    h = f'第{cn(i)}章　{title1("xiyouji", n)}'
    body = ''.join('　　' + p + '\n\n' for p in paras('xiyouji', n, 4))
    c.files.append((f'{i}.txt', h + '\n\n' + body)); c.chap(i, 'chapter', h, body)
cases.append(c)

# ---------------- case10: folder chapter-1.md..chapter-11.md, unpadded, no headings
c = Case('case10', 'utf-8', '\n',
         'Folder `chapter-1.md` … `chapter-11.md` (no zero padding, so name order ≠ numeric order) with no headings inside: War and Peace Book Seven I–XI; chapter numbers come from the file names.')
for i in range(1, 12):
    body = ''.join(p + '\n\n' for p in paras('war-and-peace', WAR['seven'] + i - 1, 3))
    c.files.append((f'chapter-{i}.md', body)); c.chap(i, 'chapter', '', body)
cases.append(c)

# ---------------- case11: PROLOGUE / CHAPTER ONE + title line / EPILOGUE, '#' scene breaks
c = Case('case11', 'utf-8', '\n',
         'War and Peace Book Eight I–VIII as `PROLOGUE`, `CHAPTER ONE` … `CHAPTER SIX` each with a title on the next line (`heading_title`), and `EPILOGUE`; single `#` lines are manuscript scene breaks, not headings.')
c.fname = 'manuscript.txt'
TITLES = ['The Old Prince in Moscow', 'Métivier', 'Princess Mary', 'Borís and Julie',
          'The Rostóvs Arrive', 'A Call on the Old Prince']
base = WAR['eight']
body = ''.join(p + '\n\n' for p in paras('war-and-peace', base, 3))
c.add('PROLOGUE\n\n' + body); c.chap(0, 'prologue', 'PROLOGUE', body)
for i in range(1, 7):
    h = f'CHAPTER {words(i).upper()}'
    t = TITLES[i - 1]
    ps = paras('war-and-peace', base + i, 4)
    body = ''
    for j, p in enumerate(ps):
        body += p + '\n\n'
        if j == 1 and i % 2: body += '#\n\n'
    c.add(h + '\n' + t + '\n\n' + body); c.chap(i, 'chapter', h, body, heading_title=t)
body = ''.join(p + '\n\n' for p in paras('war-and-peace', base + 7, 3))
c.add('EPILOGUE\n\n' + body); c.chap(7, 'epilogue', 'EPILOGUE', body)
cases.append(c)

# ---------------- case12: Chapter XI. with period, * * * breaks
c = Case('case12', 'utf-8', '\n',
         'Pride and Prejudice 11–19 with mixed-case Roman headings `Chapter XI.` … `Chapter XIX.` (trailing period), `* * *` scene breaks, blank line between paragraphs; dialogue paragraphs opening “I …”.')
c.fname = 'P&P 11-19.txt'
for n in range(11, 20):
    h = f'Chapter {roman(n)}.'
    ps = paras('pride-and-prejudice', n, 7)
    body = ''
    for i, p in enumerate(ps):
        body += p + '\n\n'
        if i == 3 and n in (12, 15, 18): body += '* * *\n\n'
    c.add(h + '\n\n' + body); c.chap(n, 'chapter', h, body)
cases.append(c)

# ---------------- case13: UTF-16BE, 楔子, bare 第八十一回, 尾聲
c = Case('case13', 'utf-16be', '\n',
         '紅樓夢 in UTF-16BE with BOM, LF: a `楔子` (opening of ch.1, which mentions 第一回 inside the prose) as chapter 0, bare headings `第八十一回` … `第八十六回` with no title, and a `尾聲`.')
c.fname = 'hlm81-86.txt'
body = ''.join('　　' + p + '\n' for p in paras('hongloumeng', 1, 2)) + '\n'
c.add('楔子\n\n' + body); c.chap(0, 'prologue', '楔子', body)
for n in range(81, 87):
    h = f'第{cn(n)}回'
    body = ''.join('　　' + p + '\n' for p in paras('hongloumeng', n, 4)) + '\n'
    c.add(h + '\n\n' + body); c.chap(n, 'chapter', h, body)
body = ''.join('　　' + p + '\n' for p in paras('hongloumeng', 119)[-2:]) + '\n'
c.add('尾聲\n\n' + body); c.chap(87, 'epilogue', '尾聲', body)
cases.append(c)

# ---------------- case14: hard-wrapped P&P, Volume 1 / Volume 2 arcs, "Chapter 1" restarting
c = Case('case14', 'utf-8', '\r\n',
         'Pride and Prejudice as the 1813 edition numbers it: `Volume 2` / `Volume 3` arcs with `Chapter 1` … restarting per volume (vol. II ch. 1–5 = chs. 24–28, vol. III ch. 1–4 = chs. 43–46; counted 1–9), CRLF and hard-wrapped at 74 columns.')
c.fname = 'pride_and_prejudice_vols.txt'
num = 0
for vol, src in (('Volume 2', range(24, 29)), ('Volume 3', range(43, 47))):
    c.add(vol + '\n\n\n'); c.arc(vol, num + 1)
    for i, n in enumerate(src, 1):
        num += 1
        h = f'Chapter {i}'
        body = ''.join(wrap(p, 74) + '\n\n' for p in paras('pride-and-prejudice', n, 5)) + '\n'
        c.add(h + '\n\n' + body); c.chap(num, 'chapter', h, body)
cases.append(c)

# ---------------- case15: web serial English, Chapter N: Title, A/N notes, Interlude extra
c = Case('case15', 'utf-8', '\n',
         'Web-serial export of War and Peace Book Fourteen: `Prologue: The Laws of War`, `Chapter 1: Title` … `Chapter 4: Title`, author\'s notes `A/N:` at the start/end of chapters (one with a `1.` `2.` list, one with a line starting "3 more chapters") and `***` breaks, then `Interlude: Petya` after the end (extra, does not renumber).')
c.fname = 'serial_export.txt'
base = WAR['fourteen']
body = ''.join(p + '\n\n' for p in paras('war-and-peace', base, 3))
c.add('Prologue: The Laws of War\n\n' + body); c.chap(0, 'prologue', 'Prologue: The Laws of War', body)
TT = ['The Partisan War', 'A Rainy Autumn Day', 'Denísov', 'The Esaul']
for i in range(1, 5):
    h = f'Chapter {i}: {TT[i - 1]}'
    ps = paras('war-and-peace', base + i, 4)
    body = ''
    if i == 1: body += 'A/N: Thanks for all the comments on the last update! Short one this week.\n\n***\n\n'
    if i == 3: body += 'A/N: Answers to the two questions everyone asked:\n1. Yes, Dolokhov is back for good.\n2. No, Petya is not forgotten.\n\n***\n\n'
    for j, p in enumerate(ps):
        body += p + '\n\n'
        if j == 1 and i == 2: body += '***\n\n'
    if i == 2: body += '***\n\nA/N: Next chapter goes up on Friday.\n\n'
    if i == 4: body += '***\n\nA/N:\n3 more chapters to go in this arc. See you on Friday!\n\n'
    c.add(h + '\n\n' + body); c.chap(i, 'chapter', h, body)
body = ''.join(p + '\n\n' for p in paras('war-and-peace', base + 6, 3))
c.add('Interlude: Petya\n\n' + body); c.extra('Interlude: Petya', body)
cases.append(c)

# ---------------- case16: end of 西遊記, 第一百回, 尾聲, 番外
c = Case('case16', 'utf-8', '\n',
         '西遊記 95–100 (ending at `第一百回`, 百 without 零) with full corpus headings and full-width indents, a `尾聲` epilogue, then `番外一　…`/`番外二　…` extras; the volume line `第二十卷　靈山` is an arc before 95.')
c.fname = '西遊記_完結.txt'
c.add('第二十卷　靈山\n\n'); c.arc('第二十卷　靈山', 95)
for n in range(95, 101):
    h = head('xiyouji', n)
    body = ''.join('　　' + p + '\n' for p in paras('xiyouji', n, 4)) + '\n'
    c.add(h + '\n\n' + body); c.chap(n, 'chapter', h, body)
body = ''.join('　　' + p + '\n' for p in paras('xiyouji', 100)[-3:]) + '\n'
c.add('尾聲\n\n' + body); c.chap(101, 'epilogue', '尾聲', body)
for k, n in ((1, 23), (2, 27)):
    h = f'番外{cn(k)}　{title1("xiyouji", n)}'
    body = ''.join('　　' + p + '\n' for p in paras('xiyouji', n, 3, start=1)) + '\n'
    c.add(h + '\n\n' + body); c.extra(h, body)
cases.append(c)

for c in cases:
    c.write()
print('wrote', len(cases), 'cases; case04 width', W4)
