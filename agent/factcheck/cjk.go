package factcheck

// kinshipChars are characters of forms of address and kinship: a name
// that differs from another only in one of these ("宝二爷", "宝二叔")
// addresses someone else, it is not a misspelling.
const kinshipChars = "姐妹哥弟兄叔伯姑姨娘爷爺奶嫂婶嬸母父公婆老太大小二三四五六七八九十儿兒夫氏姥舅妈媽爹奴丫头頭君妃后侯相爵少"
