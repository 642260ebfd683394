#!/usr/bin/env python3
"""Builds case01..case16 under /work/heldback/import from /work/shared/corpus."""
import json, os, re, shutil, textwrap
CORP = '/work/shared/corpus'
OUT = '/work/heldback/import'

def load(book, n):
    lines = open(f'{CORP}/{book}/{n:03d}.txt', encoding='utf-8').read().split('\n')
    return lines[0], [l for l in lines[1:] if l.strip()]

def title_of(h):  # CJK heading '第N回　上聯　下聯' -> first couplet half
    parts = h.split('　')
    return parts[1] if len(parts) > 1 else ''

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

def roman(n):
    vals = [(10, 'X'), (9, 'IX'), (5, 'V'), (4, 'IV'), (1, 'I')]
    s = ''
    for v, r in [(50, 'L'), (40, 'XL')] + vals:
        while n >= v: s += r; n -= v
    return s

WORDS = 'Zero One Two Three Four Five Six Seven Eight Nine Ten Eleven Twelve Thirteen Fourteen Fifteen Sixteen Seventeen Eighteen Nineteen Twenty'.split()

def nws(s, k=12):
    return ''.join(ch for ch in s if not ch.isspace())[:k]

class Case:
    def __init__(self, name, encoding, notes):
        self.name, self.encoding, self.notes = name, encoding, notes
        self.chapters, self.extras, self.arcs = [], [], []
    def ch(self, number, kind, heading, body, heading_title=None):
        d = {'number': number, 'kind': kind, 'heading': heading, 'starts_with': nws(body)}
        if heading_title is not None: d['heading_title'] = heading_title
        self.chapters.append(d)
    def extra(self, heading, body):
        self.extras.append({'heading': heading, 'starts_with': nws(body)})
    def arc(self, heading, first):
        self.arcs.append({'heading': heading, 'first_chapter': first})
    def write(self, files):
        d = f'{OUT}/{self.name}'
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(f'{d}/input')
        for fname, text, nl in files:
            text = text.replace('\n', nl)
            enc = self.encoding
            if enc == 'utf-8-bom': data = b'\xef\xbb\xbf' + text.encode('utf-8')
            elif enc == 'utf-16le': data = b'\xff\xfe' + text.encode('utf-16-le')
            elif enc == 'utf-16be': data = b'\xfe\xff' + text.encode('utf-16-be')
            else: data = text.encode(enc)
            open(f'{d}/input/{fname}', 'wb').write(data)
        json.dump({'chapters': self.chapters, 'extras': self.extras, 'arcs': self.arcs,
                   'encoding': self.encoding, 'notes': self.notes},
                  open(f'{d}/expected.json', 'w', encoding='utf-8'), ensure_ascii=False, indent=1)

def wrap(paras, width):
    out = []
    for p in paras:
        out.append('\n'.join(textwrap.wrap(p, width, break_long_words=False, break_on_hyphens=False)))
    return '\n\n'.join(out)

# ---------------------------------------------------------------- case01
def case01():
    c = Case('case01', 'utf-8', 'Web-novel site download (TXT): site banner at the top (front matter = chapter 0), `第1章 標題` headings with Arabic numbers, full-width-space indents, double blank lines, "（本章完）" and 作者有話說 author notes at chapter ends; blank lines between every paragraph.')
    banner = '《西遊記》\n作者：吳承恩\n\n本書由書香小站整理，僅供交流學習，請于下載後24小時內刪除。\n更多好書請訪問：www.shuxiang-xiaozhan.example\n\n--------------------------------\n'
    c.ch(0, 'prologue', '', banner)
    txt = banner + '\n\n'
    notes = {2: '作者有話說：今天雙更，第二更晚上十點左右。感謝「猴哥我愛你」的打賞！', 4: '作者有話說：明天有事請假一天，週六補上。求收藏求推薦票~'}
    for i in range(1, 7):
        h, ps = load('xiyouji', i)
        ps = ps[:7]
        head = f'第{i}章 {title_of(h)}'
        body = '\n\n'.join('　　' + p for p in ps)
        c.ch(i, 'chapter', head, body)
        txt += head + '\n\n\n' + body + '\n\n　　（本章完）\n\n'
        if i in notes: txt += notes[i] + '\n\n'
        txt += '\n'
    c.write([('西遊記.txt', txt, '\n')])

