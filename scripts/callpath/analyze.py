import re, sys, os, functools
root, tracef = sys.argv[1], sys.argv[2]
ev = []
for line in open(tracef, errors='replace'):
    m = re.match(r'^(>>?) goroutine\((\d+)\): ([^\s(]+(?:\(\*?[\w\[\]., ]+\))?[^\s(]*)', line)
    if m: ev.append((m.group(1), int(m.group(2)), m.group(3)))
def norm(name):
    name = re.sub(r'-fm$', '', name)
    name = re.sub(r'(\.func\d+|\.deferwrap\d+|\.gowrap\d+)+(\.\d+)*$', '', name)
    return name
@functools.lru_cache(None)
def fileof(name):
    m = re.match(r'paygate/(.+?)\.(\(\*?(\w+)\)\.)?(\w+)', name)
    if not m: return None
    pkg, recv, fn = m.group(1), m.group(3), m.group(4)
    d = os.path.join(root, pkg)
    if not os.path.isdir(d): return None
    pat = re.compile(r'^func \(\w* ?\*?%s(\[[^\]]*\])?\) %s[\[(]' % (recv, fn) if recv else r'^func %s[\[(]' % fn, re.M)
    for f in sorted(os.listdir(d)):
        if f.endswith('.go') and not f.endswith('_test.go'):
            if pat.search(open(os.path.join(d, f)).read()): return pkg + '/' + f
    return None
# handler window
start = next(i for i,e in enumerate(ev) if e[0]=='>' and e[2].endswith('httpapi/metering.(*Handler).CallService'))
g = ev[start][1]
end = next(i for i in range(start, len(ev)) if ev[i][0]=='>>' and ev[i][1]==g and ev[i][2].endswith('httpapi/metering.(*Handler).CallService'))
seq = [e for e in ev[start:end+1] if e[1]==g]
# writer goroutines whose first event in the window is batcher.run
seen = set(e[1] for e in ev[:start])
writers = []
for e in ev[start:end+1]:
    if e[1] not in seen and e[1]!=g:
        seen.add(e[1])
        if e[0]=='>' and ('batcher).run' in e[2] or 'enqueue.gowrap' in e[2]): writers.append(e[1])
for w in writers:
    ws = [i for i,e in enumerate(ev) if e[1]==w and i>=start]
    stop = next((i for i in ws if ev[i][0]=='>>' and ev[i][2].endswith('batcher).run')), ws[-1])
    seq += [ev[i] for i in ws if i<=stop]
noise = re.compile(r'sqliteGorm|QuoteTo|BindVarTo|markUnavailable|checkpoint|column\.|moneyWriter|dbTime|toDomain|toRow|sqliteLimit|flush(Users|Keys|Services|Pricing)|Explain|invalidating|storesOn|baseOn|withinTx')
funcs, files, order = [], [], []
trans = []
for kind,gid,name in seq:
    n = norm(name)
    if noise.search(n): continue
    f = fileof(n)
    if not f: continue
    if kind=='>' and n not in funcs: funcs.append(n)
    if f not in files: files.append(f)
    trans.append(f)
# returns to a visited file: transitions into a file left before
visited, left, back, prev = set(), set(), 0, None
for f in trans:
    if f != prev:
        if prev: left.add(prev)
        if f in left: back += 1
        prev = f
print(f"functions {len(funcs)} files {len(files)} returns-to-left-file {back} writer-goroutines {len(writers)}")
print("files in order of first visit:"); [print("  ", f) for f in files]
if len(sys.argv)>3: [print("  fn", x) for x in funcs]
# core-only view
cf=[f for f in funcs if '/core/metering' in f]
cfiles=[]; ct=[]
for kind,gid,name in seq:
    n=norm(name)
    if noise.search(n): continue
    f=fileof(n)
    if not f or not f.startswith('core/metering'): continue
    if f not in cfiles: cfiles.append(f)
    ct.append(f)
left,back,prev=set(),0,None
for f in ct:
    if f!=prev:
        if prev: left.add(prev)
        if f in left: back+=1
        prev=f
print(f"core/metering only: functions {len(cf)} files {len(cfiles)} returns {back}: {' '.join(x.split('/')[-1] for x in cfiles)}")
# upward calls: a call from a file into a file first visited earlier (call-backs up the chain)
def upward(scope):
    stacks={}; order=[]; ups=[]; 
    for kind,gid,name in seq:
        n=norm(name)
        if noise.search(n): continue
        f=fileof(n)
        if not f or not f.startswith(scope): continue
        st=stacks.setdefault(gid,[])
        if kind=='>':
            if f not in order: order.append(f)
            if st and st[-1]!=f and order.index(f) < order.index(st[-1]):
                ups.append(f"{st[-1].split('/')[-1]} -> {f.split('/')[-1]} ({n.split('.')[-1]})")
            st.append(f)
        else:
            if st: st.pop()
    return order, ups
for scope in ['core/metering','']:
    o,u=upward(scope)
    print(f"[{scope or 'all'}] upward calls {len(u)}, distinct {len(set(u))}")
    for x in sorted(set(u)): print('   ',x)
