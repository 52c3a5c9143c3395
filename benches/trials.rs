//! Screen trials: where screenshots live, and how fast the files desktop is ready.
//!
//! 1. Storing a 100-step trial (100 distinct 1280×800 PNGs of a desktop-like frame) in one
//!    transaction, two ways: the store's way (files in `<store>.screens/`, fsynced before the row
//!    commits) versus the PNG bytes inside SQLite (a `BLOB` column in the same WAL database).
//!    Prints the insert medians, the resulting sizes on disk and a one-step read median.
//! 2. `files` desktop ready (Xvfb, window manager, file manager, editor, terminal, first
//!    non-blank frame) — target ≤ 5 s, median (needs .ci/setup's packages; skipped otherwise).
//!
//! Run: `cargo bench --bench trials`. `TW_BENCH_RUNS` sets the runs per figure (default 5).

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use tuplewright::engine::screen::encode_png;
use tuplewright::engine::store::{NewStep, Rollout, Store, StoreError, TaskRecord};

const W: u32 = 1280;
const H: u32 = 800;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A desktop-like frame: panels, "text" rows of dark glyph blocks, a window that moves per step.
fn frame(step: u32) -> Vec<u8> {
    let mut rgb = vec![0xf0u8; (W * H * 3) as usize];
    let mut put = |x: u32, y: u32, c: [u8; 3]| {
        if x < W && y < H {
            let i = ((y * W + x) * 3) as usize;
            rgb[i..i + 3].copy_from_slice(&c);
        }
    };
    for y in 0..28 {
        for x in 0..W {
            put(x, y, [0x30, 0x34, 0x40]);
        }
    }
    let (wx, wy) = (100 + (step * 7) % 400, 80 + (step * 3) % 200);
    for row in 0..30 {
        for col in 0..70 {
            let seed = (row * 131 + col * 17 + step * 7) % 23;
            if seed < 14 {
                for dy in 0..9 {
                    for dx in 0..6 {
                        put(
                            wx + col * 9 + dx,
                            wy + 30 + row * 16 + dy,
                            [0x20, 0x20, 0x20],
                        );
                    }
                }
            }
        }
    }
    rgb
}

fn task() -> TaskRecord {
    TaskRecord {
        task_id: "bench".into(),
        instruction: "bench".into(),
        context: String::new(),
        labels: Default::default(),
        app_type: None,
        original_json: json!({}),
        origin: "bench".into(),
    }
}

fn rollout(trial: i64) -> Rollout {
    Rollout {
        task_id: "bench".into(),
        model: "ui-oracle".into(),
        trial,
        reward: Some(1.0),
        judge_verdict: None,
        failure: None,
        detail: json!({}),
        created_at: None,
    }
}

fn size_of(path: &Path) -> u64 {
    walkdir::WalkDir::new(path)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len())
        .sum()
}

