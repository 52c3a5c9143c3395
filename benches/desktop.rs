//! Desktop applications (#31): how fast a LibreOffice Calc environment is ready with its document
//! open (and where that time goes), how long a reset between trials takes, how much memory one
//! environment uses, four environments at once, and — with `TW_BENCH_LOOP=N` — the loop's wall
//! time per accepted tuple and ui-oracle trials per hour on the first N shipped Calc tasks.
//!
//! Each trial: a fresh home (the pack's seed), a new screen (Xvfb, openbox), the session bus and
//! Calc started from a recorded setup launch (`libreoffice --calc /home/user/…xlsx`) with a fresh
//! profile, until the ready gate passes ([`Screen::open_apps_timed`]: Calc's window mapped with
//! the document's title, the screen quiet, drawn). Reset = dropping the screen (every program
//! killed) and removing the home. Memory = the proportional set size (PSS) of every process of
//! the screen, summed, once ready.
//!
//! Pool on: the same request answered by [`Pool::acquire`] (`[desktop] pool`): a pre-started
//! environment (X, openbox, the bus, Calc running with no document) handed the task's launch.
//!
//! Run: `cargo bench --profile dev --bench desktop`. `TW_BENCH_RUNS` sets the trials (default 8),
//! `TW_BENCH_POOL` the pooled trials (default: as many), `TW_BENCH_HOLD_S` how long each pooled
//! trial holds its environment (default 20 s: the next one is started meanwhile; a cold start
//! follows each, for pool on vs off at the same load), `TW_BENCH_FOUR=0` skips the four at once,
//! `TW_BENCH_LOOP` the tasks of the loop/ui-oracle part (default 0: skipped, it takes minutes).
//! Needs .ci/setup's packages; skipped when `libreoffice` is missing.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use tuplewright::engine::desktop::pool::Pool;
use tuplewright::engine::rollout::desktop_apps::screen_apps;
use tuplewright::engine::screen::{
    screen_processes, AppDesktopSpec, ReadyPhases, Screen, ScreenConfig, ScreenSize,
};

type Res<T> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

fn pct(v: &[Duration], p: f64) -> f64 {
    let mut v = v.to_vec();
    v.sort();
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[i].as_secs_f64() * 1000.0
}

