import sys,importlib.util; sys.path.insert(0,'/work/heldback/fresh8/tools'); from lib import *
for p in sys.argv[1:]:
    sp=importlib.util.spec_from_file_location('d',p); d=importlib.util.module_from_spec(sp); sp.loader.exec_module(d)
    errs=write_entities(d.BOOK,d.ENTS,d.ERA,d.FORBIDDEN,d.RULES)
    for e in errs: print('ERR',e)
    recs=build(d.BOOK,d.PREFIX,d.SPECS,d.ENTS)
    print(d.BOOK,len(d.ENTS),'entities',len(recs),'cases')
