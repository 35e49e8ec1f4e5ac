#!/usr/bin/env python3
"""Writes the raw seed corpora of the fuzz targets (before `cargo fuzz cmin`).

Run from the repository root: python3 fuzz/seeds/make_seeds.py OUT_DIR
Sources: api-json/ and the API JSON samples of tests/fixtures/api-samples (type strings, API JSON), the JDK's java.base
jmod (class files and their Signature attributes), /usr/share/maven-repo and the test
repository conventions (POMs, maven-metadata.xml), /etc/maven/settings.xml.
"""
import hashlib, json, os, random, re, subprocess, sys, zipfile, glob, io

OUT = sys.argv[1]
random.seed(7)
SAMPLE = "tests/fixtures/api-samples"

def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)

def json_files():
    for root in ["api-json", SAMPLE]:
        for dp, _, fs in os.walk(root):
            for f in fs:
                if f.endswith(".json"):
                    yield os.path.join(dp, f)

# --- type_string: byte 0 = syntax | kind << 2 (see thalia::fuzzing::split_type_input)
SYN = {"java": 0, "groovy": 0, "kotlin": 1, "scala": 2}
types, params, tparams = set(), set(), set()
docs = []
for path in json_files():
    try:
        doc = json.load(open(path))
    except Exception:
        continue
    docs.append((path, doc))
    s = SYN.get(doc.get("language", "java"), 0)
    def ty(t):
        if isinstance(t, str) and t:
            types.add((s, t))
    for t in doc.get("type_parameters") or []:
        tparams.add((s, t))
    for t in (doc.get("implements") or []) + (doc.get("inherits") or []):
        ty(t)
    for m in doc.get("methods") or []:
        ty(m.get("return_type")); ty(m.get("receiver"))
        for p in m.get("parameters") or []:
            if isinstance(p, str):
                params.add((s, p))
        for t in m.get("type_parameters") or []:
            tparams.add((s, t))
    for f in doc.get("fields") or []:
        ty(f.get("type")); ty(f.get("receiver"))
        for t in f.get("type_parameters") or []:
            tparams.add((s, t))
for kind, items in [(0, types), (1, params), (2, tparams)]:
    for s, t in sorted(items):
        put("type_string", bytes([s | (kind << 2)]) + t.encode())
print("type strings", len(types), len(params), len(tparams))

# --- api_json: the sample files, small embedded ones, and arrays of related classes
small = [(p, d) for p, d in docs if os.path.getsize(p) < 6000]
for p, d in docs:
    if p.startswith(SAMPLE) and os.path.getsize(p) < 12000:
        put("api_json", open(p, "rb").read())
random.shuffle(small)
for p, d in small[:40]:
    put("api_json", open(p, "rb").read())
for i in range(10):
    group = random.sample(small, 3)
    put("api_json", json.dumps([d for _, d in group], indent=1))

# --- class_file and jvm_signature: from java.base.jmod
jmod = glob.glob("/usr/lib/jvm/*/jmods/java.base.jmod")[0]
with open(jmod, "rb") as f:
    raw = f.read()
z = zipfile.ZipFile(io.BytesIO(raw[4:]))  # jmods have a 4-byte header
names = sorted(n for n in z.namelist() if n.startswith("classes/java/") and n.endswith(".class"))
picked = [n for n in names if n.endswith(("util/ArrayList.class", "util/Map$Entry.class",
          "util/Optional.class", "lang/Enum.class", "util/function/Function.class",
          "lang/invoke/MethodHandle.class", "util/stream/Collectors.class",
          "lang/Deprecated.class", "util/concurrent/ConcurrentHashMap.class"))]
random.shuffle(names)
for n in names:
    if len(picked) >= 40:
        break
    if n not in picked and z.getinfo(n).file_size < 12000:
        picked.append(n)
picked.append("classes/module-info.class")
sigs = set()
for n in picked:
    b = z.read(n)
    put("class_file", b)
    # Utf8 constants that look like signatures/descriptors
    for m in re.finditer(rb"\x01(..)", b):
        pass
