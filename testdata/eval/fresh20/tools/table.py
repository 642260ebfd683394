import json
rows=['| id | ch | type | planted | expected |','|---|---|---|---|---|']
for b in ['hongloumeng','xiyouji','pride-and-prejudice','war-and-peace']:
    for l in open(f'/work/heldback/fresh20/{b}/planted.jsonl',encoding='utf-8'):
        r=json.loads(l)
        rows.append(f"| {r['id']} | {r['chapter']} | {r['type']} | {r['planted'].replace('|','/').replace(chr(10),' ')} | {r['expected']} |")
open('case-table.md','w',encoding='utf-8').write('\n'.join(rows)+'\n')