# ---------------------------------------------------------------- case02
def case02():
    c = Case('case02', 'gb18030', 'Partial web-novel download in GB18030 with CRLF: chapters 第九十八章 … 第一百零七章 (numbers kept as the book numbers them, 98–107; covers 第一百章 and 零 forms like 第一百零一章), volume lines `第五卷 …` / `第六卷 …` before some chapters (arcs), "本章完" lines and a site line at chapter ends.')
    txt = ''
    for k, src in enumerate(range(101, 111)):
        n = 98 + k
        h, ps = load('hongloumeng', src)
        ps = ps[:4]
        if n == 98:
            txt += '第五卷 風月寶鑒\n\n'; c.arc('第五卷 風月寶鑒', 98)
        if n == 103:
            txt += '第六卷 金陵十二釵\n\n'; c.arc('第六卷 金陵十二釵', 103)
        head = f'第{cn(n)}章 {title_of(h)}'
        body = '\n'.join('　　' + p for p in ps)
        c.ch(n, 'chapter', head, body)
        txt += head + '\n\n' + body + '\n\n------本章完------\n'
        if n % 3 == 0: txt += '手機用戶請瀏覽 m.shuxiang-xiaozhan.example 閱讀，更優質的閱讀體驗。\n'
        txt += '\n'
    c.write([('紅樓夢_98-107.txt', txt, '\r\n')])

# ---------------------------------------------------------------- case03
def case03():
    c = Case('case03', 'big5', 'Big5-encoded traditional-Chinese manuscript with original `第N回　上聯　下聯` headings, a 楔子 prologue, a 尾聲 epilogue and two 番外 extras after the end (extras must not become chapters 6/7). The first extra has a prose line beginning `第四回中既將…` (real text), which is not a heading.')
    txt = ''
    h, ps = load('hongloumeng', 1)
    pro = '\n'.join(ps[:3])
    txt += '楔子\n\n' + pro + '\n\n'
    c.ch(0, 'prologue', '楔子', pro)
    for i, src in enumerate([2, 3, 4, 6, 7], 1):
        h, ps = load('hongloumeng', src)
        head = f'第{cn(i)}回　' + '　'.join(h.split('　')[1:])
        body = '\n'.join(ps[:5])
        c.ch(i, 'chapter', head, body)
        txt += head + '\n\n' + body + '\n\n'
    h, ps = load('hongloumeng', 120)
    ep = '\n'.join(ps[-4:])
    txt += '尾聲\n\n' + ep + '\n\n'
    c.ch(6, 'epilogue', '尾聲', ep)
    for hd, src in [('番外一　太虛幻境', 5), ('番外二　寶玉讀書', 9)]:
        h, ps = load('hongloumeng', src)
        b = '\n'.join(ps[:3])
        txt += hd + '\n\n' + b + '\n\n'
        c.extra(hd, b)
    c.write([('紅樓夢節本_big5.txt', txt, '\r\n')])

# ---------------------------------------------------------------- case04
def case04():
    c = Case('case04', 'utf-16le', 'UTF-16LE with BOM and CRLF (as saved by Windows Notepad "Unicode"): a 序章 prologue, chapters headed `第一節 …`, `第二節 …`, and verse lines (詩曰 …) inside chapters.')
    txt = ''
    h, ps = load('xiyouji', 1)
    pro = '\n'.join(ps[:12])
    txt += '序章\n' + pro + '\n\n'
    c.ch(0, 'prologue', '序章', pro)
    for i, src in enumerate(range(2, 7), 1):
        h, ps = load('xiyouji', src)
        head = f'第{cn(i)}節　{title_of(h)}'
        body = '\n'.join(ps[:6])
        c.ch(i, 'chapter', head, body)
        txt += head + '\n' + body + '\n\n'
    c.write([('西遊記_unicode.txt', txt, '\r\n')])

