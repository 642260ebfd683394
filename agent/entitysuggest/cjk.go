package entitysuggest

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/lexicon"
	"github.com/flowcabal/flowcabal/textsearch"
)

// Chinese fiction names its people where they speak ("寶玉笑道"), where
// they are addressed ("林姑娘"), and its places where someone goes ("往大
// 觀園來"). Those positions give candidate names without a dictionary;
// counts over the whole manuscript then judge where a name begins and
// ends (a candidate that is mostly part of a longer run of characters is
// a fragment) and whether it is a name at all (a word that takes a
// classifier, "一個婆子", is a common noun). The tables below are small
// closed lists of grammar and forms of address, in simplified characters:
// text is folded before it is read.

// cjkSpeech end a speaker's name, longer first so that "冷笑道" is taken
// whole.
var cjkSpeech = []string{
	"冷笑道", "陪笑道", "含笑道", "笑说道", "笑问道", "笑骂道", "忙笑道", "便笑道", "又笑道", "也笑道", "都笑道",
	"笑道", "说道", "问道", "叹道", "答道", "回道", "哭道", "喝道", "骂道", "叫道", "喜道", "怒道", "惊道", "嚷道", "劝道", "听了", "听说", "闻言",
	"道", "说", "曰",
}

// cjkAdverbs may stand between a speaker and the verb ("黛玉便道").
const cjkAdverbs = "便又忙因也都方才遂乃只却倒还亦就先再仍连急即将"

// cjkVerbAdverbs come between a subject and its verb ("又吩咐", "便起身",
// "急回頭") and hardly ever before a name: a run that follows one of
// them often is a verb. 方 (五方揭諦), 因, 只, 才, 將, 連 and 乃 (to be:
// "我乃天蓬元帥") are left out: they stand before names as well.
const cjkVerbAdverbs = "便又忙也都遂就再仍急即亦还却倒"

// verbAdverbShare is the share of a run's occurrences after such an
// adverb past which it is taken for a verb; names stay under 1%,
// 吩咐 is at 15%, 起身 at 44%.
const verbAdverbShare = 0.08

// cjkFirstStop are characters that start no name in these positions:
// pronouns, particles, adverbs, verbs, prepositions (對眾, to the crowd) and
// words of a crowd (群妖, the demons). The particle 著 stays 著 in the
// folded text (t2s leaves it, as 著 is also the simplified 著 of 著作), so it
// stands beside 着 (跟著師父, following the master).
const cjkFirstStop = "要会能可该应想叫让请我你他她它们您咱这那此是的了不也都就又在有个么什谁何怎一来去着著说道听笑问看便忙因只却倒还亦遂乃才早正先再已曾将把被给向和与及同并而且或若之其所者乎哉呢吗吧啊呀哦嗯罢众人家里外上下前后中内得地没无未别各每些几多少两自此彼今昨明此等见听叫请问闻常好急即仍对快群"

// cjkInnerStop are characters that continue or end no name: particles,
// pronouns, and the words of position (門前, before the gate; 山門前).
const cjkInnerStop = "里上下中内外边前的了是也都就又便忙因只却倒还着著说道听笑问看们么呢吗吧啊呀呵我你他她这那在有不"

// cjkPreName may stand right before a name besides punctuation: the
// function words and the verbs that take a person ("见宝玉", "叫平儿").
const cjkPreName = "时连后闻那这见叫问请对向和与同给把被让使令命替带拉看听告骂劝谢求教随跟陪扶拿送接找等留唤喊说道是了的因便又忙也都只却倒还乃遂方才将及并且若如于在往到从自至回进入出上下来去着过有无个位众与和同蒙"

// cjkTitles follow a name in address, or stand for a person alone;
// longer first. The sex is that of the person addressed ('m', 'f', 0).
var cjkTitles = []struct {
	t   string
	sex byte
}{
	{"老太太", 'f'}, {"老爷", 'm'}, {"太太", 'f'}, {"奶奶", 'f'}, {"姑娘", 'f'}, {"夫人", 'f'}, {"先生", 'm'}, {"大人", 'm'},
	{"小姐", 'f'}, {"公子", 'm'}, {"大爷", 'm'}, {"二爷", 'm'}, {"三爷", 'm'}, {"相公", 'm'}, {"娘子", 'f'}, {"哥哥", 'm'},
	{"姐姐", 'f'}, {"妹妹", 'f'}, {"兄弟", 'm'}, {"嫂子", 'f'}, {"姨妈", 'f'}, {"姨娘", 'f'}, {"姥姥", 'f'}, {"嬷嬷", 'f'},
	{"丫头", 'f'}, {"哥儿", 'm'}, {"姐儿", 'f'}, {"师父", 0}, {"师傅", 0}, {"长老", 'm'}, {"大王", 'm'}, {"将军", 'm'},
	{"元帅", 'm'}, {"天王", 'm'}, {"太子", 'm'}, {"公主", 'f'}, {"娘娘", 'f'}, {"菩萨", 0}, {"真人", 'm'}, {"真君", 'm'},
	{"大仙", 0}, {"大圣", 'm'}, {"老君", 'm'}, {"龙王", 'm'}, {"魔王", 'm'}, {"国王", 'm'}, {"皇帝", 'm'}, {"大帝", 'm'},
	{"和尚", 'm'}, {"道人", 'm'}, {"佛祖", 'm'}, {"法师", 'm'}, {"祖师", 'm'}, {"尊者", 'm'}, {"娘", 'f'}, {"姐", 'f'}, {"哥", 'm'},
	{"叔", 'm'}, {"婶", 'f'}, {"母", 'f'}, {"氏", 'f'}, {"爷", 'm'}, {"王", 'm'}, {"神", 0}, {"公", 'm'}, {"婆", 'f'},
	{"僧", 'm'},
}

// cjkKin are the titles of kinship: alone ("姐姐", "二爺") they address
// anyone of the family and name no one.
var cjkKin = map[string]bool{"姐姐": true, "妹妹": true, "哥哥": true, "兄弟": true, "嫂子": true, "姐": true, "哥": true, "叔": true, "婶": true, "娘": true, "母": true, "婆": true, "公": true, "爷": true, "大爷": true, "二爷": true, "三爷": true, "奶奶": true, "姨妈": true, "姨娘": true, "姑娘": true, "哥儿": true, "姐儿": true, "丫头": true, "娘子": true, "相公": true, "大人": true, "王": true, "神": true, "氏": true}

// cjkKinRoots are the characters of kinship by the mother or by
// marriage that a title of respect may follow (姨太太, 舅老爺) and a
// family name precede in a title of kinship (薛姨媽, 王舅舅): the
// family's aunt or uncle, whom either form names. Not 姑, which begins
// 姑娘 (a young lady).
const cjkKinRoots = "姨舅"

// cjkGeneration tells the generation a title of kinship or respect
// after a rank among siblings speaks to: 'y' the young of the house
// (寶二爺, 二哥哥, 尤三姐, 三姑娘), 'w' their wives (璉二奶奶, 大嫂子), 'e'
// their elders (二老爺, 二太太).
var cjkGeneration = map[string]byte{
	"爷": 'y', "大爷": 'y', "二爷": 'y', "三爷": 'y', "哥哥": 'y', "哥": 'y', "兄弟": 'y', "哥儿": 'y',
	"姑娘": 'y', "小姐": 'y', "姐姐": 'y', "姐": 'y', "妹妹": 'y', "丫头": 'y', "姐儿": 'y',
	"奶奶": 'w', "嫂子": 'w',
	"老爷": 'e', "太太": 'e', "老太太": 'e',
}

// siblingRank is the feature of a rank among siblings with a title of
// its generation ("sib:二:y"), or "" where the title tells none.
func siblingRank(rank rune, title string) string {
	g := cjkGeneration[title]
	if g == 0 {
		return ""
	}
	return "sib:" + string(rank) + ":" + string(g)
}

// cjkRulers are the titles of rulers, which follow the name of a realm
// (唐王) as readily as a family name (牛王).
var cjkRulers = map[string]bool{"王": true, "国王": true, "皇帝": true, "大帝": true, "天王": true, "龙王": true, "魔王": true, "大王": true}

// cjkPronouns are words that stand for people without naming them, and
// the conjunctions and adverbs that stand where a speaker would: closed
// classes.
var cjkPronouns = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("大家 二人 两人 三人 众人 他们 我们 你们 咱们 她们 自己 别人 人家 大伙 彼此 各人 诸位 列位 " +
		"如何 如此 如今 既如此 然后 倘或 半日 越发 一面 只见 原来 不想 忽然 因此 于是 所以 虽然 但是 可是 何必 何况 况且 果然 究竟 到底 登时 一时 少时 须臾 正是 便是 只是 还是 就是 不是 不知 不过") {
		m[w] = true
	}
	return m
}()

// cjkRanks stand between a name and a title ("寶二爺", "尤三姐").
const cjkRanks = "大二三四五六七八九十"

