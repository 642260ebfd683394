from common import *
BOOK='hongloumeng'; PREFIX='hlm'
C='entities/characters/'; L='entities/locations/'
CHARS={
'jia-baoyu':ch('賈寶玉',['寶玉','賈寶玉','寶二爺','寶兄弟','怡紅公子','寶哥哥','二哥哥','寶叔','神瑛侍者'],{'father':'賈政','mother':'王夫人','home':'怡紅院'},'榮府的哥儿，銜玉而生，厭讀經書，偏愛在姊妹丫鬟堆里廝混，終究出家而去．',[],[(C+'lin-daiyu','表兄妹'),(C+'xue-baochai','spouse')]),
'lin-daiyu':ch('林黛玉',['黛玉','林黛玉','林姑娘','林妹妹','顰儿','顰卿','瀟湘妃子','林丫頭','林姐姐','顰丫頭','絳珠'],{'father':'林如海','home':'瀟湘館','ailment':'嗽疾'},'自幼喪母，寄居外祖母家，多愁善病，才思敏捷，終於淚盡而逝．',[{'chapter':99,'status':'dead'}],[(C+'jia-baoyu','表兄妹')]),
'xue-baochai':ch('薛寶釵',['寶釵','薛寶釵','寶姑娘','寶姐姐','蘅蕪君','寶丫頭','薛大姑娘'],{'mother':'薛姨媽','home':'蘅蕪苑'},'薛家姑娘，端莊穩重，人緣極好，后來奉命嫁与寶玉．',[],[(C+'aunt-xue','daughter')]),
'wang-xifeng':ch('王熙鳳',['鳳姐','鳳姐儿','熙鳳','王熙鳳','璉二奶奶','鳳丫頭','璉二嫂子','二嫂子','鳳哥儿','鳳辣子'],{'spouse':'賈璉'},'賈璉之妻，精明強干，當家理事，手段狠辣，后來病逝．',[{'chapter':115,'status':'dead'}],[(C+'jia-lian','spouse')]),
'grandmother-jia':ch('賈母',['賈母','老太太','史太君','老祖宗','老太君'],{},'榮府輩分最高的老祖宗，最疼寶玉和黛玉．',[{'chapter':88,'age_next_year':'八十一歲'},{'chapter':111,'status':'dead'}],[(C+'jia-zheng','mother')]),
'jia-zheng':ch('賈政',['賈政','政老爺','政老爹','存周','賈存周'],{'spouse':'王夫人','mother':'賈母'},'寶玉之父，為人端方，望子成龍，對寶玉極嚴．',[],[(C+'lady-wang','spouse')]),
'lady-wang':ch('王夫人',['王夫人','二太太'],{'spouse':'賈政'},'賈政之妻，寶玉之母，性情寬厚而信佛．',[],[(C+'jia-zheng','spouse')]),
'jia-lian':ch('賈璉',['賈璉','璉二爺','璉儿','璉二哥','璉二叔','璉哥儿'],{'spouse':'王熙鳳','father':'賈赦'},'賈赦之子，好色無行，替家里跑外頭的事．',[],[(C+'wang-xifeng','spouse')]),
'shi-xiangyun':ch('史湘云',['湘云','史湘云','史大姑娘','云妹妹','云丫頭','史妹妹'],{'family':'史家'},'賈母的侄孫女，爽朗豪放，醉臥芍藥叢．',[],[(C+'grandmother-jia','侄孫女')]),
'xiren':ch('襲人',['襲人','珍珠','花姑娘'],{'master':'寶玉','brother':'花自芳','home_distance':'一半里路程'},'寶玉房中首席丫鬟，溫柔和順，后嫁与蔣玉函．',[],[(C+'jia-baoyu','servant')]),
'qingwen':ch('晴雯',['晴雯'],{'master':'寶玉'},'寶玉的丫鬟，心高手巧，病中被攆，含冤而死．',[{'chapter':78,'status':'dead'}],[(C+'jia-baoyu','servant')]),
'qin-keqing':ch('秦可卿',['秦氏','可卿','秦可卿','蓉大奶奶','蓉儿媳婦'],{'spouse':'賈蓉'},'寧府的小蓉大奶奶，生得裊娜纖巧，年紀輕輕便病故．',[{'chapter':14,'status':'dead'}],[]),
'you-sanjie':ch('尤三姐',['尤三姐','三姐'],{'sister':'尤二姐'},'尤氏的繼妹，性情剛烈，為情自刎．',[{'chapter':67,'status':'dead'}],[]),
'you-shi':ch('尤氏',['尤氏','珍大嫂子','珍大奶奶'],{'spouse':'賈珍'},'寧府當家的大奶奶，賈珍的繼室．',[],[]),
'aunt-xue':ch('薛姨媽',['薛姨媽','姨媽','姨太太','薛姨太太'],{'son':'薛蟠','daughter':'薛寶釵'},'寶釵与薛蟠的母親，王夫人的妹妹，帶兒女進京后便寄住在榮府的梨香院一帶．',[],[(C+'xue-baochai','mother'),(C+'lady-wang','sister')]),
'tanchun':ch('探春',['探春','三姑娘','三妹妹','蕉下客','探丫頭','三丫頭'],{'mother':'趙姨娘'},'庶出的三姑娘，精明有志氣，后來遠嫁．',[],[]),
'granny-liu':ch('劉姥姥',['劉姥姥'],{'home':'鄉下'},'鄉下的老寡婦，三進榮國府，后來救了巧姐．',[],[]),
'miaoyu':ch('妙玉',['妙玉','妙師父','檻外人'],{'home':'櫳翠庵'},'帶發修行的尼姑，孤高潔癖，后遭劫．',[],[]),
}
LOCS={
'rongguo-fu':ch('榮國府',['榮府'],{'city':'京都'},'賈母、賈政一支所居的府第．',[],[]),
'ningguo-fu':ch('寧國府',['宁國府'],{'city':'京都'},'賈珍一支所居的府第，与榮府相鄰．',[],[]),
'daguan-yuan':ch('大觀園',[],{'built_for':'元妃省親'},'為元妃歸省而蓋的園子，后來姊妹們都搬進去住．',[],[]),
'xiaoxiang-guan':ch('瀟湘館',[],{'resident':'林黛玉'},'竹林掩映的小院，黛玉所居．',[],[]),
'yihong-yuan':ch('怡紅院',[],{'resident':'賈寶玉'},'寶玉在園中的住處．',[],[]),
}
ERA='清代中期（約十八世紀）'
FORBID=['電視','電腦','收音機','照相機','自行車','打字機','電梯','電扇','電車','電視','汽水','手銬','電影','護照','牙膏','水泥','鐵路','郵票','手電筒','可樂','汽水','坦克','原子筆','拖拉機','高跟鞋','電池']
RULES_DESC='清代中期的貴族世家．禁用詞按繁簡兩種寫法都算．'
def I(n,avoid,s): return ins(BOOK,n,avoid,s)
CASES=[
(20,'name','寶釵','寶衩','寶釵 — entities/characters/xue-baochai.md'),
(43,'name','鳳姐','鳳妲','鳳姐 — entities/characters/wang-xifeng.md'),
(78,'name','襲人','襲仁','襲人 — entities/characters/xiren.md'),
(112,'name','妙玉','秒玉','妙玉 — entities/characters/miaoyu.md'),
(5,'fact','賈珍','賈璉','entities/characters/you-shi.md: spouse = 賈珍','賈珍之妻尤氏'),
(45,'fact','嗽疾','喘疾','entities/characters/lin-daiyu.md: ailment = 嗽疾'),
(88,'fact','八十一歲','七十一歲','entities/characters/grandmother-jia.md: age_next_year = 八十一歲'),
(19,'fact','一半里路程','七八里路程','entities/characters/xiren.md: home_distance = 一半里路程','不過一半里路程'),
(25,'state','忽見襲人招手叫他','忽見秦氏和襲人招手叫他','entities/characters/qin-keqing.md: status = dead (as of chapter 25)'),
(68,'state','二人對見了禮，分序座下．','二人對見了禮，尤三姐也上來見過，分序座下．','entities/characters/you-sanjie.md: status = dead (as of chapter 68)'),
(82,'state','紫鵑打起帘子，寶玉進來坐下．','紫鵑打起帘子，寶玉帶著晴雯進來坐下．','entities/characters/qingwen.md: status = dead (as of chapter 82)'),
(116,'state','此時王夫人等也不及說他','此時王夫人鳳姐等也不及說他','entities/characters/wang-xifeng.md: status = dead (as of chapter 116)'),
(10,'world','坐上車，來家里走走','坐上電車，來家里走走','forbidden term: 電車 (meta/world-rules.md)'),
(60,'world','正值寶釵，黛玉，薛姨媽等吃飯','正值寶釵，黛玉，薛姨媽等圍著電視吃飯','forbidden term: 電視 (meta/world-rules.md)'),
(90,'world','雪雁連忙倒了半鐘滾白水','雪雁連忙倒了半鐘汽水','forbidden term: 汽水 (meta/world-rules.md)'),
(103,'world','也就捆了．','也就上了手銬．','forbidden term: 手銬 (meta/world-rules.md)'),
]
