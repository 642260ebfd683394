#!/usr/bin/env python3
"""Build planted.jsonl for 紅樓夢 from the case specs below.

Each spec: (type, chapter, start_marker, end_marker_or_paras, old, new, planted, expected)
 - the excerpt runs from start_marker to the end of end_marker (str), or to the end of
   the N-th paragraph (int) counting the paragraph where start_marker begins as 1;
 - `old` must occur exactly once in the excerpt; it is replaced by `new`;
 - `planted` is located inside `new`; the span is its position in the modified excerpt.
"""
import json, os, sys
CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../../../shared/corpus/hongloumeng/')
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'planted.jsonl')

def chap(n):
    return open(os.path.join(CORPUS, '%03d.txt' % n), encoding='utf-8').read()

C = 'entities/characters/'
L = 'entities/locations/'
W = 'meta/world-rules.md forbids'
CASES = [
# ---------------- name ----------------
('name', 3, '一語未了，只听后院中有人笑聲', '讓他們去歇歇。”',
 "你只叫他`鳳辣子'", "你只叫他`風辣子'", '風辣子',
 'misspelled name; should be 鳳辣子 (entities/characters/wang-xifeng)'),
('name', 8, '閒言少述，且說寶玉來至梨香院中', '后人曾有詩嘲云：',
 '先就看見薛寶釵坐在炕上', '先就看見薛保釵坐在炕上', '薛保釵',
 'misspelled name; should be 薛寶釵 (entities/characters/xue-baochai)'),
('name', 19, '李嬤嬤又問道：“這蓋碗里是酥酪', '說著，賭气去了．',
 '難道待襲人比我還重', '難道待龔人比我還重', '龔人',
 'misspelled name; should be 襲人 (entities/characters/xiren)'),
('name', 27, '如今且說林黛玉因夜間失寐', 2,
 '林黛玉正眼也不看', '林代玉正眼也不看', '林代玉',
 'misspelled name; should be 林黛玉 (entities/characters/lin-daiyu)'),
('name', 40, '說笑一會，賈母因見窗上紗的顏色舊了', 1,
 '劉姥姥也覷著眼看個不了', '柳姥姥也覷著眼看個不了', '柳姥姥',
 'misspelled name; should be 劉姥姥 (entities/characters/liu-laolao)'),
('name', 46, '邢夫人听了有理，便自往賈母處', 1,
 '鴛鴦仍不語', '鴛央仍不語', '鴛央',
 'misspelled name; should be 鴛鴦 (entities/characters/yuanyang)'),
('name', 57, '這日寶玉因見湘云漸愈', 1,
 '紫鵑笑道：“你也念起佛來', '紫絹笑道：“你也念起佛來', '紫絹',
 'misspelled name; should be 紫鵑 (entities/characters/zijuan)'),
('name', 63, '晴雯，麝月，襲人三人又說', 1,
 '先后都到了怡紅院中', '先后都到了恰紅院中', '恰紅院',
 'misspelled name; should be 怡紅院 (entities/locations/yihong-yuan)'),
('name', 67, '卻說鶯儿帶著老婆子們送東西回來', 2,
 '听見他說要到璉二奶奶那邊去', '听見他說要到連二奶奶那邊去', '連二奶奶',
 'misspelled alias; should be 璉二奶奶 (entities/characters/wang-xifeng)'),
('name', 74, '彼時李紈猶病在床上', '方往迎春房內來．',
 '惜春膽小，見了這個也害怕', '借春膽小，見了這個也害怕', '借春',
 'misspelled name; should be 惜春 (entities/characters/jia-xichun)'),
# ---------------- fact ----------------
('fact', 1, '當日地陷東南，這東南一隅有處曰姑蘇', 2,
 '乳名喚作英蓮，年方三歲', '乳名喚作英蓮，年方五歲', '五歲',
 'entities/characters/xiangling facts.年紀 = 三歲 as of ch.1; the text says 英蓮 is 年方五歲'),
('fact', 2, '卻說封肅因听見公差傳喚', 1,
 '本貫胡州人氏', '本貫金陵人氏', '金陵',
 'entities/characters/jia-yucun facts.原籍 = 胡州 as of ch.2; the text says 賈化 (雨村) is 本貫金陵人氏'),
('fact', 4, '門子笑道：“不瞞老爺說，不但這凶犯的方向我知道', 1,
 '葫蘆廟旁住的甄老爺的小姐', '葫蘆廟旁住的封老爺的小姐', '封老爺',
 'entities/characters/xiangling facts.父親 = 甄士隱 as of ch.4; the text makes 英蓮 the daughter of 封老爺 (封肅 is her maternal grandfather)'),
('fact', 13, '江南江宁府江宁縣監生賈蓉，年二十歲', 1,
 '父，世襲三品爵威烈將軍賈珍', '父，世襲三品爵神威將軍賈珍', '神威將軍',
 'entities/characters/jia-zhen facts.爵位 = 世襲三品爵威烈將軍 as of ch.13; the text gives 賈珍 the title 神威將軍 (賈代化\'s title)'),
('fact', 16, '趙嬤嬤道：“那是誰不知道的？如今還有個口號儿呢', 1,
 '一共丈量准了，三里半大', '一共丈量准了，五里半大', '五里半',
 'entities/locations/daguan-yuan facts.大小 = 三里半 as of ch.16; the text says the garden measures 五里半'),
('fact', 18, '此時王夫人那邊熱鬧非常', 1,
 '本是蘇州人氏', '本是揚州人氏', '揚州',
 'entities/characters/miaoyu facts.原籍 = 蘇州 as of ch.18; the text says 妙玉 is 本是揚州人氏'),
('fact', 39, '平儿等來至賈母房中', 1,
 '我今年七十五了', '我今年八十五了', '八十五',
 'entities/characters/liu-laolao facts.年紀 = 七十五歲 as of ch.39; the text has 劉姥姥 say she is 八十五'),
('fact', 83, '話說探春湘云才要走時', 2,
 '原來黛玉住在大觀園中', '原來黛玉住在宁國府中', '宁國府',
 'entities/characters/lin-daiyu facts.住處 = 大觀園瀟湘館 as of ch.83; the text says 黛玉 lives in 宁國府'),
('fact', 107, '話說賈政進內，見了樞密院各位大人', 1,
 '尤二姐實系張華指腹為婚未娶之妻', '尤二姐實系柳湘蓮指腹為婚未娶之妻', '柳湘蓮',
 'entities/characters/you-erjie facts.原聘 = 張華 as of ch.107; the text says 尤二姐 was betrothed to 柳湘蓮 (尤三姐\'s intended)'),
('fact', 119, '那一夜五更多天，外頭几個家人進來到二門口報喜', 1,
 '“第七名中的是誰？', '“第十七名中的是誰？', '第十七名',
 'entities/characters/jia-baoyu facts.鄉試名次 = 第七名 as of ch.119; the text says 寶二爺 passed as 第十七名'),
# ---------------- state ----------------
('state', 14, '如今且說寶玉因見今日人眾', 2,
 '寶玉道：“我們偏了。”', '黛玉笑道：“我們偏了。”', '黛玉笑道',
 'entities/characters/lin-daiyu status away (location 揚州、蘇州) since ch.13; cannot join 寶玉 and 秦鐘 at 鳳姐\'s 抱廈 in 宁國府 in ch.14'),
('state', 17, '賈政剛至園門前', 2,
 '眾清客都道：“好山', '秦鐘和眾清客都道：“好山', '秦鐘和',
 'entities/characters/qin-zhong status dead since ch.17 (died in ch.16); cannot walk into the new garden with 賈政 and the 清客 in ch.17'),
('state', 41, '且說賈母因覺身上乏倦', 2,
 '眾人笑道：“你認得這是什么廟？', '賈政笑道：“你認得這是什么廟？', '賈政',
 'entities/characters/jia-zheng status away (location 學差任上) since ch.38; cannot tease 劉姥姥 under the 省親別墅 arch in 大觀園 in ch.41'),
('state', 68, '二人對見了禮，分序座下', 2,
 '二人吃茶，對訴已往之事', '二人吃茶，尤三姐也過來同坐，對訴已往之事', '尤三姐也過來同坐，',
 'entities/characters/you-sanjie status dead since ch.67 (killed herself in ch.66); cannot sit with 鳳姐 and 尤二姐 in ch.68'),
('state', 72, '晚間鳳姐已命人喚了彩霞之母來說媒', 2,
 '鳳姐听說，便說：“你听見誰說他不成人？', '尤二姐在旁听說，便說：“你听見誰說他不成人？', '尤二姐在旁',
 'entities/characters/you-erjie status dead since ch.70 (died in ch.69); cannot speak in 鳳姐 and 賈璉\'s room in ch.72'),
('state', 82, '黛玉正在那里看書，見是襲人', 2,
 '見是襲人，欠身讓坐', '見是襲人和晴雯，欠身讓坐', '和晴雯',
 'entities/characters/qingwen status dead since ch.78 (died in ch.77); cannot call at 瀟湘館 with 襲人 in ch.82'),
('state', 105, '且說賈母那邊女眷也擺家宴', 2,
 '可怜寶釵寶玉等正在沒法', '可怜寶釵黛玉寶玉等正在沒法', '黛玉',
 'entities/characters/lin-daiyu status dead since ch.99 (died in ch.98); cannot be among the women in 賈母\'s room during the raid in ch.105'),
('state', 113, '只見平儿同劉姥姥帶了一個小女孩儿進來', 1,
 '平儿道：“這怕什么，他還有老爺太太呢。”', '鴛鴦道：“這怕什么，他還有老爺太太呢。”', '鴛鴦',
 'entities/characters/yuanyang status dead since ch.112 (hanged herself in ch.111); cannot answer 劉姥姥 at 鳳姐\'s bedside in ch.113'),
('state', 115, '邢王二夫人正要告訴賈政', 2,
 '只言王夫人提起甄寶玉', '只言賈母和王夫人提起甄寶玉', '賈母和',
 'entities/characters/jia-mu status dead since ch.111 (died in ch.110); cannot receive 甄夫人 with 王夫人 in ch.115'),
('state', 118, '那日果然來了几個女人，都是艷妝麗服', 2,
 '平儿不放心，也跟著來', '鳳姐不放心，也跟著來', '鳳姐',
 'entities/characters/wang-xifeng status dead since ch.115 (died in ch.114); cannot follow 巧姐 to meet the 外藩 women in ch.118'),
# ---------------- world ----------------
('world', 7, '一時鳳姐尤氏又打發人來問寶玉', 1,
 '又打發人來問寶玉', '又打電話來問寶玉', '打電話',
 "meta/world-rules.md forbids '電話' (清代貴族世家，傳話靠打發人、書信)"),
('world', 11, '鳳姐儿听了，款步提衣上了樓', '于是都上車去了．',
 '方才叫預備車', '方才叫預備汽車', '汽車',
 "meta/world-rules.md forbids '汽車' (出門坐車、坐轎、騎馬)"),
('world', 22, '賈母見元春這般有興', 1,
 '上房懸了彩燈', '上房開了電燈', '開了電燈',
 "meta/world-rules.md forbids '電燈' (照明是蠟燭、燈籠、彩燈)"),
('world', 29, '賈珍到賈母跟前，控身陪笑說', 1,
 '同當日國公爺一個稿子', '同當日國公爺照片上一個稿子', '照片上',
 "meta/world-rules.md forbids '照片' (人像是畫出來的)"),
('world', 45, '寶玉卻不留心，因見案上有詩', '所以沒點來。”',
 '一個金表來', '一個手錶來', '手錶',
 "meta/world-rules.md forbids '手錶' (寶玉懷中的是核桃大的金表)"),
('world', 62, '說著，只見柳家的果遣了人送了一個盒子來', 1,
 '大家吃茶閒話', '大家喝咖啡閒話', '喝咖啡',
 "meta/world-rules.md forbids '咖啡' (清代貴族世家，喝的是茶)"),
('world', 75, '話說尤氏從惜春處賭气出來', 1,
 '看邸報甄家犯了罪', '看報紙上說甄家犯了罪', '報紙上說',
 "meta/world-rules.md forbids '報紙' (朝廷消息看邸報)"),
('world', 93, '這里賈璉便叫那管租的人道', 1,
 '旺儿晌午出去了，還沒有回來', '旺儿晌午出去了，手機也打不通，還沒有回來', '手機也打不通，',
 "meta/world-rules.md forbids '手機' (傳話靠打發小廝去找)"),
('world', 111, '林之孝便叫人開了門，報了營官', 2,
 '報了營官，立刻到來查勘', '報了警察，立刻到來查勘', '警察',
 "meta/world-rules.md forbids '警察' (失盜報的是營官)"),
('world', 117, '一日邢大舅王仁都在賈家外書房喝酒', 1,
 '邢大舅喝了，已有醉意', '邢大舅喝了，點上一支香菸，已有醉意', '點上一支香菸，',
 "meta/world-rules.md forbids '香菸' (清代貴族世家，只有鼻煙)"),
]