# ---------------------------------------------------------------- case05
def case05():
    c = Case('case05', 'utf-16be', 'UTF-16BE with BOM, LF: English headings `Chapter 1: The Title`, a `Volume One` / `Volume Two` arc line, an `Epilogue` at the end and an `Extra: …` after it.')
    titles = ['A Single Man of Large Fortune', 'The Assembly', 'Netherfield', 'Two Sisters', 'Lucas Lodge', 'Charlotte\u2019s Advice']
    txt = 'Volume One\n\n'; c.arc('Volume One', 1)
    for i in range(1, 7):
        if i == 4:
            txt += 'Volume Two\n\n'; c.arc('Volume Two', 4)
        h, ps = load('pride-and-prejudice', i)
        head = f'Chapter {i}: {titles[i-1]}'
        body = '\n\n'.join(ps[:5])
        c.ch(i, 'chapter', head, body)
        txt += head + '\n\n' + body + '\n\n'
    h, ps = load('pride-and-prejudice', 61)
    ep = '\n\n'.join(ps[:3]); txt += 'Epilogue\n\n' + ep + '\n\n'; c.ch(7, 'epilogue', 'Epilogue', ep)
    h, ps = load('pride-and-prejudice', 60)
    ex = '\n\n'.join(ps[:2]); txt += 'Extra: Darcy\u2019s Letter\n\n' + ex + '\n'; c.extra('Extra: Darcy\u2019s Letter', ex)
    c.write([('pride.txt', txt, '\n')])

# ---------------------------------------------------------------- case06
def case06():
    c = Case('case06', 'utf-8-bom', 'UTF-8 with BOM; a 目錄 table of contents at the top repeating every chapter heading exactly (the TOC lines must not become chapters; title + TOC are untitled front matter = chapter 0); `第一章　標題` headings.')
    heads, bodies = [], []
    for i in range(1, 9):
        h, ps = load('xiyouji', i + 10)
        heads.append(f'第{cn(i)}章　{title_of(h)}')
        bodies.append('\n'.join('　　' + p for p in ps[:5]))
    front = '西遊記\n吳承恩　著\n\n目錄\n\n' + '\n'.join(heads) + '\n\n'
    c.ch(0, 'prologue', '', front)
    txt = front + '\n'
    for i, (hd, b) in enumerate(zip(heads, bodies), 1):
        c.ch(i, 'chapter', hd, b)
        txt += hd + '\n\n' + b + '\n\n\n'
    c.write([('西遊記.txt', txt, '\n')])

# ---------------------------------------------------------------- case07
def case07():
    c = Case('case07', 'utf-8', 'English manuscript with CRLF: title page and a CONTENTS list (front matter = chapter 0, not chapters), headings `CHAPTER ONE` … `CHAPTER SEVEN`; a prose line that begins "Chapter and verse" must not start a chapter.')
    front = 'PRIDE AND PREJUDICE\r\n\r\nA Novel\r\n\r\nby Jane Austen\r\n\r\n\r\nCONTENTS\r\n\r\n'.replace('\r\n', '\n')
    for i in range(1, 8): front += f'CHAPTER {WORDS[i].upper()}\n'
    c.ch(0, 'prologue', '', front)
    txt = front + '\n\n\n'
    for i in range(1, 8):
        h, ps = load('pride-and-prejudice', i + 6)
        ps = ps[:5]
        if i == 3:
            ps.insert(2, 'Chapter and verse, she might have quoted him, had anybody asked her; but nobody did.')
        hd = f'CHAPTER {WORDS[i].upper()}'
        body = '\n\n'.join(ps)
        c.ch(i, 'chapter', hd, body)
        txt += hd + '\n\n\n' + body + '\n\n\n'
    c.write([('P&P manuscript.txt', txt, '\r\n')])