for n in names[:400]:
    b = z.read(n)
    i = 10
    # walk the constant pool for Utf8 entries
    try:
        count = int.from_bytes(b[8:10], "big")
        k = 1
        while k < count:
            tag = b[i]
            if tag == 1:
                ln = int.from_bytes(b[i+1:i+3], "big")
                s = b[i+3:i+3+ln]
                if (s[:1] in (b"(", b"<") or (s[:1] in (b"L", b"[") and s.endswith(b";"))) and len(s) < 300:
                    sigs.add(s)
                i += 3 + ln
            elif tag in (7, 8, 16, 19, 20):
                i += 3
            elif tag == 15:
                i += 4
            elif tag in (3, 4, 9, 10, 11, 12, 17, 18):
                i += 5
            elif tag in (5, 6):
                i += 9; k += 1
            else:
                break
            k += 1
    except IndexError:
        pass
for s in sorted(sigs):
    if s.startswith(b"("):
        put("jvm_signature", b"\x01" + s)
    elif s.startswith(b"<") and b"(" in s:
        put("jvm_signature", b"\x01" + s)
    elif s.startswith(b"<"):
        put("jvm_signature", b"\x00" + s)
    else:
        put("jvm_signature", b"\x02" + s)
        put("jvm_signature", b"\x00" + s)
print("signatures", len(sigs))

# --- maven_pom / maven_metadata: /usr/share/maven-repo
poms = sorted(glob.glob("/usr/share/maven-repo/**/*.pom", recursive=True))
random.shuffle(poms)
for p in poms[:60]:
    if os.path.getsize(p) < 20000:
        put("maven_pom", open(p, "rb").read())
# a POM with its parent chain (NUL-separated), as the resolver assembles it
by_gav = {}
for p in poms:
    try:
        t = open(p, encoding="utf-8", errors="replace").read()
    except Exception:
        continue
    by_gav[p] = t
chains = 0
for p, t in by_gav.items():
    m = re.search(r"<parent>.*?<artifactId>(.*?)</artifactId>.*?<version>(.*?)</version>", t, re.S)
    if not m:
        continue
    cand = glob.glob(f"/usr/share/maven-repo/**/{m.group(1)}/{m.group(2)}/*.pom", recursive=True)
    if cand and len(t) + os.path.getsize(cand[0]) < 30000:
        put("maven_pom", t.encode() + b"\0" + open(cand[0], "rb").read())
        chains += 1
        if chains >= 10:
            break
metas = sorted(glob.glob("/usr/share/maven-repo/**/maven-metadata*.xml", recursive=True))
for p in metas[:20]:
    put("maven_metadata", open(p, "rb").read())
put("maven_metadata", """<?xml version="1.0" encoding="UTF-8"?>
<metadata>
  <groupId>org.example</groupId>
  <artifactId>lib</artifactId>
  <versioning>
    <latest>2.0-SNAPSHOT</latest>
    <release>1.10</release>
    <versions>
      <version>1.0</version><version>1.9</version><version>1.10</version>
      <version>[1.0,2.0)</version><version>2.0-SNAPSHOT</version><version>1.0-alpha-1</version>
    </versions>
    <lastUpdated>20240101000000</lastUpdated>
  </versioning>
</metadata>
""")
put("maven_metadata", "<metadata><version>3.1</version></metadata>")

# --- maven_settings
for p in ["/etc/maven/settings.xml"]:
    if os.path.exists(p):
        put("maven_settings", open(p, "rb").read())
put("maven_settings", """<?xml version="1.0"?>
<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0">
  <localRepository>${user.home}/.m2/repo-${env.FUZZ}</localRepository>
  <mirrors>
    <mirror><id>m1</id><url>http://127.0.0.1:8081/repo</url><mirrorOf>*,!local</mirrorOf></mirror>
  </mirrors>
  <profiles>
    <profile>
      <id>extra</id>
      <activation><activeByDefault>true</activeByDefault></activation>
      <repositories>
        <repository><id>local</id><url>file:///tmp/repo%20x</url>
          <releases><enabled>true</enabled></releases></repository>
        <repository><url>relative/dir</url></repository>
        <repository><id>off</id><url>http://127.0.0.1:1/</url>
          <releases><enabled>false</enabled></releases></repository>
      </repositories>
    </profile>
    <profile><id>other</id><repositories><repository><id>o</id>
      <url>http://127.0.0.1:2/</url></repository></repositories></profile>
  </profiles>
  <activeProfiles><activeProfile>other</activeProfile></activeProfiles>
</settings>
""")
