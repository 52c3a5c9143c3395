//! Benchmark of the C5 scanner: reward files per second on one core over the mixed labelled
//! corpus (legitimate rewards, hacks, evasions, syntax errors), compared with CPython's own
//! `ast.parse` plus a `NodeVisitor` doing the same kind of walk (imports/aliases, assignments,
//! calls, conditions). Prints medians over several rounds and the ratio. Target: >= 2,000 files/s.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use tuplewright::engine::scan::scan_source;

const ROUNDS: usize = 15;
const FILES_PER_ROUND: usize = 2_000;

const PY_BENCH: &str = r#"
import ast, json, statistics, sys, time

class Walk(ast.NodeVisitor):
    def __init__(self):
        self.aliases, self.consts, self.calls, self.awards, self.conds = {}, {}, [], [], []
    def visit_Import(self, node):
        for a in node.names:
            self.aliases[a.asname or a.name.split(".")[0]] = a.name
    def visit_ImportFrom(self, node):
        for a in node.names:
            self.aliases[a.asname or a.name] = f"{node.module}.{a.name}"
    def visit_Assign(self, node):
        for t in node.targets:
            if isinstance(t, ast.Name):
                self.consts[t.id] = isinstance(node.value, ast.Constant)
        self.generic_visit(node)
    def visit_AugAssign(self, node):
        if isinstance(node.target, ast.Name):
            self.awards.append((node.target.id, node.lineno))
        self.generic_visit(node)
    def visit_If(self, node):
        self.conds.append(node.test)
        self.generic_visit(node)
    def visit_Call(self, node):
        f = node.func
        parts = []
        while isinstance(f, ast.Attribute):
            parts.append(f.attr); f = f.value
        if isinstance(f, ast.Name):
            parts.append(self.aliases.get(f.id, f.id))
        self.calls.append(".".join(reversed(parts)))
        self.generic_visit(node)

sources = json.load(sys.stdin)
rounds, per_round = int(sys.argv[1]), int(sys.argv[2])
rates = []
for _ in range(rounds):
    start = time.perf_counter()
    for i in range(per_round):
        src = sources[i % len(sources)]
        try:
            Walk().visit(ast.parse(src))
        except SyntaxError:
            pass
    rates.append(per_round / (time.perf_counter() - start))
print(json.dumps({"median": statistics.median(rates), "min": min(rates), "max": max(rates)}))
"#;

fn corpus_files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out: Vec<(PathBuf, String)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "py"))
        .filter_map(|e| {
            let text = std::fs::read_to_string(e.path()).ok()?;
            Some((e.into_path(), text))
        })
        .collect();
    out.sort();
    out
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn python_rate(sources: &[String]) -> Result<serde_json::Value, String> {
    let mut script = tempfile::NamedTempFile::new().map_err(|e| e.to_string())?;
    script
        .write_all(PY_BENCH.as_bytes())
        .map_err(|e| e.to_string())?;
    let mut child = Command::new("/usr/bin/python3")
        .arg(script.path())
        .arg(ROUNDS.to_string())
        .arg(FILES_PER_ROUND.to_string())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run /usr/bin/python3: {e}"))?;
    let input = serde_json::to_vec(sources).map_err(|e| e.to_string())?;
    child
        .stdin
        .take()
        .ok_or("no stdin")?
        .write_all(&input)
        .map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("python3 exited with {}", out.status));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())
}

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scan_corpus");
    let files = corpus_files(&dir);
    assert!(!files.is_empty(), "no corpus files under {}", dir.display());
    let sources: Vec<String> = files.iter().map(|(_, s)| s.clone()).collect();
    let bytes: usize = sources.iter().map(String::len).sum();
    println!(
        "scan bench: {} corpus files ({} bytes, mean {} bytes), {ROUNDS} rounds x {FILES_PER_ROUND} files, one thread",
        sources.len(),
        bytes,
        bytes / sources.len()
    );

    let mut sink = 0usize;
    for s in &sources {
        sink += scan_source("warmup.py", s).findings.len();
    }
    let mut rates = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let start = Instant::now();
        for i in 0..FILES_PER_ROUND {
            sink += scan_source("bench.py", &sources[i % sources.len()])
                .findings
                .len();
        }
        rates.push(FILES_PER_ROUND as f64 / start.elapsed().as_secs_f64());
    }
    let ours = median(rates.clone());
    println!(
        "tuplewright scan_source: median {ours:.0} files/s (min {:.0}, max {:.0}); {:.1} us/file; target >= 2000 files/s: {}",
        rates.iter().copied().fold(f64::INFINITY, f64::min),
        rates.iter().copied().fold(0.0, f64::max),
        1e6 / ours,
        if ours >= 2000.0 { "MET" } else { "NOT MET" }
    );

    // Realistic sizes: real reward.py files run 3-8 KB; concatenating legitimate corpus
    // scripts gives valid modules of that size.
    let legit: Vec<&String> = files
        .iter()
        .filter(|(p, _)| p.components().any(|c| c.as_os_str() == "legit"))
        .map(|(_, s)| s)
        .collect();
    let large: Vec<String> = legit
        .chunks(6)
        .map(|c| c.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n"))
        .collect();
    let large_bytes = large.iter().map(String::len).sum::<usize>() / large.len().max(1);
    let mut large_rates = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let start = Instant::now();
        for i in 0..FILES_PER_ROUND / 4 {
            sink += scan_source("large.py", &large[i % large.len()])
                .findings
                .len();
        }
        large_rates.push((FILES_PER_ROUND / 4) as f64 / start.elapsed().as_secs_f64());
    }
    let ours_large = median(large_rates);
    let mut parse_rates = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let start = Instant::now();
        for i in 0..FILES_PER_ROUND / 4 {
            let parsed = ruff_python_parser::parse_module(&large[i % large.len()]);
            sink += usize::from(parsed.is_ok());
        }
        parse_rates.push((FILES_PER_ROUND / 4) as f64 / start.elapsed().as_secs_f64());
    }

    println!(
        "tuplewright scan_source on {}-byte files ({} concatenations of legit rewards): median {ours_large:.0} files/s",
        large_bytes,
        large.len()
    );
    println!(
        "  (parse only, same files: median {:.0} files/s)",
        median(parse_rates)
    );

    match python_rate(&sources) {
        Ok(py) => {
            let py_median = py["median"].as_f64().unwrap_or(f64::NAN);
            println!(
                "CPython ast.parse + NodeVisitor: median {py_median:.0} files/s (min {:.0}, max {:.0})",
                py["min"].as_f64().unwrap_or(f64::NAN),
                py["max"].as_f64().unwrap_or(f64::NAN)
            );
            println!("ratio tuplewright / CPython: {:.2}x", ours / py_median);
        }
        Err(e) => println!("CPython comparison skipped: {e}"),
    }
    match python_rate(&large) {
        Ok(py) => {
            let py_median = py["median"].as_f64().unwrap_or(f64::NAN);
            println!(
                "CPython on the {large_bytes}-byte files: median {py_median:.0} files/s; ratio {:.2}x",
                ours_large / py_median
            );
        }
        Err(e) => println!("CPython comparison (large) skipped: {e}"),
    }
    println!("(findings sink: {sink})");
}
