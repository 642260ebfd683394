package assemble

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/knowledge"

	"github.com/flowcabal/flowcabal/internal/cputime"
)

// hlmNames are 100 characters of 红楼梦, for generated entity files.
var hlmNames = strings.Fields(`贾宝玉 林黛玉 薛宝钗 王熙凤 贾母 贾政 王夫人 贾琏 史湘云 妙玉 贾元春 贾迎春 贾探春 贾惜春 李纨 秦可卿
巧姐 袭人 晴雯 平儿 鸳鸯 紫鹃 香菱 麝月 秋纹 莺儿 司棋 侍书 入画 彩云 金钏 玉钏 小红 芳官 龄官 藕官 薛蟠 薛姨妈
薛宝琴 邢夫人 贾赦 贾珍 尤氏 尤二姐 尤三姐 贾蓉 贾蔷 贾芸 贾环 赵姨娘 周瑞家的 刘姥姥 板儿 焦大 赖大 林之孝 甄士隐
贾雨村 英莲 封氏 冷子兴 秦钟 智能儿 柳湘莲 蒋玉菡 北静王 冯紫英 贾瑞 茗烟 李嬷嬷 宝蟾 夏金桂 邢岫烟 李纹 李绮 傻大姐
张道士 马道婆 多姑娘 鲍二家的 兴儿 旺儿 来旺 王善保家的 周姨娘 贾代儒 贾敬 甄宝玉 卜世仁 倪二 金荣 香怜 玉爱 静虚
空空道人 警幻仙姑 绛珠仙草 神瑛侍者`)

// generatedEntities writes 100 Chinese entity files into a temp project
// and reads them back with the knowledge package.
func generatedEntities(b testing.TB) []*knowledge.Entity {
	dir := b.TempDir()
	for i, n := range hlmNames {
		rel := ""
		if i > 0 {
			rel = fmt.Sprintf("relations:\n  - { to: entities/characters/c%03d, kind: 亲戚 }\n", i-1)
		}
		text := fmt.Sprintf("---\nname: %s\naliases: [%s]\nkind: character\nfacts: { 编号: %d }\n%s---\n%s是红楼梦中的人物，第%d个。\n", n, n+"儿", i, rel, n, i+1)
		p := filepath.Join(dir, "entities", "characters", fmt.Sprintf("c%03d.md", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	p, errs := knowledge.LoadProject(dir)
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	if len(p.Entities) != len(hlmNames) {
		b.Fatalf("%d entities", len(p.Entities))
	}
	return p.Entities
}

func hlmInput(b testing.TB, copies int) Input {
	sh := sharedDir(b)
	var in Input
	n := 0
	for c := 0; c < copies; c++ {
		for i := 1; i <= 120; i++ {
			data, err := os.ReadFile(filepath.Join(sh, "corpus", "hongloumeng", fmt.Sprintf("%03d.txt", i)))
			if err != nil {
				b.Fatal(err)
			}
			n++
			text := string(data)
			if c > 0 { // later copies differ, so nothing is shared by hash
				text = fmt.Sprintf("第%d章（续%d）\n\n", n, c) + text
			}
			in.Chapters = append(in.Chapters, ChapterDoc{Number: n, Path: fmt.Sprintf("manuscript/chapter-%03d/content.md", n), Text: text})
		}
	}
	in.Entities = generatedEntities(b)
	return in
}

var benchNode = Node{Text: "写林黛玉在沁芳闸边葬花，贾宝玉拿着西厢记过来，两人同看，袭人来寻。", Budget: 16000}

func p50(ds []time.Duration) float64 {
	slices.Sort(ds)
	return float64(ds[len(ds)/2].Microseconds()) / 1000
}

// BenchmarkAssembleHongloumeng is the full 红楼梦 (120 chapters) with 100
// entity files, writing chapter 121: warm assemblies on one snapshot.
func BenchmarkAssembleHongloumeng(b *testing.B) {
	in := hlmInput(b, 1)
	start := time.Now()
	snap, err := newBuilder().Build(in)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(time.Since(start).Milliseconds()), "build-ms")
	Assemble(benchNode, snap, Options{})
	var ds []time.Duration
	b.ResetTimer()
	cpu := cputime.Used()
	for b.Loop() {
		t := time.Now()
		Assemble(benchNode, snap, Options{})
		ds = append(ds, time.Since(t))
	}
	b.ReportMetric(float64((cputime.Used()-cpu).Microseconds())/1000/float64(len(ds)), "cpu-ms/op")
	b.ReportMetric(p50(ds), "p50-ms")
}

// BenchmarkAssembleHongloumengCold measures the first assembly on a new
// snapshot whose token counts are not memoised yet (summaries and terms
// are derived at build time, as the store does at index time).
func BenchmarkAssembleHongloumengCold(b *testing.B) {
	in := hlmInput(b, 1)
	warm := newBuilder()
	if _, err := warm.Build(in); err != nil {
		b.Fatal(err)
	}
	var ds []time.Duration
	var cpu time.Duration
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		fresh := newBuilder()
		fresh.derived = warm.derived // derived levels as a store would hold them
		snap, err := fresh.Build(in)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		c0 := cputime.Used()
		t := time.Now()
		Assemble(benchNode, snap, Options{})
		ds = append(ds, time.Since(t))
		cpu += cputime.Used() - c0
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(len(ds)), "cpu-ms/op")
	b.ReportMetric(p50(ds), "p50-ms")
}

// BenchmarkAssemble600Chapters is a generated 600-chapter work (红楼梦
// five times over, each copy changed), scanned arc-first.
func BenchmarkAssemble600Chapters(b *testing.B) {
	in := hlmInput(b, 5)
	snap, err := newBuilder().Build(in)
	if err != nil {
		b.Fatal(err)
	}
	node := benchNode
	Assemble(node, snap, Options{})
	var ds []time.Duration
	b.ResetTimer()
	cpu := cputime.Used()
	for b.Loop() {
		t := time.Now()
		Assemble(node, snap, Options{})
		ds = append(ds, time.Since(t))
	}
	b.ReportMetric(float64((cputime.Used()-cpu).Microseconds())/1000/float64(len(ds)), "cpu-ms/op")
	b.ReportMetric(p50(ds), "p50-ms")
}
