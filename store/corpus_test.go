package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir finds shared/corpus above the working directory (the team's
// layout, and CI's), or $FLOWCABAL_CORPUS.
func corpusDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("FLOWCABAL_CORPUS"); d != "" {
		return d
	}
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		p := filepath.Join(d, "shared", "corpus")
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p
		}
		if filepath.Dir(d) == d {
			t.Fatalf("no shared/corpus above %s (set FLOWCABAL_CORPUS)", dir)
		}
	}
}

// hlmNames are characters of 紅樓夢, for generated entity files.
var hlmNames = strings.Fields(`賈寶玉 林黛玉 薛寶釵 王熙鳳 賈母 賈政 王夫人 賈璉 賈珍 賈蓉 秦可卿 史湘雲 妙玉 賈元春
賈迎春 賈探春 賈惜春 李紈 巧姐 襲人 晴雯 平兒 鴛鴦 紫鵑 麝月 秋紋 香菱 薛蟠 薛姨媽 劉姥姥 賈赦 邢夫人 尤氏
尤二姐 尤三姐 賈環 趙姨娘 賈芸 小紅 司棋 金釧 玉釧 茗煙 焦大 賴大 周瑞家的 甄士隱 賈雨村 冷子興 秦鐘 北靜王
柳湘蓮 蔣玉菡 夏金桂 薛寶琴 邢岫煙 李紋 李綺 彩雲 彩霞 翠縷 鶯兒 雪雁 智能兒 馮淵 英蓮 封肅 癩頭和尚 跛足道人
警幻仙姑 賈代善 賈敬 賈薔 齡官 芳官 藕官 蕊官 五兒 柳嫂子 王善保家的 傻大姐 孫紹祖 張道士 馬道婆 林之孝 吳貴
多姑娘 鮑二家的 來旺 旺兒 興兒 善姐 秋桐 嬌杏 靜虛 胡庸醫 王太醫 張友士 倪二 卜世仁 金榮`)

// makeCorpusProject writes a project whose manuscript is a whole book of
// the corpus ("hongloumeng" or "pride-and-prejudice"), one chapter per
// manuscript/chapter-NNN/content.md, with entities generated entity
// files when book is hongloumeng. It returns the root and the number of
// characters of manuscript text.
func makeCorpusProject(t testing.TB, root, book string, entities int) int {
	t.Helper()
	src := filepath.Join(corpusDir(t), book)
	chars := 0
	for n := 1; ; n++ {
		data, err := os.ReadFile(filepath.Join(src, fmt.Sprintf("%03d.txt", n)))
		if os.IsNotExist(err) {
			if n == 1 {
				t.Fatalf("no chapters in %s", src)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		chars += len([]rune(string(data)))
		writeFile(t, root, fmt.Sprintf("manuscript/chapter-%03d/content.md", n), string(data))
	}
	for i := 0; i < entities && i < len(hlmNames); i++ {
		name := hlmNames[i]
		r := []rune(name)
		aliases := ""
		if len(r) == 3 {
			aliases = string(r[1:])
		}
		rel := ""
		if i > 0 {
			rel = fmt.Sprintf("\nrelations:\n  - { to: entities/characters/c%03d, kind: knows }", i-1)
		}
		writeFile(t, root, fmt.Sprintf("entities/characters/c%03d.md", i), fmt.Sprintf(
			"---\nname: %s\naliases: [%s]\nkind: character\nfacts: { home: 榮國府, status: alive }\nprogressions:\n  - { chapter: %d, facts: { status: changed } }%s\n---\n%s是《紅樓夢》中的人物。%s常在榮國府與寧國府之間往來，書中多次提及。\n",
			name, aliases, 10+i, rel, name, name))
	}
	writeFile(t, root, "meta/style-guide.md", "# 文風\n\n白話小說，章回體。\n")
	return chars
}
