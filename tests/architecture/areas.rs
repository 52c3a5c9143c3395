//! The engine's area dependency graph (#29, #30): areas are the folders
//! `crates/<crate>/src/<area>/` of the member crates `tuplewright-base`, `-models`, `-records`
//! and `-engine`; an edge `a -> b` is a `crate::b` reference from an area of the same crate or a
//! `tuplewright_<crate>::b` one (grouped imports `{b, c::…}` too) in a non-test source file of
//! `a`. Cargo forbids a cycle between crates; inside a crate (the engine holds sixteen areas)
//! this test forbids one: strongly connected components of more than one area are import
//! circles.
//!
//! The layers, bottom up ([`LAYERS`]): an area imports only areas of its own layer or below. The
//! crates follow them: `tuplewright-base` is layer 0, `tuplewright-models` layer 1 (but `agents`,
//! which reads the pack registry, is in the engine crate), `tuplewright-records` layer 2,
//! `tuplewright-engine` layers 3 to 6 and the packs (`apps`).
//!
//! 0. foundation: `store` (records, the event bus, controls' rows), `text` (bounded input),
//!    `access`, `agreement`, `hostcap`, `lease`, `limits` (caps, budgets, job controls)
//! 1. models: `providers` (LLM wire, usage, prices, the limit gate), `agents`, `embedder`
//! 2. records: `filter` (critic vote, decisions, outcomes), `curate`, `scan`, `bundle`
//! 3. environments and their state API: `openenv` (external apps, hints, the reward judge), `env`
//! 4. `sandbox`
//! 5. screens: `screen`, `desktop`, `act` (actions, plans, resolvers' vocabulary, rollout errors),
//!    `ui` (the UI server, web/combined screens, resolvers), `osworld` (guest protocol, remote
//!    environments)
//! 6. engine: `harness` (the loop), `rollout`, `envgen`, `worker`, `taskgen`, `jobs`, `stats`
//!
//! Above them: the packs (`crates/engine/crates/engine/src/apps`), then the faces (`crates/tui`, and `src/cli`
//! in the `tuplewright` package). Not an area: the files directly in `crates/engine/src/`
//! (`config.rs`, the configuration root, `probes.rs`, `synth.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers, bottom up; an edge may only point into its own layer or a lower one.
const LAYERS: [&[&str]; 7] = [
    &[
        "store",
        "text",
        "access",
        "agreement",
        "hostcap",
        "lease",
        "limits",
    ],
    &["providers", "agents", "embedder"],
    &["filter", "curate", "scan", "bundle"],
    &["openenv", "env"],
    &["sandbox"],
    &["screen", "desktop", "act", "ui", "osworld"],
    &[
        "harness", "rollout", "envgen", "worker", "taskgen", "jobs", "stats",
    ],
];

type Graph = BTreeMap<String, BTreeMap<String, Vec<String>>>;

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if p.is_dir() {
            if name != "tests" {
                sources(&p, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_tests.rs") {
            out.push(p);
        }
    }
}

/// The areas a path after `crate::architecture::engine::` names: `b::…`, or each of `{b, c::…}`.
fn named(rest: &str) -> Vec<String> {
    let ident = |t: &str| -> String {
        t.trim()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    match rest.strip_prefix('{') {
        Some(group) => group
            .split('}')
            .next()
            .unwrap_or_default()
            .split(',')
            .map(ident)
            .collect(),
        None => vec![ident(rest)],
    }
}

/// The member crates that hold engine areas, bottom up.
const AREA_CRATES: [&str; 4] = ["base", "models", "records", "engine"];

/// Every engine area: `(area, folder)` for each folder `crates/<crate>/src/<area>/` of an
/// [`AREA_CRATES`] crate (the packs, `apps/`, are not an area).
fn areas_of(root: &Path) -> BTreeMap<String, (String, PathBuf)> {
    let mut out = BTreeMap::new();
    for c in AREA_CRATES {
        let src = root.join("crates").join(c).join("src");
        for e in fs::read_dir(&src).expect("crates/<crate>/src").flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if e.path().is_dir() && name != "apps" {
                out.insert(name, (c.to_string(), e.path()));
            }
        }
    }
    out
}

