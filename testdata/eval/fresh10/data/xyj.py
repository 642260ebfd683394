from common import *
BOOK='xiyouji'; PREFIX='xyj'
C='entities/characters/'; L='entities/locations/'
CHARS={
'sun-wukong':ch('孫悟空',['孫悟空','悟空','行者','孫行者','大聖','齊天大聖','孫大聖','美猴王','猴王','弼馬溫','老孫','石猴','猴頭','潑猴','孫長老'],{'home':'花果山水簾洞','master':'唐僧','weapon':'如意金箍棒'},
 '石卵迸出的猴王，拜師學得七十二般變化與觔斗雲，大鬧天宮，被壓山下五百年，后保唐僧西行，終成正果．',
 [{'chapter':4,'office':'弼馬溫','office_grade':'未入流'},{'chapter':8,'status':'away','location':'五行山'},{'chapter':14,'status':'unmarried'},{'chapter':28,'status':'away','location':'花果山'},{'chapter':31,'status':'unmarried'}],[(C+'tang-sanzang','disciple')]),
'tang-sanzang':ch('唐三藏',['唐僧','唐三藏','三藏','玄奘','陳玄奘','江流','金蟬子','御弟','唐長老','聖僧','唐御弟','御弟哥哥','三藏法師'],{'origin':'東土大唐','mount':'白龍馬'},
 '奉唐王之命往西天求經的高僧，心慈膽小，屢遭妖魔擒拿，全仗徒弟們護持．',[{'chapter':99,'ordeals':'八十難'}],[(C+'sun-wukong','master')]),
'zhu-bajie':ch('豬八戒',['八戒','豬八戒','悟能','豬悟能','天蓬元帥','獃子','老豬','豬剛鬣','呆子'],{'master':'唐僧','weapon':'九齒釘鈀'},
 '因調戲嫦娥被貶下凡、錯投豬胎的天神，貪吃好色又懶惰，卻也肯出力降妖．',
 [{'chapter':8,'status':'away','location':'高老莊'},{'chapter':19,'status':'married'}],[(C+'sun-wukong','師弟')]),
'sha-wujing':ch('沙悟淨',['沙僧','悟淨','沙悟淨','沙和尚','捲簾大將','沙流精','沙兄弟'],{'master':'唐僧','weapon':'降妖寶杖'},
 '原是天上的捲簾大將，打破琉璃盞被貶到河里吃人，后皈依唐僧，老實肯干，挑擔護師．',
 [{'chapter':8,'status':'away','location':'流沙河'},{'chapter':22,'status':'unmarried'}],[(C+'tang-sanzang','disciple')]),
'white-dragon-horse':ch('白龍馬',['小龍','白馬','白龍馬','玉龍','龍馬'],{'master':'唐僧'},'西海龍王的三太子，吞了唐僧的馬，被菩薩點化成白馬馱師西行．',
 [{'chapter':8,'status':'away','location':'鷹愁澗'},{'chapter':15,'status':'unmarried'}],[(C+'tang-sanzang','mount')]),
'guanyin':ch('觀音菩薩',['觀音','觀世音','觀音菩薩','南海觀音','大士','南海菩薩'],{'home':'南海落伽山'},'慈悲救苦的菩薩，奉佛旨往東土尋取經人，一路屢次出手解難．',[],[]),
'rulai':ch('如來',['如來','如來佛祖','佛祖','釋迦牟尼','世尊','如來佛'],{'home':'靈山雷音寺'},'西天靈山的佛祖，以掌心困住大聖，又造下三藏真經待人來取．',[],[]),
'jade-emperor':ch('玉帝',['玉帝','玉皇大帝','玉皇','玉皇上帝'],{'home':'靈霄寶殿'},'天庭之主，先招安后降伏大聖，遇事多請佛祖相助．',[],[]),
'laojun':ch('太上老君',['太上老君','老君','李老君'],{'home':'兜率宮'},'兜率宮里煉丹的老君，金丹被大聖偷吃，又將他放入八卦爐．',[],[]),
'bull-demon-king':ch('牛魔王',['牛魔王','大力王','牛王','平天大聖','牛大哥'],{'spouse':'羅剎女','son':'紅孩兒'},'大聖當年結拜的兄長，為芭蕉扇与大聖大戰，終被天兵降伏歸佛．',
 [{'chapter':62,'status':'away','location':'靈山'}],[(C+'rakshasi','spouse'),(C+'red-boy','father')]),
'rakshasi':ch('鐵扇公主',['羅剎女','鐵扇公主','鐵扇仙'],{'spouse':'牛魔王','weapon':'芭蕉扇'},'住在芭蕉洞的女仙，手中芭蕉扇能滅火焰山的火．',[],[(C+'bull-demon-king','spouse')]),
'red-boy':ch('紅孩兒',['紅孩兒','聖嬰大王','善財童子'],{'father':'牛魔王','home':'火雲洞'},'牛魔王之子，口吐三昧真火，后被菩薩收去作善財童子．',
 [{'chapter':43,'status':'away','location':'南海落伽山'}],[(C+'bull-demon-king','son')]),
'white-bone-lady':ch('白骨夫人',['白骨夫人','屍魔'],{'home':'白虎嶺'},'白虎嶺上的屍魔，三番變化騙唐僧，被大聖打死，卻害得大聖被逐．',
 [{'chapter':28,'status':'dead'}],[]),
'taizong':ch('唐太宗',['唐太宗','太宗','唐王'],{'capital':'長安'},'大唐天子，遊過地府還魂，設水陸大會，認玄奘為御弟，送他西行．',[],[(C+'tang-sanzang','義兄')]),
'erlang':ch('二郎神',['二郎','顯聖二郎真君'],{'home':'灌江口'},'玉帝的外甥，神通廣大，与大聖斗變化，終將他擒住．',[],[]),
}
LOCS={
'huaguo-shan':ch('花果山',[],{'region':'東勝神洲傲來國'},'大聖出生之地，猴群聚居．',[],[]),
'shuilian-dong':ch('水簾洞',[],{'mountain':'花果山'},'花果山上瀑布后的石洞，大聖的洞府．',[],[]),
'wuxing-shan':ch('五行山',['兩界山'],{'made_by':'如來'},'如來手掌化成的大山，壓住大聖五百年，后改名兩界山．',[],[]),
'lingshan':ch('靈山',['雷音寺','大雷音寺'],{'distance_from_changan':'十萬八千里'},'西天佛祖所居，取經的終點．',[],[]),
'changan':ch('長安',[],{'ruler':'唐太宗'},'大唐的都城，取經的起點．',[],[]),
'liusha-he':ch('流沙河',[],{'width':'八百里'},'弱水難渡的大河，沙僧在此為妖．',[],[]),
}
ERA='唐代背景的神魔小說（成書于明代）'
FORBID=['電腦','手電筒','坦克','雷達','電梯','收音機','電視','照相機','自行車','原子彈','電池','麥克風','摩托車','直升機','無線電','打火機','衛星','雪茄','噴氣機','高鐵']
RULES_DESC='神魔小說，唐代背景，明代成書．禁用詞按繁簡兩種寫法都算．'
CASES=[
(6,'name','玉帝','王帝','玉帝 — entities/characters/jade-emperor.md'),
(37,'name','孫行者','孫形者','孫行者 — entities/characters/sun-wukong.md'),
(65,'name','如來','如萊','如來 — entities/characters/rulai.md'),
(90,'name','悟能','悟熊','悟能 — entities/characters/zhu-bajie.md'),
(4,'fact','未入流','正三品','entities/characters/sun-wukong.md: office_grade = 未入流','只喚做未入流'),
(8,'fact','八百里','五百里','entities/locations/liusha-he.md: width = 八百里','徑過有八百里遙'),
(24,'fact','十萬八千里','五萬四千里','entities/locations/lingshan.md: distance_from_changan = 十萬八千里','行者道：「十萬八千里，'),
(99,'fact','八十難','七十難','entities/characters/tang-sanzang.md: ordeals = 八十難','聖僧受過八十難'),
(11,'state','出朝採獵。','出朝採獵。那孫悟空也扛著鐵棒，在駕前開路。','entities/characters/sun-wukong.md: status = away, location = 五行山 (as of chapter 11)'),
(19,'state','這大聖的彩霞隨後。','這大聖的彩霞隨後。沙僧在雲端叫道：「大哥，莫放走了他！」','entities/characters/sha-wujing.md: status = away, location = 流沙河 (as of chapter 19)'),
(34,'state','只見那兩個魔頭坐在那裏飲酒','只見那兩個魔頭陪著白骨夫人坐在那裏飲酒','entities/characters/white-bone-lady.md: status = dead (as of chapter 34)'),
(75,'state','那上面高坐三個老妖，','那上面高坐三個老妖，連牛魔王也在席上，','entities/characters/bull-demon-king.md: status = away, location = 靈山 (as of chapter 75)'),
(10,'world','同入酒館之中，','同入酒館之中，看了一回電視，','forbidden term: 電視 (meta/world-rules.md)'),
(39,'world','只聽得八戒還哭哩','只聽得八戒還對著麥克風哭哩','forbidden term: 麥克風 (meta/world-rules.md)'),
(70,'world','撥轉風頭，徑往西方敗走','跳上一輛摩托車，徑往西方敗走','forbidden term: 摩托車 (meta/world-rules.md)'),
(85,'world','點起齊整軍士，將櫃抬出','點起齊整軍士，開著坦克，將櫃抬出','forbidden term: 坦克 (meta/world-rules.md)'),
]