// cjkSurnames are the common family names (the Hundred Family Surnames'
// single characters, simplified).
const cjkSurnames = "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张孔曹严华金魏陶姜戚谢邹喻柏水窦章云苏潘葛奚范彭郎鲁韦昌马苗凤花方俞任袁柳酆鲍史唐费廉岑薛雷贺倪汤滕殷罗毕郝邬安常乐于时傅皮卞齐康伍余元卜顾孟平黄和穆萧尹姚邵湛汪祁毛禹狄米贝明臧计伏成戴谈宋茅庞熊纪舒屈项祝董梁杜阮蓝闵席季麻强贾路娄危江童颜郭梅盛林刁钟徐邱骆高夏蔡田樊胡凌霍虞万支柯昝管卢莫经房裘缪干解应宗丁宣贲邓郁单杭洪包诸左石崔吉钮龚程嵇邢滑裴陆荣翁荀羊於惠甄曲家封芮羿储靳汲邴糜松井段富巫乌焦巴弓牧隗山谷车侯宓蓬全郗班仰秋仲伊宫宁仇栾暴甘钭厉戎祖武符刘景詹束龙叶幸司韶郜黎蓟薄印宿白怀蒲邰从鄂索咸籍赖卓蔺屠蒙池乔阴胥能苍双闻莘党翟谭贡劳逄姬申扶堵冉宰郦雍却璩桑桂濮牛寿通边扈燕冀郏浦尚农温别庄晏柴瞿阎充慕连茹习宦艾鱼容向古易慎戈廖庾终暨居衡步都耿满弘匡国文寇广禄阙东欧殳沃利蔚越夔隆师巩厍聂晁勾敖融冷訾辛阚那简饶空曾毋沙乜养鞠须丰巢关蒯相查后荆红游竺权逯盖益桓公"

// cjkPlaceEnds end the names of places.
const cjkPlaceEnds = "府园山洞国寺庄城县河州江湖海宫殿院馆庵观庙楼亭堂斋轩桥关岭峰村镇岛巷街坡岗谷泉溪洲郡阁坊店营"

// cjkPlacePreps come before a place ("在", "往", "回").
const cjkPlacePreps = "在到往回至进入出离从奔投住过向自于"

// cjkCommon before or after a word mark a common noun: "一個婆子",
// "丫頭們", "眾和尚".
const (
	cjkClassifiers = "个位些众诸几各每两根条只块件张口匹对双座间"
	cjkPlural      = "们等辈"
	// A word right after a pronoun, or before an aspect particle, is a
	// verb ("他出來", "打發了"), not a name.
	cjkPronounChars = "他她我你咱您"
	cjkAspect       = "了着过"
)

var (
	cjkSpeechList    = runeListOf(cjkSpeech)
	cjkAdverbSet     = runeSetOf(cjkAdverbs)
	cjkVerbAdverbSet = runeSetOf(cjkVerbAdverbs)
	cjkFirstStopSet  = runeSetOf(cjkFirstStop)
	cjkInnerStopSet  = runeSetOf(cjkInnerStop)
	cjkPreNameSet    = runeSetOf(cjkPreName)
	cjkSurnameSet    = runeSetOf(cjkSurnames)
	cjkPlaceEndSet   = runeSetOf(cjkPlaceEnds)
	cjkPlacePrepSet  = runeSetOf(cjkPlacePreps)
	cjkClassifierSet = runeSetOf(cjkClassifiers)
	cjkPluralSet     = runeSetOf(cjkPlural)
	cjkPronounSet    = runeSetOf(cjkPronounChars)
	cjkAspectSet     = runeSetOf(cjkAspect)
	cjkRankSet       = runeSetOf(cjkRanks)
	cjkKinRootSet    = runeSetOf(cjkKinRoots)
	// cjkFollowSet are characters that follow a name as its clause goes
	// on; they tell nothing of where the name ends.
	cjkFollowSet = runeSetOf(cjkAdverbs + cjkInnerStop + "道说笑问听见叹答回哭喝骂叫喜怒惊嚷劝曰闻等来去进出坐走起站")
	cjkTitleList = func() *runeList {
		var ws []string
		for _, t := range cjkTitles {
			ws = append(ws, t.t)
		}
		return runeListOf(ws)
	}()
	cjkTitleSex = func() map[string]byte {
		m := map[string]byte{}
		for _, t := range cjkTitles {
			m[t.t] = t.sex
		}
		return m
	}()
)

// runeSet is textsearch.RuneSet under the package's lower-case names.
type runeSet struct{ textsearch.RuneSet }

func runeSetOf(s string) *runeSet { return &runeSet{*textsearch.RuneSetOf(s)} }

func (m *runeSet) has(r rune) bool { return m.Has(r) }

// runeList is a list of words as runes, longest first, with the
// characters that begin and end them: most characters of a book begin
// none of the words looked for there, and the sets answer so at once
// (a set holds the Basic Multilingual Plane only: a character past it,
// as some simplified ones are, 𬞟 of 蠙, goes on to the words).
type runeList struct {
	words       [][]rune
	first, last runeSet
}

func runeListOf(ws []string) *runeList {
	l := &runeList{}
	for _, w := range ws {
		rs := []rune(w)
		l.words = append(l.words, rs)
		l.first.Add(rs[0])
		l.last.Add(rs[len(rs)-1])
	}
	slices.SortStableFunc(l.words, func(a, b []rune) int { return len(b) - len(a) })
	return l
}

// prefix returns the length of the longest word rs starts with, or 0.
func (l *runeList) prefix(rs []rune) int {
	if len(rs) == 0 || !maybeIn(&l.first, rs[0]) {
		return 0
	}
	for _, w := range l.words {
		if len(rs) >= len(w) && slices.Equal(rs[:len(w)], w) {
			return len(w)
		}
	}
	return 0
}

// suffix returns the length of the longest word rs ends with, or 0.
func (l *runeList) suffix(rs []rune) int {
	if len(rs) == 0 || !maybeIn(&l.last, rs[len(rs)-1]) {
		return 0
	}
	for _, w := range l.words {
		if len(rs) >= len(w) && slices.Equal(rs[len(rs)-len(w):], w) {
			return len(w)
		}
	}
	return 0
}

// maybeIn reports whether r may be in m: a character past the Basic
// Multilingual Plane, which a runeSet cannot hold, may be.
func maybeIn(m *runeSet, r rune) bool { return r >= 1<<16 || m.has(r) }

// cjkBreak reports whether r ends a run of text before a name:
// punctuation, a quotation mark, a line break, anything not CJK.
func cjkBreak(r rune) bool { return !textsearch.IsCJK(r) }

// cjkChapter is a chapter folded to simplified characters, rune for
// rune, with the original runes beside.
type cjkChapter struct {
	folded, orig []rune
	para         []int32 // paragraph of each rune
}

// cjkCand is what the cues say of a candidate name.
type cjkCand struct {
	speak, title, loc int // cue counts
	// titled counts the name standing before a title of address
	// ("觀音" of "觀音菩薩"): the name part of a titled form, two
	// characters at least.
	titled    int
	alone     int // standing alone in text of another script
	named     int // given as a name ("法名悟淨。")
	called    int // called at the start of speech ("：「御弟，")
	n         int // occurrences anywhere
	common    int // after a classifier or before a plural
	verb      int // after a pronoun or before an aspect particle
	cleanLeft int // after punctuation or a function word
	// enum counts the run as the second or a later item of a count
	// ("一來…，二來…", firstly … secondly).
	enum        int
	left, right map[rune]int32
}

const maxCJKName = 5

