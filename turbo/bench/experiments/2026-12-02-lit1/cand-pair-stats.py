import sys, zlib, collections
def rev(c, n):
    r = 0
    for _ in range(n): r = (r << 1) | (c & 1); c >>= 1
    return r
def build(lens):
    # returns dict (reversed code, len) -> sym via table of maxbits
    maxl = max(lens) if any(lens) else 1
    bl = collections.Counter(l for l in lens if l)
    code = 0; nxt = {}
    for b in range(1, maxl+1):
        code = (code + bl.get(b-1, 0)) << 1 if b > 1 else 0
        nxt[b] = code
    tab = [None] * (1 << maxl)
    for s, l in enumerate(lens):
        if l:
            c = rev(nxt[l], l); nxt[l] += 1
            for i in range(c, 1 << maxl, 1 << l): tab[i] = (s, l)
    return tab, maxl
LB=[3,4,5,6,7,8,9,10,11,13,15,17,19,23,27,31,35,43,51,59,67,83,99,115,131,163,195,227,258]
LE=[0,0,0,0,0,0,0,0,1,1,1,1,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,5,0]
DE=[0,0,0,0,1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,8,9,9,10,10,11,11,12,12,13,13]
def run(path, level=1):
    data = open(path,'rb').read()
    comp = zlib.compress(data, level)[2:]
    comp += bytes(16)
    pos = 0
    def peek(p):
        b = p >> 3
        return int.from_bytes(comp[b:b+8], 'little') >> (p & 7)
    def get(n):
        nonlocal pos
        v = peek(pos) & ((1 << n) - 1); pos += n; return v
    # to speed up: take a window
    fixed_l = [8]*144+[9]*112+[7]*24+[8]*8
    st = collections.Counter(); litlen = collections.Counter(); pairs = collections.Counter()
    blocks = []; nsym=0
    final = 0
    while not final:
        final = get(1); t = get(2)
        if t == 0:
            pos = (pos + 7) & ~7; ln = get(16); get(16); pos += 8*ln; blocks.append(('stored', ln)); continue
        if t == 1:
            ll = fixed_l; dl = [5]*30
        else:
            hlit = get(5)+257; hdist = get(5)+1; hclen = get(4)+4
            order=[16,17,18,0,8,7,9,6,10,5,11,4,12,3,13,2,14,1,15]
            cl=[0]*19
            for i in range(hclen): cl[order[i]] = get(3)
            ct, cm = build(cl); lens=[]
            while len(lens) < hlit+hdist:
                s, l = ct[peek(pos) & ((1<<cm)-1)]; pos += l
                if s < 16: lens.append(s)
                elif s == 16: lens += [lens[-1]]*(3+get(2))
                elif s == 17: lens += [0]*(3+get(3))
                else: lens += [0]*(11+get(7))
            ll = lens[:hlit]; dl = lens[hlit:]
        lt, lm = build(ll); dt, dm = build(dl) if any(dl) else (None, 0)
        lmask = (1<<lm)-1; dmask=(1<<dm)-1
        prev = None; bsym = 0; blit=0
        while True:
            s, l = lt[peek(pos) & lmask]; pos += l; bsym += 1
            if s < 256:
                litlen[l] += 1; blit += 1
                if prev is not None:
                    for N in (10,11,12,13,14): 
                        if prev + l <= N: pairs[N] += 1
                    st['litlit'] += 1
                prev = l
                continue
            prev = None
            if s == 256: break
            st['match'] += 1
            get(LE[s-257])
            ds, dl_ = dt[peek(pos) & dmask]; pos += dl_
            get(DE[ds])
        blocks.append((t, bsym, blit))
    nl = sum(litlen.values())
    print(path.split('/')[-1], 'blocks', len(blocks), 'avg sym/block %.0f' % (sum(b[1] for b in blocks if b[0]!='stored')/len(blocks)),
          'lits', nl, 'matches', st['match'], 'lit->lit', st['litlit'])
    print('  litlen dist', {k: '%.3f' % (v/nl) for k, v in sorted(litlen.items())})
    print('  pair fraction of lit->lit (l1+l2<=N):', {N: '%.3f' % (pairs[N]/max(1,st['litlit'])) for N in sorted(pairs)})
    print('  block types', collections.Counter(b[0] for b in blocks))
for p in sys.argv[1:]: run(p)
