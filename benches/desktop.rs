//! Desktop applications (#31): how fast a LibreOffice Calc environment is ready with its document
//! open, how long a reset between trials takes, and how much memory one environment uses.
//!
//! Each trial: a fresh home (the pack's seed), a new screen (Xvfb, openbox), the session bus and
//! Calc started from a recorded setup launch (`libreoffice --calc /home/user/…xlsx`) with a fresh
//! profile, until the ready gate passes (Calc's window mapped, the screen still for 1.5 s, drawn).
//! Reset = dropping the screen (every program killed) and removing the home. Memory = the
//! proportional set size (PSS) of every process of the screen, summed, once ready.
//!
//! Run: `cargo bench --bench desktop`. `TW_BENCH_RUNS` sets the trials (default 8). Needs
//! .ci/setup's packages; skipped when `libreoffice` is missing.

use std::time::{Duration, Instant};

use tuplewright::engine::rollout::desktop_apps::screen_apps;
use tuplewright::engine::screen::{
    screen_processes, AppDesktopSpec, Screen, ScreenConfig, ScreenSize,
};

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

fn main() -> Result<(), Box<dyn std::error::Error>> {
    if std::process::Command::new("sh")
        .args(["-c", "command -v libreoffice"])
        .output()
        .map(|o| !o.status.success())
        .unwrap_or(true)
    {
        eprintln!("libreoffice is not installed: skipped");
        return Ok(());
    }
    let runs: usize = std::env::var("TW_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    let cfg = ScreenConfig::default();
    let apps = vec!["libreoffice_calc".to_string()];
    let lines = vec!["libreoffice --calc /home/user/Documents/sales-2025.xlsx".to_string()];
    let (mut ready, mut reset, mut mem) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        let dir = tempfile::tempdir()?;
        std::fs::set_permissions(
            dir.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )?;
        let home = dir.path().join("home");
        let t = Instant::now();
        tuplewright::engine::env::files::provision_home_for(&home, &apps)?;
        let mut screen = Screen::start(&cfg, ScreenSize::default())?;
        let spec = AppDesktopSpec {
            home: home.clone(),
            files: false,
            apps: screen_apps(&apps, &lines)?,
        };
        screen.open_apps(&cfg, &spec)?;
        ready.push(t.elapsed());
        let kib: u64 = screen_processes(screen.work_dir())
            .into_iter()
            .map(pss_kib)
            .sum();
        mem.push(kib);
        let t = Instant::now();
        drop(screen);
        std::fs::remove_dir_all(&home)?;
        reset.push(t.elapsed());
    }
    mem.sort_unstable();
    println!(
        "calc environment ready with the document open: p50 {:.0} ms, p95 {:.0} ms ({runs} trials; includes the 1.5 s quiet-screen gate)",
        pct(&ready, 0.5),
        pct(&ready, 0.95)
    );
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