fn pss_kib(pid: i32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup"))
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("Pss:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

/// One Calc environment made ready: (ready time, phases incl. the X server, PSS KiB, reset time).
fn one_environment(
    cfg: &ScreenConfig,
    check_complete: bool,
) -> Res<(Duration, ReadyPhases, u64, Duration, bool, Duration)> {
    let apps = vec!["libreoffice_calc".to_string()];
    let lines = vec!["libreoffice --calc /home/user/Documents/sales-2025.xlsx".to_string()];
    let dir = tempfile::tempdir()?;
    std::fs::set_permissions(
        dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )?;
    let home = dir.path().join("home");
    let t = Instant::now();
    tuplewright::engine::env::files::provision_home_for(&home, &apps)?;
    let mut screen = Screen::start(cfg, ScreenSize::default())?;
    let started = t.elapsed();
    let spec = AppDesktopSpec {
        home: home.clone(),
        files: false,
        apps: screen_apps(&apps, &lines)?,
    };
    let (shot, mut phases) = screen.open_apps_timed(cfg, &spec)?;
    let ready = t.elapsed();
    let cpu = Duration::from_millis(cpu_ms(screen.work_dir()));
    let mut complete = true;
    if check_complete {
        // The ready gate should not pass mid-draw: is the screen it returned the screen later?
        std::thread::sleep(Duration::from_secs(3));
        complete = screen.screenshot()?.png == shot.png;
    }
    phases.phases.insert(0, ("home + X server", started));
    let kib: u64 = screen_processes(screen.work_dir())
        .into_iter()
        .map(pss_kib)
        .sum();
    let t = Instant::now();
    drop(screen);
    std::fs::remove_dir_all(&home)?;
    Ok((ready, phases, kib, t.elapsed(), complete, cpu))
}

fn sequential(cfg: &ScreenConfig, runs: usize) -> Res<()> {
    let (mut ready, mut reset, mut mem) = (Vec::new(), Vec::new(), Vec::new());
    let mut phases: BTreeMap<(usize, &'static str), Vec<Duration>> = BTreeMap::new();
    let complete = (0..2)
        .map(|_| one_environment(cfg, true).map(|r| r.4))
        .collect::<Res<Vec<bool>>>()?;
    println!(
        "ready screenshot equals the screen 3 s later: {}/2 trials",
        complete.iter().filter(|c| **c).count()
    );
    for _ in 0..runs {
        let (r, p, kib, z, _, _) = one_environment(cfg, false)?;
        ready.push(r);
        mem.push(kib);
        reset.push(z);
        for (i, (name, d)) in p.phases.into_iter().enumerate() {
            phases.entry((i, name)).or_default().push(d);
        }
    }
    mem.sort_unstable();
    println!(
        "calc environment ready with the document open: p50 {:.0} ms, p95 {:.0} ms ({runs} trials)",
        pct(&ready, 0.5),
        pct(&ready, 0.95)
    );
    for ((_, name), d) in &phases {
        println!("  phase {name:<16} p50 {:>6.0} ms", pct(d, 0.5));
    }
    println!(
        "reset between trials: p50 {:.0} ms, p95 {:.0} ms",
        pct(&reset, 0.5),
        pct(&reset, 0.95)
    );
    println!(
        "memory per environment (PSS of every screen process): median {} MiB",
        mem[mem.len() / 2] / 1024
    );
    Ok(())
}

/// Four environments started at once (each on its own thread), each's ready time and PSS.
fn four_at_once(cfg: &ScreenConfig) -> Res<()> {
    let t = Instant::now();
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let cfg = cfg.clone();
            std::thread::spawn(move || {
                one_environment(&cfg, false).map(|(r, _, kib, _, _, _)| (r, kib))
            })
        })
        .collect();
    let mut ready = Vec::new();
    let mut mem = Vec::new();
    for h in handles {
        let (r, kib) = h.join().map_err(|_| "an environment thread panicked")??;
        ready.push(r);
        mem.push(kib);
    }
    mem.sort_unstable();
    println!(
        "four calc environments at once: all ready after {:.0} ms; each ready p50 {:.0} ms, max {:.0} ms; PSS each median {} MiB, max {} MiB",
        t.elapsed().as_secs_f64() * 1000.0,
        pct(&ready, 0.5),
        pct(&ready, 1.0),
        mem[mem.len() / 2] / 1024,
        mem[mem.len() - 1] / 1024
    );
    Ok(())
}

/// The pool on (`[desktop] pool = 1`): a waiting environment at the first request, then each
/// trial holds its environment for `hold` (a trial's length; the ready screenshot is compared
/// with the screen 3 s later inside it) while the pool starts the next. Time from request to
/// ready, p50/p95, hand-overs vs cold starts, phases of a hand-over, PSS of a waiting one.
/// After each pooled trial a cold start of the same request (pool off) is timed, so both are
/// measured at the same load.
fn pooled(cfg: &ScreenConfig, runs: usize, hold: Duration) -> Res<()> {
    let apps = vec!["libreoffice_calc".to_string()];
    let lines = vec!["libreoffice --calc /home/user/Documents/sales-2025.xlsx".to_string()];
    let size = ScreenSize::default();
    let pool = Pool::new(cfg, 1)?;
    let dir = tempfile::tempdir()?;
    std::fs::set_permissions(
        dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )?;
    let spec_at = |home: &Path| -> Res<AppDesktopSpec> {
        Ok(AppDesktopSpec {
            home: home.to_path_buf(),
            files: false,
            apps: screen_apps(&apps, &lines)?,
        })
    };
    let t = Instant::now();
    pool.warm(&spec_at(dir.path())?, size);
    pool.wait_started(Duration::from_secs(300));
    let prestart = t.elapsed();
    let idle_kib: u64 = pool
        .idle_work_dirs()
        .iter()
        .flat_map(|d| screen_processes(d))
        .map(pss_kib)
        .sum();
    let (mut ready, mut warm, mut complete, mut off) = (Vec::new(), 0, 0, Vec::new());
    let (mut cpu_on, mut cpu_off) = (Vec::new(), Vec::new());
    let load = loadavg();
    let mut phases: BTreeMap<(usize, &'static str), Vec<Duration>> = BTreeMap::new();
    for i in 0..runs {
        let home = dir.path().join(format!("home{i}"));
        tuplewright::engine::env::files::provision_home_for(&home, &apps)?;
        let spec = spec_at(&home)?;
        let waiting: u64 = pool.idle_work_dirs().iter().map(|d| cpu_ms(d)).sum();
        let t = Instant::now();
        let mut got = pool.acquire(&spec, size)?;
        ready.push(t.elapsed());
        if got.warm {
            let used = cpu_ms(got.screen.work_dir()).saturating_sub(waiting);
            cpu_on.push(Duration::from_millis(used));
        }
        warm += usize::from(got.warm);
        if got.warm {
            for (j, (name, d)) in got.phases.phases.iter().enumerate() {
                phases.entry((j, name)).or_default().push(*d);
            }
        }
        std::thread::sleep(Duration::from_secs(3));
        complete += usize::from(got.screen.screenshot()?.png == got.shot.png);
        std::thread::sleep(hold.saturating_sub(Duration::from_secs(3)));
        drop(got);
        std::fs::remove_dir_all(&home)?;
        // Pool off, at the same load: the waiting environment is idle meanwhile.
        let cold = one_environment(cfg, false)?;
        off.push(cold.0);
        cpu_off.push(cold.5);
    }
    let failures = pool.drain();
    println!(
        "pool off (cold starts between the pooled trials): p50 {:.0} ms, p95 {:.0} ms; load average {load} -> {}",
        pct(&off, 0.5),
        pct(&off, 0.95),
        loadavg()
    );
    println!(
        "CPU time of the screen's processes from request to ready (load-independent): hand-over p50 {:.0} ms, cold start p50 {:.0} ms",
        pct(&cpu_on, 0.5),
        pct(&cpu_off, 0.5)
    );
    println!(
        "pool on (size 1, each trial held {:.0} s): calc ready with the document open p50 {:.0} ms, p95 {:.0} ms ({runs} trials, {warm} hand-overs); ready screenshot equals the screen 3 s later {complete}/{runs}; {failures} pre-starts failed",
        hold.as_secs_f64(),
        pct(&ready, 0.5),
        pct(&ready, 0.95)
    );
    for ((_, name), d) in &phases {
        println!("  hand-over phase {name:<16} p50 {:>6.0} ms", pct(d, 0.5));
    }
    println!(
        "  a waiting environment: started in {:.0} ms (X, openbox, bus, Calc with no document), PSS {} MiB",
        prestart.as_secs_f64() * 1000.0,
        idle_kib / 1024
    );
    Ok(())
}

/// User + system CPU time so far of the live processes of the screen whose work directory is
/// `dir`, with what they reaped of their children, in milliseconds.
fn cpu_ms(dir: &Path) -> u64 {
    // SAFETY: sysconf has no preconditions.
    let hz = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).unwrap_or(100);
    let ticks: u64 = screen_processes(dir)
        .into_iter()
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/stat")).ok())
        .map(|stat| {
            let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
            let f: Vec<&str> = rest.split_whitespace().collect();
            (11..15)
                .map(|i| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0))
                .sum::<u64>()
        })
        .sum();
    ticks * 1000 / hz.max(1)
}