// extractCJK finds the name forms of Chinese text and their mentions.
// In a book mostly of another script (minority), a Chinese word standing
// alone in that text is a candidate name too: the cues of Chinese prose
// (speech verbs, titles) are not there.
func extractCJK(ctx context.Context, chapters []Chapter, folder *textsearch.Folder, minority bool) (*extraction, error) {
	chs := make([]cjkChapter, len(chapters))
	for ci, ch := range chapters {
		text := ch.Text
		if first, rest, ok := strings.Cut(text, "\n"); ok && isCJKHeading(first) {
			text = strings.Repeat("\n", 1) + rest
		}
		var c cjkChapter
		c.orig = []rune(text)
		c.folded = make([]rune, len(c.orig))
		c.para = make([]int32, len(c.orig))
		var para int32
		for i, r := range c.orig {
			c.folded[i] = folder.FoldRune(r)
			if r == '\n' {
				para++
			}
			c.para[i] = para
		}
		chs[ci] = c
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("suggest entities: %w", err)
	}
	cands := map[string]*cjkCand{}
	get := func(rs []rune) *cjkCand {
		k := string(rs)
		c := cands[k]
		if c == nil {
			c = &cjkCand{}
			cands[k] = c
		}
		return c
	}
	clean := func(rs []rune, i int) bool { return i < 0 || cjkBreak(rs[i]) || cjkPreNameSet.has(rs[i]) }
	nameRunes := func(rs []rune) bool {
		if !textsearch.IsCJK(rs[0]) || cjkFirstStopSet.has(rs[0]) {
			return false
		}
		for _, r := range rs[1:] {
			if !textsearch.IsCJK(r) || cjkInnerStopSet.has(r) {
				return false
			}
		}
		return true
	}
	for ci := range chs {
		rs := chs[ci].folded
		for i := 0; i < len(rs); i++ {
			// A name the text gives, ending its clause: "取個法名，叫做
			// 豬悟能。", "字宮裁。".
			if n := cjkNamingStrong.prefix(rs[i:]); n > 0 {
				j := i + cjkNamingLen(rs[i:])
				e := j
				for e < len(rs) && e < j+5 && textsearch.IsCJK(rs[e]) {
					e++
				}
				if m := e - j; m >= 2 && m <= 4 && (e == len(rs) || !textsearch.IsCJK(rs[e])) && nameRunes(rs[j:e]) {
					get(rs[j:e]).named++
				}
			}
			if !textsearch.IsCJK(rs[i]) {
				continue
			}
			// Someone called at the start of speech: "唐王道：「御弟，…」".
			if i >= 2 && openQuote(rs[i-1]) && (rs[i-2] == '：' || rs[i-2] == ':') {
				for n := 2; n <= 4 && i+n < len(rs); n++ {
					if !textsearch.IsCJK(rs[i+n-1]) {
						break
					}
					if strings.ContainsRune("，,！!", rs[i+n]) && nameRunes(rs[i:i+n]) {
						get(rs[i:i+n]).called++
					}
				}
			}
			// A name in text of another script: "Then 李明 came in."
			if minority && (i == 0 || inLatinText(rs[i-1])) {
				j := i
				for j < len(rs) && textsearch.IsCJK(rs[j]) {
					j++
				}
				if n := j - i; n >= 2 && n <= 4 && (j == len(rs) || inLatinText(rs[j])) && nameRunes(rs[i:j]) {
					get(rs[i:j]).alone++
				}
			}
			// A speaker: "，寶玉笑道", "那八戒便道".
			if n := cjkSpeechList.prefix(rs[i:]); n > 0 {
				p := i
				for k := 0; k < 2 && p > 0 && cjkAdverbSet.has(rs[p-1]); k++ {
					p--
				}
				for n := 2; n <= maxCJKName && p-n >= 0; n++ {
					s := rs[p-n : p]
					if !textsearch.IsCJK(s[0]) {
						break
					}
					// After an aspect particle the run is what was done
					// to, not who speaks: "收了鐵棒道" (put away the
					// staff, and said), "見了寶玉道" is said by another.
					if nameRunes(s) && clean(rs, p-n-1) && (p-n-1 < 0 || !cjkAspectSet.has(rs[p-n-1])) {
						get(s).speak++
					}
				}
				i += n - 1
				continue
			}
			// A form of address: "林姑娘", "寶二爺".
			if n := cjkTitleList.prefix(rs[i:]); n > 0 && n >= 2 {
				for k := 1; k <= 3 && i-k >= 0; k++ {
					s := rs[i-k : i+n]
					if !textsearch.IsCJK(s[0]) {
						break
					}
					if nameRunes(s[:k]) && clean(rs, i-k-1) {
						get(s).title++
						// The name itself: "觀音" of "觀音菩薩", "玉皇"
						// of "玉皇大帝".
						if nameBeforeTitle(s[:k]) {
							get(s[:k]).titled++
						}
					}
				}
			}
			// A place: "往大觀園來", "回榮府".
			if cjkPlacePrepSet.has(rs[i]) {
				for n := 2; n <= maxCJKName && i+1+n <= len(rs); n++ {
					s := rs[i+1 : i+1+n]
					if !textsearch.IsCJK(s[n-1]) || !nameRunes(s) {
						break
					}
					if cjkPlaceEndSet.has(s[n-1]) {
						get(s).loc++
					}
				}
			}
		}
	}
	// Keep the candidates the cues name often enough, then count them
	// everywhere with their neighbours.
	for k, c := range cands {
		if c.speak < 2 && c.title < 3 && c.titled < 3 && c.loc < 2 && c.alone < 3 && c.named < 1 && c.called < minCalled {
			delete(cands, k)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("suggest entities: %w", err)
	}
	idx := newCJKIndex(cands)
	for ci := range chs {
		rs := chs[ci].folded
		for i := 0; i+1 < len(rs); i++ {
			for _, k := range idx.at(rs, i) {
				c := cands[k.s]
				c.n++
				if enumeratedAt(rs, chs[ci].para, i, k.rs) {
					c.enum++
				}
				if c.left == nil {
					c.left, c.right = map[rune]int32{}, map[rune]int32{}
				}
				if i > 0 {
					l := rs[i-1]
					c.left[l]++
					switch {
					case cjkClassifierSet.has(l):
						c.common++
					case cjkPronounSet.has(l) && !kinAddress(k.rs):
						// "你寶姐姐" (your cousin Bao) is a form of
						// address, not a verb after its subject.
						c.verb++
					}
					if cjkBreak(l) || cjkPreNameSet.has(l) {
						c.cleanLeft++
					}
				} else {
					c.cleanLeft++
				}
				if e := i + k.n; e < len(rs) {
					r := rs[e]
					// A name before its title ("觀世音" before 菩薩)
					// is no fragment of a longer word: what follows
					// it then tells nothing of where it ends.
					if t := cjkTitleList.prefix(rs[e:]); t < 2 || !titledName(k.rs, rs[e:e+t]) {
						c.right[r]++
					}
					switch {
					case r == '等' && cjkSurnameSet.has(k.rs[0]):
						// "賈赦等" (Jia She and the others): a full
						// name heads a list; "婆子等" is a plural.
					case cjkPluralSet.has(r):
						c.common++
					case cjkAspectSet.has(r):
						c.verb++
					}
				}
			}
		}
	}
	accepted := map[string]*cjkCand{}
	for k, c := range cands {
		if cjkValid(k, c) {
			accepted[k] = c
		}
	}
	// A name only given by the text ("叫做月牙鏟" names a weapon too) is
	// kept where it holds a name found otherwise, or is held by one: the
	// fuller name of someone known (豬悟能 of 悟能).
	var named []string
	for k, c := range accepted {
		if onlyNamed(c) {
			named = append(named, k)
		}
	}
	for _, k := range named {
		keep := false
		for o, c := range accepted {
			if o != k && !onlyNamed(c) && (strings.Contains(k, o) || strings.Contains(o, k)) {
				keep = true
				break
			}
		}
		if !keep {
			delete(accepted, k)
		}
	}
	surnames := cjkDeclaredSurnames(chs)
	// A family name before an accepted given name ("賈寶玉" beside "寶
	// 玉"; "豬八戒" where the book says 我姓豬) is the full name, however
	// seldom it speaks.
	family := familyChars(chs, accepted, surnames)
	full := map[string]*cjkCand{}
	for k := range accepted {
		rs := []rune(k)
		// Not a name found only before a title: the character before
		// 觀音 in "幸觀音菩薩" (fortunately, Guanyin) is no family name.
		if len(rs) != 2 || cjkTitleList.suffix(rs) > 0 || onlyTitled(accepted[k]) {
			continue
		}
		for l, n := range accepted[k].left {
			if n >= 2 && family[l] && !cjkPreNameSet.has(l) && !cjkFirstStopSet.has(l) {
				fk := string(l) + k
				if _, ok := accepted[fk]; !ok {
					full[fk] = &cjkCand{}
				}
			}
		}
	}
	// Count them, and keep those that begin where a name may begin.
	fidx := newCJKIndex(full)
	for ci := range chs {
		rs := chs[ci].folded
		for i := 0; i+1 < len(rs); i++ {
			for _, k := range fidx.at(rs, i) {
				c := full[k.s]
				c.n++
				if i == 0 || cjkBreak(rs[i-1]) || cjkPreNameSet.has(rs[i-1]) || namedAt(rs, i) {
					c.cleanLeft++
				}
			}
		}
	}
	for k, c := range full {
		if c.n >= 2 && 2*c.cleanLeft >= c.n {
			accepted[k] = c
		}
	}
	// A candidate that is an accepted name and one more character, far
	// rarer, is that name in a phrase ("見寶玉"); not so a family name
	// before a given name ("賈寶玉").
	var drop []string
	for k, c := range accepted {
		rs := []rune(k)
		if len(rs) < 3 {
			continue
		}
		if cjkPhrase(rs, c, accepted) {
			drop = append(drop, k)
		}
	}
	for _, k := range drop {
		delete(accepted, k)
	}
	// A name found only before a title is kept where that name with its
	// title is itself a name: "觀音" of "觀音菩薩", not "遞與" of "遞與師
	// 父" (handed to the master), whose titled run is a phrase.
	var titledOnly []string
	for k, c := range accepted {
		if onlyTitled(c) {
			titledOnly = append(titledOnly, k)
		}
	}
	for _, k := range titledOnly {
		keep := false
		for o := range accepted {
			if strings.HasPrefix(o, k) && len(o) > len(k) && titledName([]rune(k), []rune(o[len(k):])) {
				keep = true
				break
			}
		}
		if !keep {
			delete(accepted, k)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("suggest entities: %w", err)
	}
	// What follows a name right after it is what the person does
	// ("行者掣鐵棒", "大聖吩咐"): a run that mostly comes right after an
	// accepted name is a predicate.
	after := map[string]int{}
	total := map[string]int{}
	aidx := newCJKIndex(accepted)
	for ci := range chs {
		rs := chs[ci].folded
		prevEnd := -1
		for i := 0; i+1 < len(rs); {
			ks := aidx.at(rs, i)
			if len(ks) == 0 {
				i++
				continue
			}
			k := ks[0]
			total[k.s]++
			// Adverbs may stand between ("行者即忙吩咐").
			j := i
			for j > 0 && j > prevEnd && j > i-2 && cjkAdverbSet.has(rs[j-1]) {
				j--
			}
			if prevEnd == j {
				after[k.s]++
			}
			prevEnd = i + k.n
			i += k.n
		}
	}
	for k := range accepted {
		if t := total[k]; t > 0 && float64(after[k]) >= 0.3*float64(t) && cjkTitleList.suffix([]rune(k)) == 0 {
			delete(accepted, k)
		}
	}
	return cjkMentions(chs, accepted, surnames), nil
}

// A character of the family names is a word as well (幸, fortunately;
// 和, and): the book uses it as a family name where names follow it
// often. Before a name of its own it is one where a tenth of its uses at
// least begin a name the book has found (賈 of 賈母) or stand before one
// (豬 of 八戒); 幸, 2 uses in 157 before 如來 and 2 before 觀音, makes no
// 幸如來.
const minFamilyShare = 0.1

// familyChars returns the family names of the book (surnames) that
// begin or stand before an accepted name in minFamilyShare of their uses.
func familyChars(chs []cjkChapter, accepted map[string]*cjkCand, surnames bookSurnames) map[rune]bool {
	before := map[rune]int{}
	for k, c := range accepted {
		for l, n := range c.left {
			if surnames.has(l) {
				before[l] += int(n)
			}
		}
		// The name may hold it (賈母, 唐僧).
		if r, _ := utf8.DecodeRuneInString(k); surnames.has(r) {
			before[r] += c.n
		}
	}
	uses := make(map[rune]int, len(before))
	for r := range before {
		uses[r] = 0
	}
	for ci := range chs {
		for _, r := range chs[ci].folded {
			if n, ok := uses[r]; ok {
				uses[r] = n + 1
			}
		}
	}
	out := map[rune]bool{}
	for r, n := range before {
		if float64(n) >= minFamilyShare*float64(uses[r]) {
			out[r] = true
		}
	}
	return out
}

// kinAddress reports whether rs is a name and a title of kinship (寶姐姐,
// 林妹妹), which a possessive pronoun may precede.
func kinAddress(rs []rune) bool {
	n := cjkTitleList.suffix(rs)
	return n > 0 && n < len(rs) && cjkKin[string(rs[len(rs)-n:])]
}

// namedAt reports whether a name may begin at i for what stands before
// it: a naming word ("法名陳玄奘", "叫做陳玄奘") or a speaker's humble word
// for themself ("弟子陳玄奘", "貧僧陳玄奘").
func namedAt(rs []rune, i int) bool {
	for n := 2; n <= 4 && n <= i; n++ {
		w := rs[i-n : i]
		if cjkNamingStrong.prefix(w) == n || cjkSelfWords.prefix(w) == n {
			return true
		}
	}
	return false
}

// onlyNamed reports whether the text gives a candidate as a name and no
// other cue (speech, address, place) finds it.
func onlyNamed(c *cjkCand) bool {
	return c.named > 0 && c.speak < 2 && c.title < 3 && c.titled < 3 && c.loc < 2 && c.alone < 3 && c.called < minCalled
}

// titledName reports whether title t after x makes x a name with its
// title: t is the whole title the run ends with (not 倘或老 of 倘或老太太,
// where 老太太 is the title) and x ends in no word that comes before a
// person (遞與師父, handed to the master).
func titledName(x, t []rune) bool {
	rs := append(slices.Clip(x), t...)
	return cjkTitleList.prefix(t) == len(t) && cjkTitleList.suffix(rs) == len(t) && !cjkPreNameSet.has(x[len(x)-1])
}

// nameBeforeTitle reports whether x, written before a title, may be a
// name of its own: two characters at least ("觀音" of "觀音菩薩"), not
// ending in a rank among siblings (史大 of 史大妹妹, 璉二 of 璉二奶奶)
// nor in a title itself (哥兒 of 哥兒姐兒).
func nameBeforeTitle(x []rune) bool {
	return len(x) >= 2 && !cjkRankSet.has(x[len(x)-1]) && cjkTitleList.suffix(x) == 0
}

// onlyTitled reports whether a candidate's one cue is standing before a
// title.
func onlyTitled(c *cjkCand) bool {
	return c.titled >= 3 && c.speak < 2 && c.title < 3 && c.loc < 2 && c.alone < 3 && c.named < 1 && c.called < minCalled
}

// onlyCalled reports whether a candidate's one cue is being called at the
// start of speech.
func onlyCalled(c *cjkCand) bool {
	return c != nil && c.called >= minCalled && c.speak < 2 && c.title < 3 && c.titled < 3 && c.loc < 2 && c.alone < 3 && c.named < 1
}

// minCalled is how often a word must be called at the start of speech
// to be taken for a name or a form of address.
const minCalled = 3

// inLatinText reports whether r belongs to text of an alphabetic script
// around a Chinese word: a space, an ASCII character, a letter not CJK.
// Chinese punctuation does not: a short clause between two commas is no
// name.
func inLatinText(r rune) bool {
	return r < 0x80 || unicode.IsSpace(r) || unicode.IsLetter(r) && !textsearch.IsCJK(r)
}

// isCJKHeading reports whether a first line is a chapter heading ("第一回
// …"): it ends no sentence.
func isCJKHeading(line string) bool {
	line = strings.TrimSpace(line)
	if line == "" || len(line) > 200 {
		return line == ""
	}
	return !strings.ContainsAny(line, "。．！？”：")
}

// cjkPhrase reports whether a candidate is an accepted name in a phrase
// rather than a name: a function word or a verb before it ("見紫鵑"), a
// far rarer run with a character before or after ("見寶玉", "寶玉答應"),
// two names side by side ("平兒襲人").
func cjkPhrase(rs []rune, c *cjkCand, accepted map[string]*cjkCand) bool {
	n := len(rs)
	titled := cjkTitleList.suffix(rs) > 0
	for a := 1; a < n-1; a++ {
		head, tail := accepted[string(rs[:a])], accepted[string(rs[a:])]
		if a >= 2 && head != nil && tail != nil && !titled {
			return true
		}
		if a == 1 && tail != nil && (cjkPreNameSet.has(rs[0]) || tail.n >= 10*c.n && !cjkSurnameSet.has(rs[0])) {
			return true
		}
		if a >= 2 && tail != nil && tail.n >= 10*c.n && !titled {
			return true // "遞與行者"
		}
	}
	// A name and a place's ending that one goes to is a place named
	// after someone (觀音院, the Guanyin temple), however often the
	// name is used alone.
	place := cjkPlaceEndSet.has(rs[n-1]) && c.loc >= 2
	for a := 2; a < n; a++ {
		if head := accepted[string(rs[:a])]; head != nil && head.n >= 5*c.n && !titled && !place && rs[n-1] != '儿' {
			return true
		}
	}
	return false
}

// A count ("一來…，二來…", firstly … secondly; "一則…二則…") numbers
// its items with a numeral and the same word: the second item (二來),
// which a rank among siblings before a word (二郎, 三藏) would make a
// name, is an item wherever the first (一來) stands a little before it
// in the paragraph, in half its uses at least.
const (
	enumReach = 60 // characters before the item where the first may stand
	enumShare = 0.5
)

// cjkNumerals are the numerals of a count's items after the first;
// cjkCountWords the words after a numeral that number items, which a
// count may mix (一則…，二來…).
const (
	cjkNumerals   = "二三四五六七八九"
	cjkCountWords = "则来者"
)

var cjkCountWordSet = runeSetOf(cjkCountWords)

// enumeratedAt reports whether the run rs at i is an item of a count
// after the first: a numeral and one character (二來), the same character
// after 一 or the numeral before this one (三來 after 二來), or for a word
// of counting another one (一則 before 二來), within enumReach characters
// before it in its paragraph.
func enumeratedAt(text []rune, para []int32, i int, rs []rune) bool {
	if len(rs) != 2 {
		return false
	}
	d := strings.IndexRune(cjkNumerals, rs[0])
	if d < 0 {
		return false
	}
	// The numeral before this one: d is a byte offset, three a numeral.
	prev := []rune("一" + cjkNumerals)[d/3]
	for j := i - 2; j >= 0 && j >= i-enumReach && para[j] == para[i]; j-- {
		same := text[j+1] == rs[1] || cjkCountWordSet.has(rs[1]) && cjkCountWordSet.has(text[j+1])
		if same && (text[j] == prev || text[j] == '一') {
			return true
		}
	}
	return false
}

// cjkSeatEnds end a place that is a seat of government (江州, 府城): a
// place word before them may be its name.
const cjkSeatEnds = "州县郡国城镇村"

var cjkSeatEndSet = runeSetOf(cjkSeatEnds)

// genericPlace reports whether a run of two characters is two place
// words (山坡, the slope of a hill; 宮殿, 海島, 城樓): a kind of place,
// no name, unless it ends in the seat of a government (江州).
func genericPlace(rs []rune) bool {
	return len(rs) == 2 && cjkPlaceEndSet.has(rs[0]) && cjkPlaceEndSet.has(rs[1]) && !cjkSeatEndSet.has(rs[1])
}

// cjkValid judges a candidate by its counts: frequent enough, not mostly
// part of a longer run of characters on either side, not a common noun.
func cjkValid(k string, c *cjkCand) bool {
	if c.n < 5 {
		return false
	}
	if float64(c.enum) >= enumShare*float64(c.n) || genericPlace([]rune(k)) {
		return false
	}
	// One use as a common noun or a verb is no evidence against a rare
	// name: 薛大爺 is used 11 times, one of them after 你.
	// A name of two characters or more with a title is one person's
	// title, which one may be made ("封他做個齊天大聖"): a classifier
	// before it tells less than before a bare word (一個婆子).
	commonShare := 0.08
	if t := cjkTitleList.suffix([]rune(k)); t > 0 && len([]rune(k))-t >= 2 {
		commonShare = 0.2
	}
	if c.common >= 2 && float64(c.common) >= commonShare*float64(c.n) || c.verb >= 2 && float64(c.verb) >= 0.05*float64(c.n) || float64(c.cleanLeft) < 0.3*float64(c.n) {
		return false
	}
	if cjkPronouns[k] || lexicon.IsChineseVerb(k) {
		return false
	}
	adv := 0
	for r, n := range c.left {
		if cjkVerbAdverbSet.has(r) {
			adv += int(n)
		}
	}
	if adv >= 2 && float64(adv) > verbAdverbShare*float64(c.n) {
		return false
	}
	for r, n := range c.left {
		if cjkBreak(r) || cjkPreNameSet.has(r) || cjkFirstStopSet.has(r) {
			continue
		}
		if float64(n) > 0.6*float64(c.n) {
			return false
		}
	}
	for r, n := range c.right {
		if cjkBreak(r) || r == '道' || r == '说' || r == '曰' {
			continue
		}
		if float64(n) > 0.6*float64(c.n) && !cjkFollowSet.has(r) {
			return false
		}
		// A name is followed by what its bearer does, which varies
		// where the bearer does not speak; a run followed by one verb
		// nearly always, speaking or not, is the head of a phrase ("厲
		// 聲高" of 厲聲高叫, "呵呵大" of 呵呵大笑). Not so a name
		// before 的 ("周瑞家的", Zhou Rui's wife), nor a place one goes
		// to ("往大觀園來").
		if rest := c.n - c.speak; r != '的' && c.loc == 0 && rest >= 10 && float64(int(n)-c.speak) > 0.85*float64(rest) {
			return false
		}
	}
	return true
}

// cjkIndex finds the candidates that start at a position: keyed by their
// first two characters.
type cjkIndex struct {
	by    map[[2]rune][]cjkKey
	first runeSet // the first characters of the keys, asked before the map
}

type cjkKey struct {
	s  string
	rs []rune
	n  int
}

func newCJKIndex[V any](m map[string]V) *cjkIndex {
	x := &cjkIndex{by: map[[2]rune][]cjkKey{}}
	for k := range m {
		rs := []rune(k)
		if len(rs) < 2 {
			continue
		}
		b := [2]rune{rs[0], rs[1]}
		x.by[b] = append(x.by[b], cjkKey{s: k, rs: rs, n: len(rs)})
		x.first.Add(rs[0])
	}
	for b, ks := range x.by {
		slices.SortFunc(ks, func(a, c cjkKey) int {
			if a.n != c.n {
				return c.n - a.n
			}
			return strings.Compare(a.s, c.s)
		})
		x.by[b] = ks
	}
	return x
}

// at returns the candidates that rs holds at i, longest first.
func (x *cjkIndex) at(rs []rune, i int) []cjkKey {
	if i+1 >= len(rs) || !maybeIn(&x.first, rs[i]) {
		return nil
	}
	ks := x.by[[2]rune{rs[i], rs[i+1]}]
	if len(ks) == 0 {
		return nil
	}
	var out []cjkKey
	for _, k := range ks {
		if i+k.n <= len(rs) && slices.Equal(rs[i:i+k.n], k.rs) {
			out = append(out, k)
		}
	}
	return out
}

// cjkMentions reads every mention of the accepted names (leftmost,
// longest) and builds their forms.
func cjkMentions(chs []cjkChapter, accepted map[string]*cjkCand, surnames bookSurnames) *extraction {
	ex := &extraction{window: 200, fuller: cjkFuller, surnames: surnames}
	realms := cjkRealms(chs)
	idx := newCJKIndex(accepted)
	byKey := map[string]int32{}
	surface := map[int32]map[string]int{}
	for ci := range chs {
		rs := chs[ci].folded
		for i := 0; i+1 < len(rs); {
			ks := idx.at(rs, i)
			if len(ks) == 0 {
				i++
				continue
			}
			k := ks[0]
			fi, ok := byKey[k.s]
			if !ok {
				fi = int32(len(ex.forms))
				byKey[k.s] = fi
				ex.forms = append(ex.forms, cjkForm(k.rs, accepted[k.s], realms, surnames))
				surface[fi] = map[string]int{}
			}
			f := ex.forms[fi]
			f.count++
			surface[fi][string(chs[ci].orig[i:i+k.n])]++
			if i > 0 && cjkPlacePrepSet.has(rs[i-1]) {
				f.loc++
			}
			if i+k.n < len(rs) && cjkSpeechList.prefix(rs[i+k.n:]) > 0 {
				f.person++
			}

			ex.stream = append(ex.stream, mention{chap: int32(ci), pos: int32(i), para: chs[ci].para[i], form: fi})
			i += k.n
		}
	}
	for fi, f := range ex.forms {
		best, bc := f.text, 0
		for s, c := range surface[int32(fi)] {
			if c > bc || c == bc && s < best {
				best, bc = s, c
			}
		}
		f.text = best
	}
	ex.links = append(cjkNamingLinks(chs, ex), cjkVocativeLinks(chs, ex)...)
	ex.links = append(ex.links, cjkSelfNamingLinks(chs, ex)...)
	ex.links = append(ex.links, cjkTitleLinks(chs, ex)...)
	ex.links = append(ex.links, cjkEpithetLinks(chs, ex)...)
	placed := cjkPlaceTitleCounts(chs, ex)
	ex.relink = func(r *resolution) [][2]int32 { return placeTitleLinks(placed, r) }
	ex.links = append(ex.links, cjkAbbreviationLinks(ex, surnames)...)
	// A word only ever called at the start of speech ("爺爺，", "萬歲！")
	// is a form of address: it names someone only where the calls are
	// answered by one person, which links it.
	linked := map[int32]bool{}
	for _, l := range ex.links {
		linked[l[0]], linked[l[1]] = true, true
	}
	for k, fi := range byKey {
		if onlyCalled(accepted[k]) && !linked[fi] {
			ex.forms[fi].drop = true
		}
	}
	return ex
}

// Who answers when someone is called: a form that opens a speech as the
// word it calls to ("「獃子，…」") names the one who speaks next ("八戒
// 道") when the book, over many such calls, has one form answer most of
// them. A title several people are called by (大王, 陛下, 師父 of a
// master and his disciples' master) is answered by several and links
// nothing.
const (
	minVocatives   = 8   // calls with an answer, at least
	vocativeShare  = 0.6 // the share of them one form answers
	vocativeReach  = 400 // how far the closing quotation mark may be
	vocativeAnswer = 3   // characters between the closing mark and the answer
)

// cjkVocativeLinks links a form called at the start of speech to the
// form that answers it, where one form answers most of its calls.
func cjkVocativeLinks(chs []cjkChapter, ex *extraction) [][2]int32 {
	type pair [2]int32
	answers := map[pair]int{}
	calls := map[int32]int{}
	for k, m := range ex.stream {
		rs := chs[m.chap].folded
		n := utf8.RuneCountInString(ex.forms[m.form].text)
		p, e := int(m.pos), int(m.pos)+n
		if p < 2 || e >= len(rs) || !openQuote(rs[p-1]) || !strings.ContainsRune("：:", rs[p-2]) || !strings.ContainsRune("，,！!。？?、．", rs[e]) {
			continue
		}
		end := -1
		for j := e; j < len(rs) && j < e+vocativeReach; j++ {
			if closeQuote(rs[j]) {
				end = j
				break
			}
			if openQuote(rs[j]) {
				break
			}
		}
		if end < 0 {
			continue
		}
		for j := k + 1; j < len(ex.stream); j++ {
			o := ex.stream[j]
			if o.chap != m.chap || int(o.pos) <= end {
				continue
			}
			if int(o.pos) > end+1+vocativeAnswer {
				break
			}
			oe := int(o.pos) + utf8.RuneCountInString(ex.forms[o.form].text)
			for oe < len(rs) && oe < int(o.pos)+utf8.RuneCountInString(ex.forms[o.form].text)+2 && cjkAdverbSet.has(rs[oe]) {
				oe++
			}
			if oe < len(rs) && cjkSpeechList.prefix(rs[oe:]) > 0 {
				calls[m.form]++
				answers[pair{m.form, o.form}]++
			}
			break
		}
	}
	var out [][2]int32
	for p, n := range answers {
		if p[0] != p[1] && calls[p[0]] >= minVocatives && float64(n) >= vocativeShare*float64(calls[p[0]]) {
			out = append(out, [2]int32{p[0], p[1]})
		}
	}
	sortPairs(out)
	return out
}

// A title that stands alone for someone (老太太) is spoken of, and to,
// in the speech of others; the one who speaks right after such speech
// is most often the one it is about or spoken to. Where one speaker
// answers the title's speech two and a half times as often as any other,
// and three times as often as that speaker speaks after speech in
// general, the title is that speaker's.
//
// So too a word the book uses almost only in speech (老祖宗, said 81
// times, all in quotes): a way of addressing or speaking of someone, not
// a name the narrator uses. Its answers are counted the same way; it is
// taken for the one answering speaker on fewer of them, as it is no
// common title that many hold, but only where that speaker answers most
// of them.
const (
	minTitleAnswers   = 20
	minAddressAnswers = 12
	titleMargin       = 2.5 // over the second speaker
	titleLift         = 3   // over the speaker's share of all answers
	// addressInSpeech is the share of a form's mentions inside quotes
	// that makes it a word of address.
	addressInSpeech = 0.9
)

// cjkTitleLinks links a title standing alone to the speaker who answers
// the speech that holds it, where one speaker clearly does.
func cjkTitleLinks(chs []cjkChapter, ex *extraction) [][2]int32 {
	type pair [2]int32
	answers := map[pair]int{}
	calls := map[int32]int{}
	spoke := map[int32]int{}
	total := 0
	var inQuote []int32
	// quoted counts each form's mentions inside quotes.
	quoted := make([]int, len(ex.forms))
	k := 0
	for ci := range chs {
		rs := chs[ci].folded
		// The mentions of this chapter are ex.stream[k:kEnd].
		kEnd := k
		for kEnd < len(ex.stream) && int(ex.stream[kEnd].chap) == ci {
			kEnd++
		}
		j := k
		for p := 0; p < len(rs); p++ {
			if !openQuote(rs[p]) {
				continue
			}
			end := -1
			for q := p + 1; q < len(rs) && q < p+vocativeReach; q++ {
				if closeQuote(rs[q]) {
					end = q
					break
				}
				if openQuote(rs[q]) {
					break
				}
			}
			if end < 0 {
				continue
			}
			inQuote = inQuote[:0]
			for j < kEnd && int(ex.stream[j].pos) < p {
				j++
			}
			for ; j < kEnd && int(ex.stream[j].pos) < end; j++ {
				fi := ex.stream[j].form
				quoted[fi]++
				if !ex.forms[fi].drop && !slices.Contains(inQuote, fi) {
					inQuote = append(inQuote, fi)
				}
			}
			if j < kEnd {
				if who := speakerAt(rs, ex, ex.stream[j], end); who >= 0 {
					total++
					spoke[who]++
					for _, t := range inQuote {
						calls[t]++
						answers[pair{t, who}]++
					}
				}
			}
			p = end
		}
		k = kEnd
	}
	var out [][2]int32
	for t, n := range calls {
		f := ex.forms[t]
		switch {
		case f.votesOnly:
			if n < minTitleAnswers {
				continue
			}
		case f.count > 0 && float64(quoted[t]) >= addressInSpeech*float64(f.count):
			if n < minAddressAnswers {
				continue
			}
		default:
			continue
		}
		first, second := int32(-1), 0
		for p, a := range answers {
			if p[0] != t {
				continue
			}
			switch {
			case first < 0 || a > answers[pair{t, first}] || a == answers[pair{t, first}] && p[1] < first:
				if first >= 0 {
					second = max(second, answers[pair{t, first}])
				}
				first = p[1]
			default:
				second = max(second, a)
			}
		}
		a := answers[pair{t, first}]
		// A word of address is one person's where that person answers
		// most of it, as with calls (vocativeShare): 賢弟 (worthy
		// brother), said to any younger man, is answered by several.
		if !f.votesOnly && float64(a) < vocativeShare*float64(n) {
			continue
		}
		if first < 0 || first == t || float64(a) < titleMargin*float64(second) || float64(a)*float64(total) < titleLift*float64(n)*float64(spoke[first]) {
			continue
		}
		out = append(out, [2]int32{t, first})
	}
	sortPairs(out)
	return out
}

// speakerAt returns the form of mention m when it speaks right after a
// closing quotation mark at end ("」賈母笑道"), else -1.
func speakerAt(rs []rune, ex *extraction, m mention, end int) int32 {
	if int(m.pos) <= end || int(m.pos) > end+1+vocativeAnswer {
		return -1
	}
	e := int(m.pos) + utf8.RuneCountInString(ex.forms[m.form].text)
	for n := 0; n < 2 && e < len(rs) && cjkAdverbSet.has(rs[e]); n++ {
		e++
	}
	if e < len(rs) && cjkSpeechList.prefix(rs[e:]) > 0 {
		return m.form
	}
	return -1
}

func openQuote(r rune) bool { return r == '「' || r == '“' || r == '『' }

// closeQuote takes the straight mark for a closing one: some editions
// close a third of their speeches so (紅樓夢: “…？"寶玉道), and a scan
// that missed it ran on to the next speech's close and its speaker. It
// opens nothing: where it opens, the text has no curly mark before it.
func closeQuote(r rune) bool { return r == '」' || r == '”' || r == '』' || r == '"' }

// cjkNaming are the words by which a text says one name is another name
// of the same person: "將悟空叫做行者", "林黛玉，字顰顰", "姓孫，法名悟空"
// is not one (a family name is no name of its own). Folded forms. The
// strong ones name for sure (",字": text is folded, the comma too); the weak ones ("就是", "即") also say what
// someone is, so they must link the same two names twice.
var (
	cjkNamingStrong = runeListOf([]string{"叫做", "叫作", "唤做", "唤作", "名唤", "又名", "又号", "别号", "道号", "法名", "法号", "乳名", "小名", "外号", "绰号", "混名", "浑名", "诨名", "表字", "人称", "称为", "呼为", "呼他为", "又呼他为", ",字", ",号"})
	cjkNamingWeak   = runeListOf([]string{"就是", "即是", "即", "便是", "乃是"})
)

// cjkNamingLen returns the length of the naming words rs starts with: a
// naming word, after a comma or not, then another one or a copula ("法名
// 叫做", "，混名唤做", "叫做个"), as the text stacks them; 0 when rs
// starts with none.
func cjkNamingLen(rs []rune) int {
	n := cjkNamingStrong.prefix(rs)
	if n == 0 && len(rs) > 1 && (rs[0] == ',' || rs[0] == '，') {
		// "孫悟空，混名叫做行者": the name, then what it is called.
		if n = cjkNamingStrong.prefix(rs[1:]); n > 0 {
			n++
		}
	}
	if n == 0 {
		return 0
	}
	if m := cjkNamingStrong.prefix(rs[n:]); m > 0 && rs[n] != ',' && rs[n] != '，' {
		n += m
	}
	if n < len(rs) && strings.ContainsRune("为做作个是", rs[n]) {
		n++
	}
	return n
}

// cjkNamingLinks finds two names next to each other with a naming word
// between them, in the stream of mentions.
func cjkNamingLinks(chs []cjkChapter, ex *extraction) [][2]int32 {
	type pair [2]int32
	strong := map[pair]bool{}
	weak := map[pair]int{}
	byText := formsByFolded(chs, ex)
	for k, a := range ex.stream {
		// A courtesy name given after a full name is that name with
		// the family name ("李紈，字宮裁" where the book writes 李宮裁),
		// though the text writes it alone there.
		if rs := chs[a.chap].folded; true {
			fr := rs[a.pos : int(a.pos)+utf8.RuneCountInString(ex.forms[a.form].text)]
			end := int(a.pos) + len(fr)
			if n := cjkNamingLen(rs[end:]); n > 0 && len(fr) >= 2 && len(fr) <= 3 && cjkSurnameSet.has(fr[0]) {
				j := end + n
				e := j
				for e < len(rs) && e < j+4 && textsearch.IsCJK(rs[e]) {
					e++
				}
				if m := e - j; m >= 2 && m <= 3 && (e == len(rs) || !textsearch.IsCJK(rs[e])) {
					if g, ok := byText[string(fr[0])+string(rs[j:e])]; ok && g != a.form {
						strong[pair{min(a.form, g), max(a.form, g)}] = true
					}
				}
			}
		}
		if k+1 >= len(ex.stream) {
			break
		}
		b := ex.stream[k+1]
		if a.chap != b.chap || a.form == b.form {
			continue
		}
		rs := chs[a.chap].folded
		end := int(a.pos) + utf8.RuneCountInString(ex.forms[a.form].text)
		gap := rs[min(end, len(rs)):min(int(b.pos), len(rs))]
		if len(gap) == 0 || len(gap) > 6 {
			continue
		}
		// The name named must begin where a name may: 行者 in 德行者
		// ("a man of virtue, named 玄奘") or 公主 in 鐵扇公主 is the
		// end of another word.
		if p := int(a.pos); p > 0 && !cjkBreak(rs[p-1]) && !cjkPreNameSet.has(rs[p-1]) {
			continue
		}
		p := pair{min(a.form, b.form), max(a.form, b.form)}
		switch {
		case cjkNamingLen(gap) == len(gap):
			strong[p] = true
		case cjkNamingWeak.prefix(gap) == len(gap):
			weak[p]++
		}
	}
	var out [][2]int32
	for p := range strong {
		out = append(out, p)
	}
	for p, n := range weak {
		if n >= 2 && !strong[p] {
			out = append(out, p)
		}
	}
	sortPairs(out)
	return out
}

// Someone who gives their own name in speech ("猴王笑道：「自今就叫做孫
// 悟空也！」", "大聖道：「我已有名了，叫做孫悟空。」") is the one named. The
// speech before the naming word must speak of no one else: no second or
// third person (你, 他, 那, 這: "你就叫做悟空" names the one spoken to),
// no negation of the naming ("我不叫做三藏"),
// no name ("唐三藏，有三個徒弟，名喚孫悟空"). Once is enough where the
// speaker says 我 (or 貧僧, 弟子, 老孫) and counts nothing out (個: "我有
// 兩個徒弟，叫做豬八戒"); else the speaker must say it twice. So too who
// says what they are at the start of their speech ("八戒道：「我乃是天蓬
// 元帥，…」"), where the name ends its clause.
const (
	cjkOthers        = "你汝他她它您那这此其"
	cjkNegations     = "不没未莫"
	cjkCounted       = "个"
	minSelfNamings   = 2
	selfNamingSpeech = 80 // characters of speech read before the naming word
)

// cjkCopulas say what the speaker is ("我乃", "我就是"); the name must end
// its clause (cjkClauseEnds): "我是孫行者的兄弟" is someone else's kin.
var cjkCopulas = runeListOf([]string{"乃是", "就是", "便是", "正是", "乃", "是"})

const cjkClauseEnds = "，,。！!？?、；;」”』也"

var (
	cjkOthersSet = runeSetOf(cjkOthers)
	cjkSelfWords = runeListOf([]string{"我", "吾", "俺", "贫僧", "弟子", "小生", "在下", "老孙", "微臣", "小人"})
)

// cjkSelfNamingLinks links a speaker to the name they give themself at
// the start of their speech.
func cjkSelfNamingLinks(chs []cjkChapter, ex *extraction) [][2]int32 {
	type pair [2]int32
	weak := map[pair]int{}
	strong := map[pair]bool{}
	// byText finds a form by its folded text.
	byText := formsByFolded(chs, ex)
	for k, m := range ex.stream {
		rs := chs[m.chap].folded
		e := int(m.pos) + utf8.RuneCountInString(ex.forms[m.form].text)
		for n := 0; n < 2 && e < len(rs) && cjkAdverbSet.has(rs[e]); n++ {
			e++
		}
		v := cjkSpeechList.prefix(rs[min(e, len(rs)):])
		if v == 0 {
			continue
		}
		q := e + v
		if q < len(rs) && (rs[q] == '：' || rs[q] == ':') {
			q++
		}
		if q >= len(rs) || !openQuote(rs[q]) {
			continue
		}
		start := q + 1
		// "我乃是天蓬元帥，…": the speaker says who they are.
		if sw := cjkSelfWords.prefix(rs[start:]); sw > 0 {
			if c := cjkCopulas.prefix(rs[start+sw:]); c > 0 && k+1 < len(ex.stream) {
				y := ex.stream[k+1]
				end := int(y.pos) + utf8.RuneCountInString(ex.forms[y.form].text)
				if y.chap == m.chap && int(y.pos) == start+sw+c && y.form != m.form && end < len(rs) && strings.ContainsRune(cjkClauseEnds, rs[end]) {
					p := pair{m.form, y.form}
					weak[p]++
					strong[p] = true
				}
				continue
			}
		}
		at, nl := -1, 0
		for j := start; j < len(rs) && j < start+selfNamingSpeech; j++ {
			if closeQuote(rs[j]) || openQuote(rs[j]) {
				break
			}
			if nl = cjkNamingLen(rs[j:]); nl > 0 {
				at = j
				// "法名，叫做孫悟空": the naming word, a comma, another.
				if e := j + nl; e+1 < len(rs) && (rs[e] == ',' || rs[e] == '，') {
					if n2 := cjkNamingLen(rs[e+1:]); n2 > 0 {
						nl += 1 + n2
					}
				}
				break
			}
		}
		if at < 0 {
			continue
		}
		pre := rs[start:at]
		if slices.ContainsFunc(pre, cjkOthersSet.has) || len(pre) > 0 && strings.ContainsRune(cjkNegations, pre[len(pre)-1]) {
			continue
		}
		// The name named is the first mention after the speaker's: any
		// before the naming word is someone else spoken of.
		if k+1 >= len(ex.stream) {
			continue
		}
		y := ex.stream[k+1]
		// A family name may stand before the given name named ("法名叫
		// 做陳玄奘" where only 玄奘 is a name found).
		gap := int(y.pos) - at - nl
		if y.chap != m.chap || gap < 0 || gap > 1 || gap == 1 && !cjkSurnameSet.has(rs[at+nl]) || y.form == m.form {
			continue
		}
		self := false
		for j := range pre {
			if cjkSelfWords.prefix(pre[j:]) > 0 {
				self = true
				break
			}
		}
		self = self && !slices.ContainsFunc(pre, func(r rune) bool { return strings.ContainsRune(cjkCounted, r) })
		// A full name named ("陳玄奘") counts for its given name too
		// ("玄奘"), which the speaker may give alone elsewhere.
		named := []int32{y.form}
		if yr := []rune(ex.forms[y.form].text); len(yr) == 3 && cjkSurnameSet.has(chs[y.chap].folded[y.pos]) {
			if g, ok := byText[string(chs[y.chap].folded[int(y.pos)+1:int(y.pos)+3])]; ok && g != m.form {
				named = append(named, g)
			}
		}
		for _, n := range named {
			p := pair{m.form, n}
			weak[p]++
			strong[p] = strong[p] || self
		}
	}
	var out [][2]int32
	for p, n := range weak {
		if strong[p] || n >= minSelfNamings {
			out = append(out, [2]int32{p[0], p[1]})
		}
	}
	sortPairs(out)
	return out
}

// formsByFolded maps the folded text of each form to the form, read at
// its first mention.
func formsByFolded(chs []cjkChapter, ex *extraction) map[string]int32 {
	out := make(map[string]int32, len(ex.forms))
	seen := make([]bool, len(ex.forms))
	for _, m := range ex.stream {
		if seen[m.form] {
			continue
		}
		seen[m.form] = true
		rs := chs[m.chap].folded
		t := string(rs[m.pos : int(m.pos)+utf8.RuneCountInString(ex.forms[m.form].text)])
		if _, ok := out[t]; !ok {
			out[t] = m.form
		}
	}
	return out
}

// minRealm is how often a character must be written as a realm (大唐,
// 唐朝, 唐國) to be taken for one before a ruler's title.
const minRealm = 10

// cjkRealms returns the characters the text writes as the name of a
// realm or dynasty: after 大 or before 朝 or 國, minRealm times at least.
func cjkRealms(chs []cjkChapter) map[rune]bool {
	n := map[rune]int{}
	for ci := range chs {
		rs := chs[ci].folded
		for i := 0; i+1 < len(rs); i++ {
			switch {
			case rs[i] == '大' && textsearch.IsCJK(rs[i+1]):
				n[rs[i+1]]++
			case rs[i+1] == '朝' || rs[i+1] == '国':
				n[rs[i]]++
			}
		}
	}
	out := map[rune]bool{}
	for r, c := range n {
		if c >= minRealm {
			out[r] = true
		}
	}
	return out
}

// A book may give a family name none of the common ones is: it says so
// (我姓豬，…; 姓孫的, the one named Sun). A character the text writes
// after 姓 and before a pause, 名 (姓劉名伯欽) or 的, minDeclaredSurname
// times at least, is a family name in that book; not a question (姓甚,
// 姓什麼) nor a word of 姓 (姓名, 姓氏; 隱姓埋名).
const minDeclaredSurname = 3

// bookSurnames are the family names a book declares besides the common
// ones; has tells either.
type bookSurnames map[rune]bool

func (b bookSurnames) has(r rune) bool { return cjkSurnameSet.has(r) || b[r] }

// cjkDeclaredSurnames returns the family names the text declares that
// are not among the common ones.
func cjkDeclaredSurnames(chs []cjkChapter) bookSurnames {
	n := map[rune]int{}
	for ci := range chs {
		rs := chs[ci].folded
		for i := 1; i+2 < len(rs); i++ {
			x, next := rs[i+1], rs[i+2]
			if rs[i] != '姓' || rs[i-1] == '百' || !textsearch.IsCJK(x) || cjkSurnameSet.has(x) || strings.ContainsRune("甚什何名氏埋外也谁么", x) {
				continue
			}
			if !textsearch.IsCJK(next) || next == '名' || next == '的' {
				n[x]++
			}
		}
	}
	out := bookSurnames{}
	for r, c := range n {
		if c >= minDeclaredSurname {
			out[r] = true
		}
	}
	return out
}

// cjkForm builds the form of a name (folded runes) and what the cues said
// of it; surnames are the family names the book declares besides the
// common ones.
func cjkForm(rs []rune, c *cjkCand, realms map[rune]bool, surnames bookSurnames) *form {
	f := &form{text: string(rs), key: string(rs)}
	isSurname := surnames.has
	n := len(rs)
	for a := 0; a < n; a++ {
		for b := a + 2; b <= n; b++ {
			f.provides = append(f.provides, "sub:"+string(rs[a:b]))
		}
	}
	if c != nil && c.titled >= 3 {
		// A name the text writes before a title is the name the titled
		// form bears, however many characters it has (觀世音 of 觀世音
		// 菩薩): the titled form joins it by that name.
		f.beforeTitle = true
		f.provides = append(f.provides, "given:"+string(rs))
	}
	if c != nil {
		f.person += float64(c.speak + c.title + c.called)
		f.loc += float64(c.loc)
	}
	if cjkPlaceEndSet.has(rs[n-1]) && c != nil && c.loc > 0 {
		f.loc += float64(c.loc)
		f.provides = append(f.provides, "place:"+string(rs))
	}
	if tn := cjkTitleList.suffix(rs); tn > 0 {
		t := string(rs[n-tn:])
		x := rs[:n-tn]
		f.sex = cjkTitleSex[t]
		f.titles = []string{t}
		f.provides = append(f.provides, "title:"+t)
		if r := []rune(t)[0]; len(x) > 0 && len([]rune(t)) >= 2 && cjkKinRootSet.has(r) {
			// 薛姨媽: the aunt of the 薛 family, whom 姨太太 names.
			f.provides = append(f.provides, "kin:"+string(r))
		}
		if cjkRulers[t] {
			f.provides = append(f.provides, "ruler")
		}
		if tr := []rune(t); len(x) > 0 && len(tr) >= 2 && cjkKin[t] && cjkRankSet.has(tr[0]) {
			// 寶二爺: the title of kinship holds the rank.
			if sib := siblingRank(tr[0], t); sib != "" {
				f.provides = append(f.provides, sib)
			}
		}
		if len(x) >= 2 && cjkRankSet.has(x[len(x)-1]) {
			// 寶二爺, 尤三姐: the rank among siblings tells two of one
			// family and title apart (尤二姐 and 尤三姐 are sisters).
			f.provides = append(f.provides, "rank:"+string(x[len(x)-1]))
			if sib := siblingRank(x[len(x)-1], t); sib != "" {
				f.provides = append(f.provides, sib)
			}
			x = x[:len(x)-1]
		}
		ranked := false
		if len(x) == 1 && cjkRankSet.has(x[0]) {
			// "三姑娘", "二哥哥": a rank and a title, said in a household
			// to or of the one of that rank, sex and generation the book
			// also names with the rank (寶二爺), where the nearby text
			// names that one clearly. 二老爺 is not 寶二爺, his son.
			if sib := siblingRank(x[0], t); sib != "" {
				f.needs = append(f.needs, sib)
				f.address = true
			}
			x, ranked = x[:0], true
		}
		switch len(x) {
		case 0:
			if cjkKin[t] && !ranked {
				f.drop = true // "姐姐", "二爺" address anyone of the family
			}
			if !ranked {
				f.bare = t
				// The narrator calls the one who holds it in the story
				// by the title alone (長老, the elder monk, for 唐僧), as
				// one addresses them: among several named with it, the
				// one the nearby text names clearly.
				f.address = !cjkKin[t]
			}
			// A title alone ("老太太", "菩薩") stands for whoever the scene
			// is about: it joins one entry only on the nearby text.
			f.votesOnly = true
			f.needs = append(f.needs, "sub:"+string(rs))
			f.spec = 5
			return f
		case 1:
			if x[0] == '父' || x[0] == '母' {
				// A parent with a title (父王, father and king) is
				// what any prince calls his own: no one's name.
				f.drop = true
				return f
			}
			if cjkRulers[t] && realms[x[0]] {
				// A ruler's title after one character is after his
				// realm, not his family: 唐王 is the king of Tang, no
				// kin of 唐三藏. He is whichever ruler the nearby text
				// names (太宗皇帝), if it names one clearly.
				f.needs = append(f.needs, "sub:"+string(rs), "ruler")
				f.spec = 12
				return f
			}
			// A family name or a character of a given name with a title:
			// "林姑娘", "寶姑娘", "鳳姐".
			f.needs = append(f.needs, "sur:"+string(x), "gchar:"+string(x))
			if cjkKinRootSet.has(x[0]) {
				// 姨太太, 舅老爺: the aunt or uncle by marriage, with a
				// title of respect, is the one of that kin the book
				// names with a family name (薛姨媽) whom the nearby text
				// is about.
				f.needs = append(f.needs, "kin:"+string(x))
			}
			if isSurname(x[0]) {
				f.provides = append(f.provides, "sur:"+string(x))
			}
			f.spec = 12
			if cjkKinRootSet.has(x[0]) {
				f.spec = 11 // after the forms of kinship it may join
			}
		default:
			// A name with a title: "觀音菩薩", "黛玉妹妹".
			f.needs = append(f.needs, "given:"+string(x), "sub:"+string(rs))
			f.provides = append(f.provides, "given:"+string(x))
			f.spec = 25
		}
		return f
	}
	switch {
	case n == 2 && rs[0] == '老' && !isSurname(rs[1]):
		// "老魔", "老嫗": old and a common noun (the old demon, the old
		// woman), which names whoever the scene is about. Not so 小
		// before a given name's character: 小玉, 小蝶 are pet names.
		f.drop = true
	case n == 2 && (rs[0] == '老' || rs[0] == '小'):
		// "老孫", "小張": a family name made familiar.
		f.needs = append(f.needs, "sur:"+string(rs[1:]))
		f.spec = 11
	case n == 3 && (isSurname(rs[0]) || !cjkTitleList.prefixed(rs[1:])):
		// A family name and a given name: "賈寶玉", "豬八戒".
		f.full = true
		f.provides = append(f.provides, "sur:"+string(rs[:1]), "given:"+string(rs[1:]), "gchar:"+string(rs[1:2]), "gchar:"+string(rs[2:3]))
		f.needs = append(f.needs, "sub:"+string(rs))
		f.spec = 30
	case n == 2:
		f.provides = append(f.provides, "given:"+string(rs), "gchar:"+string(rs[:1]), "gchar:"+string(rs[1:]))
		f.needs = append(f.needs, "given:"+string(rs), "sub:"+string(rs))
		if isSurname(rs[0]) {
			f.provides = append(f.provides, "sur:"+string(rs[:1]))
		}
		f.spec = 20
	default:
		f.needs = append(f.needs, "sub:"+string(rs))
		f.spec = 10 * min(n, 3)
	}
	return f
}

// prefixed reports whether rs starts with a title.
func (l *runeList) prefixed(rs []rune) bool { return l.prefix(rs) > 0 }

// cjkFuller reports whether a is a fuller name than b.
func cjkFuller(a, b *form) bool {
	// Two names of one family (李紈 and 李宮裁, her courtesy name with
	// the family name): the one the book uses more.
	if ar, br := []rune(a.text), []rune(b.text); len(ar) >= 2 && len(br) >= 2 && ar[0] == br[0] && cjkSurnameSet.has(ar[0]) && len(a.titles) == 0 && len(b.titles) == 0 {
		return a.count > b.count
	}
	if a.full != b.full {
		return a.full
	}
	return len([]rune(a.text)) > len([]rune(b.text)) && a.votesOnly == b.votesOnly && 2*a.count >= b.count
}

// sortPairs sorts pairs of form indexes by the first, then the second.
func sortPairs(ps [][2]int32) {
	slices.SortFunc(ps, func(x, y [2]int32) int {
		return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1]))
	})
}

