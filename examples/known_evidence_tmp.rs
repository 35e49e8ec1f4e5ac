use thalia::campaign::evidence::CompiledEvidence;
use thalia::campaign::known::{Evidence, KnownSet};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let spec = &args[1];
    let extra = args.get(2);
    let mut set = KnownSet::embedded().unwrap();
    if let Some(f) = extra { set.add_file(std::path::Path::new(f)).unwrap(); }
    let tc = thalia::toolchain::find(spec).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let ev = CompiledEvidence::new(dir.path(), &[]);
    let label = format!("{}@{}", tc.tool.name(), tc.version);
    ev.add_compiler(&label, tc.clone(), thalia::compile::CompileOptions::default());
    for e in set.entries() {
        if thalia::toolchain::Tool::from_name(&e.compiler) != Some(tc.tool) { continue; }
        let v = ev.verdict(e, &label);
        println!("{}\t{:?}", e.id, v.map(|v| (v.verdict, v.kind.map(|k| k.as_str()), v.signature, v.diagnostic, v.error)));
    }
}