fn storage(runs: usize) -> Result<(), Box<dyn std::error::Error>> {
    let pngs: Vec<Vec<u8>> = (0..100)
        .map(|i| encode_png(&frame(i), W, H))
        .collect::<Result<_, _>>()?;
    let mean_png = pngs.iter().map(Vec::len).sum::<usize>() / pngs.len();
    let action = json!({"action": "left_click", "x": 640, "y": 400});
    let steps: Vec<NewStep<'_>> = pngs
        .iter()
        .enumerate()
        .map(|(i, p)| NewStep {
            action: &action,
            at_ms: i as u64 * 120,
            duration_ms: 4,
            error: None,
            settle_ms: None,
            screenshot_png: Some(p),
        })
        .collect();
    let dir = tempfile::tempdir()?;
    let timeout = Duration::from_secs(5);

    // The store's way: files beside the store.
    let db = dir.path().join("files.db");
    let mut store = Store::open(&db, timeout)?;
    store.write(|tx| tx.upsert_task(&task()).map(|_| ()))?;
    let mut files_runs = Vec::new();
    let mut last = 0;
    for n in 0..runs {
        let t = Instant::now();
        last = store.write(|tx| {
            let id = tx.record_rollout(&rollout(n as i64))?;
            tx.record_trial_steps(id, &steps)?;
            Ok::<_, StoreError>(id)
        })?;
        files_runs.push(t.elapsed());
        if n + 1 < runs {
            store.remove_rollout(last)?;
        }
    }
    let reads: Vec<Duration> = (0..50)
        .map(|i| {
            let t = Instant::now();
            let steps = store.trial_steps(last).expect("steps");
            let sha = &steps[i % 100].screenshot.as_ref().expect("shot").sha256;
            store.screenshot_png(sha).expect("png");
            t.elapsed()
        })
        .collect();
    store
        .conn()
        .execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")?;
    let files_db = std::fs::metadata(&db)?.len();
    let files_dir = size_of(store.screenshots().root());

    // The alternative: the PNG bytes in a BLOB column of the same kind of database.
    let inline = dir.path().join("inline.db");
    let mut conn = rusqlite::Connection::open(&inline)?;
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
         CREATE TABLE shots (sha256 TEXT PRIMARY KEY, png BLOB NOT NULL) WITHOUT ROWID;
         CREATE TABLE steps (trial INTEGER, seq INTEGER, action_json TEXT, sha TEXT,
             PRIMARY KEY (trial, seq)) WITHOUT ROWID;",
    )?;
    let mut inline_runs = Vec::new();
    for n in 0..runs {
        let t = Instant::now();
        let tx = conn.transaction()?;
        for (i, p) in pngs.iter().enumerate() {
            let sha = tuplewright::engine::store::sha256_of_bytes(p);
            tx.execute(
                "INSERT OR IGNORE INTO shots (sha256, png) VALUES (?1, ?2)",
                rusqlite::params![sha, p],
            )?;
            tx.execute(
                "INSERT INTO steps VALUES (?1, ?2, ?3, ?4)",
                rusqlite::params![n as i64, i as i64, action.to_string(), sha],
            )?;
        }
        tx.commit()?;
        inline_runs.push(t.elapsed());
        if n + 1 < runs {
            conn.execute_batch("DELETE FROM steps; DELETE FROM shots;")?;
        }
    }
    let inline_reads: Vec<Duration> = (0..50)
        .map(|i| {
            let t = Instant::now();
            let _: Vec<u8> = conn
                .query_row(
                    "SELECT png FROM shots WHERE sha256 = (SELECT sha FROM steps WHERE seq = ?1)",
                    [i as i64 % 100],
                    |r| r.get(0),
                )
                .expect("png");
            t.elapsed()
        })
        .collect();
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")?;
    let inline_db = std::fs::metadata(&inline)?.len();

    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    println!(
        "trials/100-step PNGs: mean {:.1} KiB per screenshot",
        mean_png as f64 / 1024.0
    );
    println!(
        "trials/insert_100_steps_files_beside   median {:8.1} ms over {runs}  db {:.2} MiB + dir {:.2} MiB",
        ms(median(files_runs)),
        mib(files_db),
        mib(files_dir)
    );
    println!(
        "trials/insert_100_steps_inside_sqlite  median {:8.1} ms over {runs}  db {:.2} MiB (after deletes: freelist kept)",
        ms(median(inline_runs)),
        mib(inline_db)
    );
    println!(
        "trials/read_one_step_png files {:.3} ms, sqlite {:.3} ms (median of 50)",
        ms(median(reads)),
        ms(median(inline_reads))
    );
    Ok(())
}

/// Desktop ready: display, window manager, file manager and terminal managed, first settled frame.
fn desktop(runs: usize) -> Result<(), Box<dyn std::error::Error>> {
    use std::os::unix::fs::PermissionsExt;
    use tuplewright::engine::screen::{DesktopSpec, Screen, ScreenConfig};
    let cfg = ScreenConfig::default();
    if which("openbox").is_none() || which("Xvfb").is_none() {
        println!("trials/desktop_ready skipped: openbox or Xvfb missing (run .ci/setup)");
        return Ok(());
    }
    let mut ready = Vec::new();
    let mut pss = 0.0;
    for n in 0..runs {
        let dir = tempfile::tempdir()?;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))?;
        let home = dir.path().join("home");
        tuplewright::engine::env::files::provision_home(&home, None)?;
        let t = Instant::now();
        let mut s = Screen::start(&cfg, cfg.size_for("files"))?;
        s.open_desktop(&cfg, &DesktopSpec { home })?;
        ready.push(t.elapsed());
        if n == 0 {
            pss = pss_mib(s.work_dir());
        }
    }
    println!(
        "trials/desktop_ready              median {:8.0} ms over {runs} (target <= 5000)  ratio {:.2}",
        ms(median(ready.clone())),
        ms(median(ready)) / 5000.0
    );
    println!(
        "trials/memory_per_desktop_env    pss    {pss:8.1} MiB (Xvfb + openbox + pcmanfm + xterm)"
    );
    Ok(())
}

fn which(program: &str) -> Option<std::path::PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| Path::new(d).join(program))
        .find(|p| p.is_file())
}

/// Proportional set size of every process of a screen, in MiB.
fn pss_mib(marker: &Path) -> f64 {
    let procs = tuplewright::engine::screen::screen_processes(marker);
    let mut kib = 0u64;
    for pid in procs {
        let rollup =
            std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).unwrap_or_default();
        for line in rollup.lines() {
            if let Some(v) = line.strip_prefix("Pss:") {
                kib += v
                    .trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<u64>()
                    .unwrap_or(0);
            }
        }
    }
    kib as f64 / 1024.0
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runs = std::env::var("TW_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5usize)
        .max(1);
    storage(runs)?;
    desktop(runs)?;
    Ok(())
}
