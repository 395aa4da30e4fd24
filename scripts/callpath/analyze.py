# Reads a `dlv trace` of one request (run.sh) and prints the path it took.
# Usage: analyze.py REPO TRACE ROUTE END SCOPES [-v]
#   ROUTE   regular expression of the route's function: the window opens at
#           its first call and closes at its return,
#   END     when not empty, a regular expression of the function whose first
#           return (in the route's goroutine) closes the window instead,
#   SCOPES  comma-separated folders of the core's view (core/metering, ...).
import re, sys, os, functools
root, tracef, route, endf, scopes = sys.argv[1:6]
route, endf = re.compile(route), re.compile(endf) if endf else None
scopes = scopes.split(',')
verbose = len(sys.argv) > 6
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
# the route's window, in its goroutine
start = next(i for i,e in enumerate(ev) if e[0]=='>' and route.search(e[2]))
g = ev[start][1]
def closes(e):
    if e[0] != '>>' or e[1] != g: return False
    return bool(endf.search(e[2])) if endf else bool(route.search(e[2]))
end = next(i for i in range(start, len(ev)) if closes(ev[i]))
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
noise = re.compile(r'sqliteGorm|QuoteTo|BindVarTo|markUnavailable|checkpoint|[cC]olumn\.|[mM]oneyWriter|(dbTime|DBTime)|toDomain|toRow|sqliteLimit|flush(Users|Keys|Services|Pricing)|Explain|invalidating|storesOn|baseOn|withinTx')
def walk(inscope):
    """functions (first call order), files (first visit order), returns to a file left"""
    funcs, files, trans = [], [], []
    for kind,gid,name in seq:
        n = norm(name)
        if noise.search(n): continue
        f = fileof(n)
        if not f or not inscope(f): continue
        if kind=='>' and n not in funcs: funcs.append(n)
        if f not in files: files.append(f)
        trans.append(f)
    left, back, prev = set(), 0, None
    for f in trans:
        if f != prev:
            if prev: left.add(prev)
            if f in left: back += 1
            prev = f
    return funcs, files, back
funcs, files, back = walk(lambda f: True)
print(f"functions {len(funcs)} files {len(files)} returns-to-left-file {back} writer-goroutines {len(writers)}")
print("files in order of first visit:"); [print("  ", f) for f in files]
if verbose: [print("  fn", x) for x in funcs]
incore = lambda f: any(f.startswith(s + '/') for s in scopes)
cf, cfiles, cback = walk(incore)
print(f"{' + '.join(scopes)} only: functions {len(cf)} files {len(cfiles)} returns {cback}: {' '.join(x.split('/')[-1] for x in cfiles)}")
# upward calls: a call from a file into a file first visited earlier (call-backs up the chain)
def upward(inscope):
    stacks={}; order=[]; ups=[]
    for kind,gid,name in seq:
        n=norm(name)
        if noise.search(n): continue
        f=fileof(n)
        if not f or not inscope(f): continue
        st=stacks.setdefault(gid,[])
        if kind=='>':
            if f not in order: order.append(f)
            if st and st[-1][0]!=f and order.index(f) < order.index(st[-1][0]):
                ups.append(f"{st[-1][0].split('/')[-1]} -> {f.split('/')[-1]} ({n.split('.')[-1]})")
            st.append((f, n))
        elif (f, n) in st:
            # a return pops its own frame (and any frame whose return the
            # trace missed); a return without its call (a deferred
            # function's, named like its function) pops nothing
            while st.pop() != (f, n): pass
    return order, ups
for label, inscope in [(' + '.join(scopes), incore), ('all', lambda f: True)]:
    o,u=upward(inscope)
    print(f"[{label}] upward calls {len(u)}, distinct {len(set(u))}")
    for x in sorted(set(u)): print('   ',x)
