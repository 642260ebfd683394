def N(ch,old,new,planted,exp,**k): return dict(type='name',ch=ch,old=old,new=new,planted=planted,expected=exp,**k)
def F(ch,old,new,planted,exp,**k): return dict(type='fact',ch=ch,old=old,new=new,planted=planted,expected=exp,**k)
def S(ch,old,new,planted,exp,**k): return dict(type='state',ch=ch,old=old,new=new,planted=planted,expected=exp,**k)
def W(ch,old,new,planted,term,**k): return dict(type='world',ch=ch,old=old,new=new,planted=planted,expected=f'forbidden term: {term} (meta/world-rules.md)',term=term,**k)