/// The 1-minute load average now.
fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|t| t.split_whitespace().next().map(str::to_string))
        .unwrap_or_default()
}

/// The loop on the first `n` shipped Calc tasks (wall per accepted tuple), then ui-oracle on
/// them (trials per hour), with the real binary on a fresh store.
fn loop_and_ui_oracle(n: usize) -> Res<()> {
    let pack = tuplewright::apps::get("libreoffice_calc").ok_or("no calc pack")?;
    let all: serde_json::Value = serde_json::from_str(pack.app.tasks_text())?;
    let tasks: Vec<serde_json::Value> = all["tasks"]
        .as_array()
        .ok_or("tasks.json has no tasks")?
        .iter()
        .take(n)
        .cloned()
        .collect();
    let ids: Vec<String> = tasks
        .iter()
        .filter_map(|t| t["task_id"].as_str().map(str::to_string))
        .collect();
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("tasks.json");
    std::fs::write(&file, serde_json::json!({ "tasks": tasks }).to_string())?;
    let t = Instant::now();
    let out = tw(dir.path())
        .args(["run", "--jobs", "2", "--out", "out"])
        .arg(&file)
        .output()?;
    let wall = t.elapsed();
    let log = String::from_utf8_lossy(&out.stderr);
    let accepted: usize = log
        .lines()
        .find_map(|l| l.trim().strip_prefix("accepted"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    println!(
        "loop on {n} calc tasks (--jobs 2): {accepted} accepted in {:.0} s: {:.1} s wall per accepted tuple",
        wall.as_secs_f64(),
        wall.as_secs_f64() / accepted.max(1) as f64
    );
    let t = Instant::now();
    let out = tw(dir.path())
        .args(["rollout", "--json", "--policy", "ui-oracle", "--tasks"])
        .args(&ids)
        .output()?;
    let wall = t.elapsed();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let trials = json.as_array().map_or(0, Vec::len);
    let solved = json.as_array().map_or(0, |a| {
        a.iter()
            .filter(|t| t["trials"][0]["reward"].as_f64() == Some(1.0))
            .count()
    });
    println!(
        "ui-oracle on {trials} calc tasks: {solved} r = 1.0 in {:.0} s: {:.0} trials per hour",
        wall.as_secs_f64(),
        trials as f64 * 3600.0 / wall.as_secs_f64()
    );
    Ok(())
}

fn tw(dir: &Path) -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_tuplewright"));
    c.current_dir(dir).args(["--no-tui", "--store", "s.db"]);
    c
}

fn main() -> Res<()> {
    if std::process::Command::new("sh")
        .args(["-c", "command -v libreoffice"])
        .output()
        .map(|o| !o.status.success())
        .unwrap_or(true)
    {
        eprintln!("libreoffice is not installed: skipped");
        return Ok(());
    }
    let var = |name: &str, default: usize| -> usize {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let cfg = ScreenConfig::default();
    let runs = var("TW_BENCH_RUNS", 8);
    let pool_runs = var("TW_BENCH_POOL", runs);
    if pool_runs > 0 {
        let hold = Duration::from_secs(var("TW_BENCH_HOLD_S", 20) as u64);
        pooled(&cfg, pool_runs, hold)?;
    }
    if runs > 0 {
        sequential(&cfg, runs)?;
    }
    if runs > 0 && var("TW_BENCH_FOUR", 1) > 0 {
        four_at_once(&cfg)?;
    }
    let n = var("TW_BENCH_LOOP", 0);
    if n > 0 {
        loop_and_ui_oracle(n)?;
    }
    Ok(())
}
