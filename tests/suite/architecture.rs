//! The source files' references point one way: no file reaches, through `crate::` and `super::`
//! paths, a file that reaches it back (crates are checked by `scripts/check-crates.sh` and by
//! cargo itself). A module's `mod.rs` or `lib.rs` (its list of submodules and re-exports) is left
//! out of the graph: a child naming an item its parent re-exports is not a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The file of the deepest module that `parts` name under `dir` (`a::b::Item` is `a/b.rs` or
/// `a/b/mod.rs` when that exists, else `a.rs`), `None` when the first names no file.
fn module_file(dir: &Path, parts: &[&str]) -> Option<PathBuf> {
    let mut found = None;
    let mut here = dir.to_path_buf();
    for part in parts {
        let (file, folder) = (here.join(format!("{part}.rs")), here.join(part));
        if file.is_file() {
            found = Some(file);
        } else if folder.join("mod.rs").is_file() {
            found = Some(folder.join("mod.rs"));
        } else {
            break;
        }
        here = folder;
    }
    found
}

/// The code of a file without its comments and its test module (tests may reach anything).
fn code(text: &str) -> String {
    let text = text
        .split("#[cfg(test)]\nmod tests")
        .next()
        .unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Each path after `prefix` (`crate::` or `super::`) in `code`: its `::`-separated lowercase
/// parts.
fn paths_after<'a>(code: &'a str, prefix: &str) -> Vec<Vec<&'a str>> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let rest = &code[at + prefix.len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let parts: Vec<&str> = rest[..end].split("::").filter(|p| !p.is_empty()).collect();
        if !parts.is_empty() {
            out.push(parts);
        }
    }
    out
}

/// The repository's file graph: each source file and the files its paths reach.
fn graph(root: &Path) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mut sources = vec![root.join("src")];
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        sources.push(entry.unwrap().path().join("src"));
    }
    let mut edges = BTreeMap::new();
    for src in sources {
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for file in files {
            let name = file.file_name().unwrap().to_str().unwrap();
            if ["mod.rs", "lib.rs", "main.rs"].contains(&name) {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            let code = code(&text);
            let parent = file.parent().unwrap();
            let mut reached = BTreeSet::new();
            for parts in paths_after(&code, "crate::") {
                reached.extend(module_file(&src, &parts));
            }
            for parts in paths_after(&code, "super::") {
                reached.extend(module_file(parent, &parts));
            }
            reached.remove(&file);
            reached.retain(|f| !f.ends_with("mod.rs") && !f.ends_with("lib.rs"));
            edges.insert(file, reached);
        }
    }
    edges
}

/// The groups of files that reach each other (Tarjan's strongly connected components of more
/// than one file).
fn cycles(edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        on_stack: BTreeSet<&'a PathBuf>,
        found: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(w: &mut Walk<'a>, v: &'a PathBuf) {
        let n = w.index.len();
        w.index.insert(v, n);
        w.low.insert(v, n);
        w.stack.push(v);
        w.on_stack.insert(v);
        let edges = w.edges;
        for next in edges.get(v).into_iter().flatten() {
            if !w.index.contains_key(next) {
                visit(w, next);
                let low = w.low[v].min(w.low[next]);
                w.low.insert(v, low);
            } else if w.on_stack.contains(next) {
                let low = w.low[v].min(w.index[next]);
                w.low.insert(v, low);
            }
        }
        if w.low[v] == w.index[v] {
            let mut group = Vec::new();
            while let Some(f) = w.stack.pop() {
                w.on_stack.remove(f);
                group.push(f.clone());
                if f == v {
                    break;
                }
            }
            if group.len() > 1 {
                w.found.push(group);
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            visit(&mut walk, v);
        }
    }
    walk.found
}

#[test]
fn no_two_source_files_reach_each_other() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let edges = graph(root);
    assert!(edges.len() > 150, "{} files read", edges.len());
    let found = cycles(&edges);
    assert!(found.is_empty(), "files that reach each other: {found:#?}");
}

#[test]
fn the_cycle_finder_finds_a_planted_cycle_and_resolves_paths_to_files() {
    // Two files that name each other, a third that names one of them.
    let dir = std::env::temp_dir().join(format!("skinscope-cycles-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("a")).unwrap();
    std::fs::create_dir_all(dir.join("crates")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod a;\npub mod c;\n").unwrap();
    std::fs::write(src.join("a/mod.rs"), "pub mod b;\npub mod d;\n").unwrap();
    std::fs::write(src.join("a/b.rs"), "use super::d::Thing;\n").unwrap();
    std::fs::write(
        src.join("a/d.rs"),
        "// crate::c is only in a comment\nfn f() { crate::a::b::g(); }\n",
    )
    .unwrap();
    std::fs::write(src.join("c.rs"), "use crate::a::d::Thing;\n").unwrap();
    let edges = graph(&dir);
    assert_eq!(
        edges[&src.join("c.rs")],
        BTreeSet::from([src.join("a/d.rs")])
    );
    let found = cycles(&edges);
    assert_eq!(found.len(), 1, "{found:?}");
    let group: BTreeSet<_> = found[0].iter().cloned().collect();
    assert_eq!(
        group,
        BTreeSet::from([src.join("a/b.rs"), src.join("a/d.rs")])
    );
    std::fs::remove_dir_all(&dir).ok();
}
