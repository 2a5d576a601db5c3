# minimal protobuf wire decoder for BufferAssignmentProto (research only)
def varint(b,i):
    r=0;s=0
    while True:
        c=b[i];i+=1;r|=(c&0x7f)<<s;s+=7
        if c<0x80: return r,i
def fields(b):
    i=0;out=[]
    while i<len(b):
        k,i=varint(b,i);f,t=k>>3,k&7
        if t==0: v,i=varint(b,i)
        elif t==2:
            n,i=varint(b,i);v=b[i:i+n];i+=n
        elif t==1: v=b[i:i+8];i+=8
        elif t==5: v=b[i:i+4];i+=4
        else: raise Exception(t)
        out.append((f,v))
    return out
def get(fs,n,d=0):
    for f,v in fs:
        if f==n: return v
    return d
def summary(ser):
    top=fields(ser)
    lb={}
    for f,v in top:
        if f==1:
            x=fields(v); lb[get(x,1)]=(get(x,2),get(x,4))
    traces=[]
    for f,v in top:
        if f==4:
            x=fields(v); evs=[]
            for g,e in x:
                if g==1:
                    y=fields(e); evs.append((['ALLOC','FREE','SHARE'][get(y,1)],get(y,2),get(y,4,b'').decode(),get(y,5)))
            traces.append((get(x,3),get(x,2),evs))
    return lb,traces
def peak(ser):
    top=fields(ser); lb,traces=summary(ser)
    static=0
    for f,v in top:
        if f==3:
            a=fields(v)
            # BufferAllocationProto: index1 size2 is_thread_local3 is_tuple11 is_entry_computation_parameter5 is_constant12 parameter_number6 maybe_live_out7 color8 assigned9
            if get(a,3) or not (get(a,5) or get(a,12) or get(a,7)): continue
            best=0
            for g,asg in a:
                if g==9:
                    y=fields(asg); s=lb.get(get(y,1),(0,0))[0]; best=max(best,s)
            static+=best
    mem=static;pk=mem;ref={};under={}
    for idx,whole,evs in traces:
        for k,bid,name,can in evs:
            if k=='ALLOC':
                ref[bid]=ref.get(bid,0)+1
                if ref[bid]==1: mem+=lb[bid][0]
            elif k=='FREE':
                r=bid
                while r in under: r=under[r]
                under.pop(bid,None)
                ref[r]-=1
                if ref[r]==0: mem-=lb[r][0]
            else:
                r=can
                while r in under: r=under[r]
                under[bid]=r; ref[r]=ref.get(r,0)+1
                if ref[r]==1: mem+=lb[r][0]
            pk=max(pk,mem)
    return static,pk