def excerpt(text, start_marker, end):
    a = text.find(start_marker)
    assert a >= 0 and text.count(start_marker) == 1, ('start marker', start_marker)
    if isinstance(end, str):
        b = text.find(end, a)
        assert b >= 0, ('end marker', end)
        return a, b + len(end)
    b = a
    for _ in range(end):
        nb = text.find('\n\n', b + 1 if b > a else b)
        b = len(text) if nb < 0 else nb
    return a, b

def main():
    order = {'name': 0, 'fact': 1, 'state': 2, 'world': 3}
    cases = sorted(CASES, key=lambda c: c[1])
    out = []
    for i, (typ, ch, sm, em, old, new, planted, expected) in enumerate(cases, 1):
        t = chap(ch)
        a, b = excerpt(t, sm, em)
        orig = t[a:b]
        assert orig.count(old) == 1, (ch, old, orig.count(old))
        p = orig.find(old)
        mod = orig[:p] + new + orig[p + len(old):]
        assert new.count(planted) == 1, (ch, planted)
        s = p + new.find(planted)
        out.append({'id': 'hlm-c-%02d' % i, 'book': 'hongloumeng', 'chapter': ch, 'type': typ,
                    'original_excerpt': orig, 'modified_excerpt': mod,
                    'span': [s, s + len(planted)], 'planted': planted, 'expected': expected})
    with open(OUT, 'w', encoding='utf-8') as f:
        for r in out:
            f.write(json.dumps(r, ensure_ascii=False) + '\n')
    print('wrote', len(out), 'cases to', os.path.normpath(OUT))

if __name__ == '__main__':
    main()
