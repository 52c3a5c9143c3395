//! The engine's area dependency graph (#29, #30): areas are the folders `src/engine/<area>/`; an
//! edge `a -> b` is any `crate::engine::b` reference (or `crate::engine::{b, ..}`) in a non-test
//! source file of `a` (`use` lines and paths alike). Strongly connected components of more than
//! one area are import circles; there are none, and none may appear (Cargo forbids a cycle
//! between the crates #30 makes of these areas).
//!
//! The layers, bottom up ([`LAYERS`]): an area imports only areas of its own layer or below.
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
//! Above the engine: `src/apps` (the packs), then the faces (`src/cli`, `src/tui`). Providers sit
//! low (not beside the engine as #30's sketch has them) because the critic (`filter`) and the
//! reward judge (`openenv`) call models. Not an area: the files directly in `src/engine/`
//! (`config.rs`, the configuration root, imports every area; `harness::session` still reads it).

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

/// The areas a path after `crate::engine::` names: `b::…`, or each of `{b, c::…}`.
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

/// Edges `a -> b` with the places (`file:line`) that make them.
fn graph_of(engine: &Path) -> Graph {
    let areas: BTreeSet<String> = fs::read_dir(engine)
        .expect("src/engine")
        .flatten()
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    let mut g = Graph::new();
    for a in &areas {
        let mut files = Vec::new();
        sources(&engine.join(a), &mut files);
        for f in files {
            let text = fs::read_to_string(&f).unwrap_or_default();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for (i, _) in code.match_indices("crate::engine::") {
                    for b in named(&code[i + "crate::engine::".len()..]) {
                        if b != *a && areas.contains(&b) {
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
    let engine = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine");
    let g = graph_of(&engine);
    let found = circles(&g);
    let report: String = found.iter().map(|c| describe(&g, c)).collect();
    assert!(
        found.is_empty(),
        "import circles across engine areas (cut an edge or move the shared type down):\n{report}"
    );
    let areas: BTreeSet<String> = fs::read_dir(&engine)
        .expect("src/engine")
        .flatten()
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .collect();
    for a in &areas {
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
            .insert(b.into(), vec![format!("src/engine/{a}/mod.rs:1")]);
    }
    let found = circles(&g);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0],
        ["a", "b", "c"].iter().map(|s| s.to_string()).collect()
    );
    assert!(describe(&g, &found[0]).contains("c -> a (1 refs, e.g. src/engine/c/mod.rs:1)"));
}