# ---------------------------------------------------------------- case08
def case08():
    c = Case('case08', 'utf-8', 'Markdown: `# Title` line then `## Chapter 1` … `## Chapter 5`; scene breaks `* * *` and `***`, a numbered list `1.` `2.` `3.` inside chapter 2, and _italics_. The `# Title` and author line are untitled front matter (chapter 0, heading "").')
    front = '# Pride and Prejudice\n\n*by Jane Austen*\n'
    c.ch(0, 'prologue', '', front)
    txt = front + '\n'
    for i in range(1, 6):
        h, ps = load('pride-and-prejudice', i + 13)
        ps = ps[:6]
        if i == 1: ps.insert(3, '* * *')
        if i == 4: ps.insert(3, '***')
        if i == 2:
            ps.insert(2, 'Mrs. Bennet\u2019s list for the morning ran thus:\n\n1. Call on Lady Lucas.\n2. Send to Meryton for the muslin.\n3. Find out who is to dine at Netherfield.')
        hd = f'## Chapter {i}'
        body = '\n\n'.join(ps)
        c.ch(i, 'chapter', hd, body)
        txt += '\n' + hd + '\n\n' + body + '\n'
    c.write([('pride-and-prejudice.md', txt, '\n')])

# ---------------------------------------------------------------- case09
def case09():
    c = Case('case09', 'utf-8', 'Chinese Markdown: `# 紅樓夢` title, `## 卷一　…` / `## 卷二　…` arcs, `### 第一章　…` chapters; `——` scene break lines inside chapters; a `## 後記` epilogue.')
    front = '# 紅樓夢\n\n> 滿紙荒唐言，一把辛酸淚！\n> 都云作者痴，誰解其中味？\n'
    txt = front + '\n'
    c.ch(0, 'prologue', '', front)
    n = 0
    for arc, srcs in [('## 卷一　金陵', [8, 9, 10]), ('## 卷二　大觀園', [17, 18, 19])]:
        txt += arc + '\n\n'; c.arc(arc, n + 1)
        for src in srcs:
            n += 1
            h, ps = load('hongloumeng', src)
            ps = ps[:5]
            if n in (2, 5): ps.insert(2, '——')
            hd = f'### 第{cn(n)}章　{title_of(h)}'
            body = '\n\n'.join(ps)
            c.ch(n, 'chapter', hd, body)
            txt += hd + '\n\n' + body + '\n\n'
    ep = '本書據程乙本節錄，每回只取開頭數段，供試讀之用。回目改作章名，保留上聯。'
    txt += '## 後記\n\n' + ep + '\n'
    c.ch(n + 1, 'epilogue', '## 後記', ep)
    c.notes += ' The `# 紅樓夢` title line and the quoted epigraph (`> 滿紙荒唐言…`, from ch. 1) are untitled front matter (chapter 0, heading "").'
    c.write([('紅樓夢.md', txt, '\n')])

# ---------------------------------------------------------------- case10
def case10():
    c = Case('case10', 'utf-8', 'Folder of chapter files `1.txt` … `12.txt` with no headings inside: chapter numbers come from the file names in numeric order (10.txt after 9.txt, not after 1.txt); headings are "".')
    files = []
    for i in range(1, 13):
        h, ps = load('pride-and-prejudice', i + 20)
        body = '\n\n'.join(ps[:4]) + '\n'
        c.ch(i, 'chapter', '', body)
        files.append((f'{i}.txt', body, '\n'))
    c.write(files)