/// Edges `a -> b` with the places (`file:line`) that make them: `crate::b` in `b`'s own crate,
/// `tuplewright_<crate>::b` from another.
fn graph_of(root: &Path) -> Graph {
    let areas = areas_of(root);
    let mut g = Graph::new();
    for (a, (krate, dir)) in &areas {
        let mut files = Vec::new();
        sources(dir, &mut files);
        let prefixes = AREA_CRATES.map(|c| {
            if c == krate {
                "crate::".to_string()
            } else {
                format!("tuplewright_{c}::")
            }
        });
        for f in files {
            let text = fs::read_to_string(&f).unwrap_or_default();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for prefix in &prefixes {
                    for (i, _) in code.match_indices(prefix.as_str()) {
                        for b in named(&code[i + prefix.len()..]) {
                            if b != *a && areas.contains_key(&b) {
                                g.entry(a.clone())
                                    .or_default()
                                    .entry(b)
                                    .or_default()
                                    .push(format!("{}:{}", f.display(), n + 1));
                            }
                        }
                    }
                }
            }
        }
    }
    g
}

/// Strongly connected components with more than one area (Tarjan).
fn circles(g: &Graph) -> Vec<BTreeSet<String>> {
    struct T<'a> {
        g: &'a Graph,
        next: usize,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        out: Vec<BTreeSet<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        t.index.insert(v, t.next);
        t.low.insert(v, t.next);
        t.next += 1;
        t.stack.push(v);
        let g = t.g;
        for w in g.get(v).into_iter().flat_map(|m| m.keys()) {
            let w = w.as_str();
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low[v];
                t.low.insert(v, lv.min(lw));
            } else if t.stack.contains(&w) {
                let iw = t.index[w];
                let lv = t.low[v];
                t.low.insert(v, lv.min(iw));
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = BTreeSet::new();
            while let Some(w) = t.stack.pop() {
                comp.insert(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        g,
        next: 0,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

fn describe(g: &Graph, comp: &BTreeSet<String>) -> String {
    let mut s = format!("circle of {} areas: {comp:?}\n", comp.len());
    for a in comp {
        for (b, places) in g.get(a).into_iter().flatten() {
            if comp.contains(b) {
                s.push_str(&format!(
                    "  {a} -> {b} ({} refs, e.g. {})\n",
                    places.len(),
                    places[0]
                ));
            }
        }
    }
    s
}

fn layer_of(area: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&area))
}

#[test]
fn no_import_circle_and_every_edge_points_down_the_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let g = graph_of(root);
    let found = circles(&g);
    let report: String = found.iter().map(|c| describe(&g, c)).collect();
    assert!(
        found.is_empty(),
        "import circles across engine areas (cut an edge or move the shared type down):\n{report}"
    );
    for a in areas_of(root).keys() {
        assert!(
            layer_of(a).is_some(),
            "area {a} is in no layer: add it to LAYERS in tests/architecture/areas.rs"
        );
    }
    let mut upward = String::new();
    for (a, outs) in &g {
        for (b, places) in outs {
            if layer_of(b) > layer_of(a) {
                upward.push_str(&format!(
                    "  {a} (layer {:?}) -> {b} (layer {:?}), e.g. {}\n",
                    layer_of(a),
                    layer_of(b),
                    places[0]
                ));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports pointing up the layers:\n{upward}"
    );
}

#[test]
fn the_graph_reader_sees_grouped_imports() {
    assert_eq!(named("store::Bus;"), vec!["store"]);
    assert_eq!(
        named("{screen::Shot, act::ui_plan::Target};"),
        vec!["screen", "act"]
    );
}

#[test]
fn the_circle_finder_finds_a_circle_and_names_its_edges() {
    // The check above must be able to fail: a made-up graph a -> b -> c -> a, c -> d.
    let mut g = Graph::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        g.entry(a.into())
            .or_default()
            .insert(b.into(), vec![format!("crates/engine/src/{a}/mod.rs:1")]);
    }
    let found = circles(&g);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0],
        ["a", "b", "c"].iter().map(|s| s.to_string()).collect()
    );
    assert!(describe(&g, &found[0]).contains("c -> a (1 refs, e.g. crates/engine/src/c/mod.rs:1)"));
}
