package entitysuggest

import (
	"context"
	"strings"
	"testing"
)

// TestBooksKeepPeopleApart runs the suggestions on the whole shared books
// and holds that no entry, among all of them, carries the names of two
// different people the book tells apart: brothers and cousins sharing a
// family name (賈政, 賈赦; 賈珍, 賈璉), a mother and her daughters (Mrs.
// Bennet, Lady Lucas, Countess Rostóva), a father and his sons (Prince
// Vasíli; the old Count Bezúkhov), two men of one given name (Nicholas
// Rostóv, Prince Nicholas Bolkónski), rulers (唐王 and 玉帝).
func TestBooksKeepPeopleApart(t *testing.T) {
	cases := []struct {
		book  string
		apart [][2]string
	}{
		{"hongloumeng", [][2]string{{"賈政", "賈赦"}, {"賈珍", "賈璉"}, {"寶玉", "寶釵"}, {"王夫人", "王熙鳳"}, {"薛蟠", "薛姨媽"}, {"尤二姐", "尤三姐"}, {"賈母", "王夫人"}, {"史湘雲", "賈母"}, {"林黛玉", "林之孝"}}},
		{"xiyouji", [][2]string{{"行者", "八戒"}, {"唐三藏", "唐王"}, {"太宗", "玉帝"}, {"沙僧", "八戒"}, {"孫悟空", "牛魔王"}, {"三藏", "行者"}}},
		{"war-and-peace", [][2]string{{"Prince Andrew", "Prince Vasíli"}, {"Anatole", "Prince Vasíli"}, {"Kurágin", "Prince Vasíli"}, {"Pierre", "Count Cyril Vladímirovich Bezúkhov"}, {"Natásha", "Countess Rostóva"}, {"Nicholas Rostóv", "Prince Nicholas Bolkónski"}, {"Prince Andrew", "Princess Mary"}}},
		{"pride-and-prejudice", [][2]string{{"Elizabeth", "Jane"}, {"Mr. Bennet", "Mrs. Bennet"}, {"Darcy", "Colonel Fitzwilliam"}, {"Charlotte", "Lady Lucas"}, {"Miss Bingley", "Bingley"}, {"Mr. Darcy", "Miss Darcy"}}},
	}
	for _, c := range cases {
		t.Run(c.book, func(t *testing.T) {
			chs, err := ReadBook(sharedDir(t, "corpus/"+c.book))
			if err != nil {
				t.Fatal(err)
			}
			sugg, err := Suggest(context.Background(), chs, Options{Folder: testFolder})
			if err != nil {
				t.Fatal(err)
			}
			for _, ap := range c.apart {
				a, b := entryOf(sugg, ap[0]), entryOf(sugg, ap[1])
				switch {
				case a == nil || b == nil:
					// The names must be suggested for the test to hold
					// anything.
					t.Errorf("%q or %q suggested in no entry", ap[0], ap[1])
				case a == b || hasName(a, ap[1]) || hasName(b, ap[0]):
					t.Errorf("%q and %q in one entry: %s", ap[0], ap[1], strings.Join(a.Names(), ", "))
				}
			}
		})
	}
}