# ---------------------------------------------------------------- case11
def case11():
    c = Case('case11', 'utf-8', 'Folder of Markdown files `chapter-01.md` … `chapter-07.md`, each starting with a heading `# Book One, Chapter I` (book name in the chapter heading; numbering restarts in Book Two but chapters count 1–7 across the folder). No separate arc lines, so arcs is empty.')
    files = []; n = 0
    for src in [1, 2, 3, 4, 29, 30, 31]:
        n += 1
        h, ps = load('war-and-peace', src)
        body = '\n\n'.join(ps[:4])
        hd = '# ' + h
        c.ch(n, 'chapter', hd, body)
        files.append((f'chapter-{n:02d}.md', hd + '\n\n' + body + '\n', '\n'))
    c.write(files)

# ---------------------------------------------------------------- case12
def case12():
    c = Case('case12', 'utf-8', 'Hard-wrapped English (76 columns) with CRLF, as in a Gutenberg-style plain text: `CHAPTER I.` … `CHAPTER VIII.` headings (upper-case Roman with a period), paragraphs must be unwrapped; two wrapped lines in chapter VIII begin with the word "I" (not a heading).')
    txt = ''
    for i in range(1, 9):
        h, ps = load('pride-and-prejudice', i + 29)
        ps = ps[:4]
        hd = f'CHAPTER {roman(i)}.'
        body = wrap(ps, 76)
        c.ch(i, 'chapter', hd, body)
        txt += '\n\n\n' + hd + '\n\n\n' + body + '\n'
    c.write([('pandp.txt', txt.lstrip('\n'), '\r\n')])

# ---------------------------------------------------------------- case13
def case13():
    c = Case('case13', 'utf-8', 'English `BOOK ONE` / `BOOK TWO` / `BOOK THREE` arc lines with chapters headed by a bare Roman numeral `I.`, `II.` that restart in each book; chapters count 1–9 across the whole manuscript; an `EPILOGUE` follows. Footnote paragraphs starting with `*` are prose.')
    txt = ''; n = 0
    for bk, srcs in [('BOOK ONE', [1, 2, 3]), ('BOOK TWO', [29, 30, 31]), ('BOOK THREE', [50, 51, 52])]:
        txt += bk + '\n\n\n'; c.arc(bk, n + 1)
        for k, src in enumerate(srcs, 1):
            n += 1
            h, ps = load('war-and-peace', src)
            hd = f'{roman(k)}.'
            body = '\n\n'.join(ps[:4])
            c.ch(n, 'chapter', hd, body)
            txt += hd + '\n\n' + body + '\n\n\n'
    h, ps = load('war-and-peace', 335)
    ep = '\n\n'.join(ps[:3])
    txt += 'EPILOGUE\n\n' + ep + '\n'
    c.ch(n + 1, 'epilogue', 'EPILOGUE', ep)
    c.write([('war_and_peace_draft.txt', txt, '\n')])

# ---------------------------------------------------------------- case14
def case14():
    c = Case('case14', 'utf-8', 'English with bare Arabic-number headings `1`, `2`, … `9`; `***` scene breaks; a prose paragraph that begins with a number ("12 December.") and a numbered list inside chapter 5 are not headings; an `Interlude` after the last chapter is an extra.')
    txt = ''
    for i in range(1, 10):
        h, ps = load('pride-and-prejudice', i + 41)
        ps = ps[:5]
        if i in (2, 7): ps.insert(3, '***')
        if i == 3: ps.insert(1, '12 December. The weather had turned, and the roads were heavy.')
        if i == 5: ps.insert(2, 'The housekeeper\u2019s orders were these:\n\n1. The blue room to be aired.\n2. Fires in the library by four.\n3. Nothing said to the master.')
        hd = str(i)
        body = '\n\n'.join(ps)
        c.ch(i, 'chapter', hd, body)
        txt += hd + '\n\n' + body + '\n\n\n'
    h, ps = load('pride-and-prejudice', 58)
    ex = '\n\n'.join(ps[:3])
    txt += 'Interlude\n\n' + ex + '\n'
    c.extra('Interlude', ex)
    c.notes += ' Inserted lines ("12 December. …", the housekeeper list) are the only non-Austen prose.'
    c.write([('draft-v3.txt', txt, '\n')])