// A title written right after a name, or after a name and an epithet of
// two characters ("二郎真君", "二郎顯聖真君"), is that person's title; where
// the book writes the title after one name only, and gives it by name to
// no one else, the title standing alone is that person too (真君 is 二郎).
const (
	minEpithets = 2 // times the title follows the name
	epithetGap  = 2 // characters of an epithet between them, at most
)

// cjkSpouseTitles after a man's name name his wife (丞相夫人, the
// chancellor's wife), not him.
var cjkSpouseTitles = map[string]bool{"夫人": true, "太太": true, "奶奶": true, "娘子": true, "娘娘": true}

// cjkEpithetLinks links a title standing alone to the one name the book
// writes it after.
func cjkEpithetLinks(chs []cjkChapter, ex *extraction) [][2]int32 {
	// The titles given by name: a form of a name with the title.
	named := map[string]int{}
	for _, f := range ex.forms {
		if f.bare == "" {
			for _, t := range f.titles {
				if len(f.key) > len(t) {
					named[t]++
				}
			}
		}
	}
	after := map[int32]map[int32]int{}
	for k := 1; k < len(ex.stream); k++ {
		a, b := ex.stream[k-1], ex.stream[k]
		tf, nf := ex.forms[b.form], ex.forms[a.form]
		// A place before the title (靈山佛祖, the Buddha of the
		// mountain) is where the bearer is, not a name of theirs.
		if a.chap != b.chap || tf.bare == "" || named[tf.bare] > 0 || cjkSpouseTitles[tf.bare] || nf.bare != "" || nf.votesOnly || len(nf.titles) > 0 || nf.drop || nf.loc > nf.person {
			continue
		}
		end := int(a.pos) + utf8.RuneCountInString(nf.key)
		gap := int(b.pos) - end
		if gap < 0 || gap > epithetGap {
			continue
		}
		rs := chs[a.chap].folded
		ok := true
		for _, r := range rs[end:b.pos] {
			ok = ok && textsearch.IsCJK(r) && !cjkInnerStopSet.has(r)
		}
		if !ok {
			continue
		}
		if after[b.form] == nil {
			after[b.form] = map[int32]int{}
		}
		after[b.form][a.form]++
	}
	var out [][2]int32
	for t, by := range after {
		var best int32 = -1
		others := 0
		for x, n := range by {
			if n >= minEpithets {
				if best >= 0 {
					others++
				}
				if best < 0 || n > by[best] || n == by[best] && x < best {
					best = x
				}
			}
		}
		if best >= 0 && others == 0 {
			out = append(out, [2]int32{t, best})
		}
	}
	sortPairs(out)
	return out
}
