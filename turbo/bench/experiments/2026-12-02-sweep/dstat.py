import sys
# dstat.py FILE.deflate : raw deflate stream statistics (blocks, literals, matches, header bits)
data=open(sys.argv[1],'rb').read()
pos=0; bit=0
def bits(n):
    global pos,bit
    v=0
    for i in range(n):
        v |= ((data[pos]>>bit)&1)<<i
        bit+=1
        if bit==8: bit=0; pos+=1
    return v
def tell(): return pos*8+bit
def build(lens):
    # canonical decode table: dict (len,code)->sym
    mx=max(lens) if lens else 0
    bl=[0]*(mx+1)
    for l in lens:
        if l: bl[l]+=1
    code=0; nxt=[0]*(mx+2)
    for b in range(1,mx+1):
        code=(code+bl[b-1])<<1; nxt[b]=code
    t={}
    for s,l in enumerate(lens):
        if l: t[(l,nxt[l])]=s; nxt[l]+=1
    return t
def dec(t):
    c=0;l=0
    while True:
        c=(c<<1)|bits(1); l+=1
        if (l,c) in t: return t[(l,c)]
LB=[3,4,5,6,7,8,9,10,11,13,15,17,19,23,27,31,35,43,51,59,67,83,99,115,131,163,195,227,258]
LE=[0,0,0,0,0,0,0,0,1,1,1,1,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,5,0]
DE=[0,0,0,0,1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,8,9,9,10,10,11,11,12,12,13,13]
LLF=[0]*286
nb=0;nl=0;nm=0;mlen=0;hdr=0;dat=0;lc=[0]*29;dc=[0]*30;ext=0
fixl=[8]*144+[9]*112+[7]*24+[8]*8
while True:
    final=bits(1); typ=bits(2); nb+=1; h0=tell()
    if typ==0:
        if bit: bits(8-bit)
        n=bits(16); bits(16); pos+=n; nl+=n
    else:
        if typ==1: lt=build(fixl); dt=build([5]*30)
        else:
            hl=bits(5)+257; hd=bits(5)+1; hc=bits(4)+4
            order=[16,17,18,0,8,7,9,6,10,5,11,4,12,3,13,2,14,1,15]
            cl=[0]*19
            for i in range(hc): cl[order[i]]=bits(3)
            ct=build(cl); L=[]
            while len(L)<hl+hd:
                s=dec(ct)
                if s<16: L.append(s)
                elif s==16: L+= [L[-1]]*(3+bits(2))
                elif s==17: L+=[0]*(3+bits(3))
                else: L+=[0]*(11+bits(7))
            lt=build(L[:hl]); dt=build(L[hl:])
        h1=tell(); hdr+=h1-h0
        while True:
            s=dec(lt)
            if s<256: nl+=1; LLF[s]+=1
            elif s==256: break
            else:
                LLF[s]+=1; k=s-257; ln=LB[k]+bits(LE[k]); d=dec(dt); bits(DE[d]); nm+=1; mlen+=ln; lc[k]+=1; dc[d]+=1; ext+=LE[k]+DE[d]
        dat+=tell()-h1
    if final: break
print("blocks %d hdrbits %d databits %d lits %d matches %d avglen %.2f extra %d"%(nb,hdr,dat,nl,nm,mlen/max(nm,1),ext))
print("lc",lc); print("dc",dc)

if len(sys.argv)>2: open(sys.argv[2],'w').write(' '.join(map(str,LLF[:256]+[1]+LLF[257:286]+dc)))