# ---------------------------------------------------------------- case15
def case15():
    c = Case('case15', 'utf-8', 'Old Mac CR-only line endings; `Prologue`, `Part One` / `Part Two` arc lines, headings in words `Chapter One` … `Chapter Twelve` counting on across parts (7–12 in Part Two), hard-wrapped at 78 columns.')
    txt = ''
    h, ps = load('war-and-peace', 100)
    pro = wrap(ps[:3], 78)
    txt += 'Prologue\n\n' + pro + '\n\n'
    c.ch(0, 'prologue', 'Prologue', pro)
    for i in range(1, 13):
        if i == 1: txt += 'Part One\n\n'; c.arc('Part One', 1)
        if i == 7: txt += 'Part Two\n\n'; c.arc('Part Two', 7)
        h, ps = load('war-and-peace', 120 + i)
        hd = f'Chapter {WORDS[i]}'
        body = wrap(ps[:3], 78)
        c.ch(i, 'chapter', hd, body)
        txt += hd + '\n\n' + body + '\n\n'
    c.write([('wp-excerpt.txt', txt, '\r')])

# ---------------------------------------------------------------- case16
def case16():
    c = Case('case16', 'utf-8', 'Chinese manuscript, CRLF: 引子 prologue; headings on two lines (`第一章` then the title on the next line; the title line is in "heading_title"); a list formatted one item a line (`第二件，…`, `第三件，…`) and dialogue lines `第一，不許…` / `第二，不許…` inside a speech are not headings; `——` scene breaks; 後記 epilogue; 番外 extras after it. The 引子 body has a prose line beginning `第四回中既將…` (real text), not a heading.')
    txt = ''
    h, ps = load('hongloumeng', 5)
    pro = '\n'.join('　　' + p for p in ps[:3])
    txt += '引子\n\n' + pro + '\n\n'
    c.ch(0, 'prologue', '引子', pro)
    for i, src in enumerate([11, 12, 13, 14, 15], 1):
        h, ps = load('hongloumeng', src)
        raw = set()
        if src == 13:
            lst = [p for p in ps if p.startswith('這里鳳姐儿來至三間')][0]
            lst = re.sub('，(第[二三四五]件)', r'，\n\1', lst.replace('因想：', '因想：\n'))
            ps = ps[:4] + [lst]
            raw = {lst}
        else:
            ps = ps[:5]
        if i == 2:
            ps.insert(2, '——'); raw.add('——')
        if i == 4:
            d = '　　鳳姐又道：“我只說兩件：\n第一，不許偷懶誤事；\n第二，不許吃酒鬥牌。”'
            ps.insert(3, d); raw.add(d)
        hd = f'第{cn(i)}章'
        t = '　'.join(h.split('　')[1:])
        body = '\n'.join(p if p in raw else '　　' + p for p in ps)
        c.ch(i, 'chapter', hd, body, heading_title=t)
        txt += hd + '\n' + t + '\n\n' + body + '\n\n'
    h, ps = load('hongloumeng', 120)
    ep = '\n'.join('　　' + p for p in ps[-3:])
    txt += '後記\n\n' + ep + '\n\n'
    c.ch(6, 'epilogue', '後記', ep)
    for hd, src in [('番外　黛玉葬花', 27), ('番外　晴雯撕扇', 31)]:
        h, ps = load('hongloumeng', src)
        b = '\n'.join('　　' + p for p in ps[:2])
        txt += hd + '\n\n' + b + '\n\n'
        c.extra(hd, b)
    c.write([('石頭記修訂稿.txt', txt, '\r\n')])

for f in [case01, case02, case03, case04, case05, case06, case07, case08, case09, case10, case11, case12, case13, case14, case15, case16]:
    f()
print('ok')
