//! Time to build an app from its spec (issue #32): `envgen compile` of every shipped spec pack,
//! from the spec text to the pack's artefacts — parse and check the spec and its seed, derive the
//! layout tree, the observable-change (planner) table, taxonomy, the templates' tasks (not for
//! `derive_tasks = false`, the re-expressed tracker), SKILL.md draft
//! and manifest, and write them atomically. Each pack is copied into a temporary folder first,
//! so the shipped files are never rewritten. A second group times the pure part (parse, check,
//! derive; no file I/O) and the generic UI and planner's build (`SpecUi`, `SpecPlanner`), what a
//! process does the first time it serves a spec app.
//!
//! Run with `cargo bench --bench envgen`. `TW_BENCH_RUNS` sets the runs per app (default 15).
//! Prints the median per app (wall time, and the thread's CPU time, which a loaded machine does
//! not inflate), the median of the per-app medians, the slowest app and the sum.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tuplewright::engine::envgen::{self, compile, derive, planner::SpecPlanner, render::SpecUi};

fn runs() -> usize {
    std::env::var("TW_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(15usize)
        .max(1)
}

/// CPU time of this thread (the build is single-threaded): robust to other processes' load.
fn cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Times `f`: (wall, CPU).
fn timed(f: impl FnOnce()) -> (Duration, Duration) {
    let (w, c) = (Instant::now(), cpu());
    f();
    (w.elapsed(), cpu().saturating_sub(c))
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// The shipped spec packs: every `crates/engine/src/apps/<dir>/` holding an `app.spec.toml`.
fn spec_dirs() -> Vec<PathBuf> {
    let apps = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/src/apps");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&apps)
        .expect("crates/engine/src/apps")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| compile::spec_path(p).is_file())
        .collect();
    dirs.sort();
    dirs
}

/// A copy of pack folder `dir`'s files in a fresh temporary folder.
fn copy(dir: &Path) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    for e in std::fs::read_dir(dir).expect("pack dir").flatten() {
        if e.path().is_file() {
            std::fs::copy(e.path(), tmp.path().join(e.file_name())).expect("copy");
        }
    }
    tmp
}

type Row = (String, Vec<(Duration, Duration)>);

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn report(group: &str, rows: &[Row]) {
    println!("\n{group}");
    let mut walls = Vec::new();
    let mut cpus = Vec::new();
    for (app, times) in rows {
        let w = median(times.iter().map(|t| t.0).collect());
        let c = median(times.iter().map(|t| t.1).collect());
        println!(
            "  {app:<20} median {:>8.2} ms wall, {:>8.2} ms CPU",
            ms(w),
            ms(c)
        );
        walls.push((app, w));
        cpus.push((app, c));
    }
    for (what, v) in [("wall", walls), ("CPU", cpus)] {
        let sum: Duration = v.iter().map(|(_, t)| *t).sum();
        let max = v.iter().max_by_key(|(_, t)| *t).expect("an app");
        println!(
            "  {} apps, {what}: median of medians {:.2} ms, slowest {} {:.2} ms, all apps {:.1} ms",
            v.len(),
            ms(median(v.iter().map(|(_, t)| *t).collect())),
            max.0,
            ms(max.1),
            ms(sum)
        );
    }
}

fn main() {
    let n = runs();
    let dirs = spec_dirs();
    assert!(dirs.len() >= 24, "the shipped spec packs: {dirs:?}");
    let mut full = Vec::new();
    let mut pure = Vec::new();
    let mut ui = Vec::new();
    for dir in &dirs {
        let tmp = copy(dir);
        let mut app = String::new();
        let times = (0..n)
            .map(|_| {
                timed(|| {
                    let done = compile::compile(tmp.path()).expect("a shipped spec compiles");
                    assert!(done.written.len() >= 5, "{}: {:?}", done.app, done.written);
                    app = done.app;
                })
            })
            .collect();
        full.push((app.clone(), times));
        let times = (0..n)
            .map(|_| {
                timed(|| {
                    let (model, seed) = compile::load_dir(dir).expect("spec");
                    std::hint::black_box(derive::files(&model, &seed));
                })
            })
            .collect();
        pure.push((app.clone(), times));
        // The UI and planner are leaked per build (`&'static`, as the registry wants): few runs.
        let times = (0..n.min(5))
            .map(|_| {
                timed(|| {
                    let spec = envgen::load(&compile::spec_path(dir)).expect("spec");
                    let ui = SpecUi::leak(envgen::Model::new(spec));
                    std::hint::black_box(SpecPlanner::new(ui));
                })
            })
            .collect();
        ui.push((app, times));
    }
    println!("envgen: {} spec packs, {n} runs each", dirs.len());
    report(
        "build an app from its spec (envgen compile: parse, check, derive, write)",
        &full,
    );
    report("parse + check + derive, no file I/O", &pure);
    report(
        "generic UI + planner from the spec (SpecUi, SpecPlanner)",
        &ui,
    );
}
