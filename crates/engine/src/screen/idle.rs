//! Whether a screen's programs have gone idle (issue #31's ready gate): the CPU time of every
//! process of the screen (all threads, from `/proc`) and whether any thread is running or
//! waiting for a core. An application still laying out its window, or starved of a core on a
//! loaded machine, either uses CPU or is runnable; one that has finished drawing is neither.
//! Together with the X damage watch this replaces a long fixed quiet period: the display
//! quiet for a short while *and* the programs idle over that same while. The desktop pool's
//! pre-start waits here too ([`wait_cpu_calm`]) until the applications it started are calm.

use std::path::Path;
use std::time::{Duration, Instant};

/// CPU used by the screen's processes so far, and whether one of their threads runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct CpuSample {
    /// utime + stime of every process, in clock ticks.
    pub ticks: u64,
    /// A thread was in state R (running or runnable) when sampled.
    pub running: bool,
}

/// At most this much CPU (clock ticks, 10 ms each on Linux) may be used in a quiet period by a
/// screen counted as idle: a timer or a bus message here and there, never a drawing.
const IDLE_TICKS: u64 = 2;

impl CpuSample {
    /// The processes of the screen marked `marker` (see [`super::screen_processes`]), now.
    pub(super) fn of_screen(marker: &Path) -> CpuSample {
        let pids = super::screen_processes(marker);
        CpuSample {
            ticks: cpu_ticks(&pids),
            running: pids.iter().any(|&pid| threads_running(pid)),
        }
    }

    /// True when from `self` to `later` the processes used (almost) no CPU and none runs now.
    pub(super) fn idle_until(&self, later: &CpuSample) -> bool {
        later.ticks.saturating_sub(self.ticks) <= IDLE_TICKS && !later.running
    }
}

/// CPU time (clock ticks, 10 ms each) the processes may use in a second and count as idle.
const CALM_TICKS: u64 = 3;

/// Waits until `pids` together use at most [`CALM_TICKS`] of CPU in one second, or `until`.
pub(super) fn wait_cpu_calm(pids: &[i32], until: Instant) {
    let mut last = cpu_ticks(pids);
    let mut since = Instant::now();
    while Instant::now() < until {
        std::thread::sleep(Duration::from_millis(250));
        if since.elapsed() < Duration::from_secs(1) {
            continue;
        }
        let now = cpu_ticks(pids);
        if now.saturating_sub(last) <= CALM_TICKS {
            return;
        }
        (last, since) = (now, Instant::now());
    }
}

/// User + system CPU ticks of `pids` together (gone processes count 0).
fn cpu_ticks(pids: &[i32]) -> u64 {
    pids.iter()
        .filter_map(|pid| stat(&format!("/proc/{pid}/stat")))
        .map(|(_, ticks)| ticks)
        .sum()
}

/// Any thread of `pid` in state R (the process's own line shows its main thread only).
fn threads_running(pid: i32) -> bool {
    let Ok(dir) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    dir.flatten().any(|t| {
        stat(&t.path().join("stat").to_string_lossy()).is_some_and(|(state, _)| state == 'R')
    })
}

/// The state letter and utime + stime of a `/proc/…/stat` line (fields after the `)` of the
/// command name, which may hold spaces and parentheses).
fn stat(path: &str) -> Option<(char, u64)> {
    let line = std::fs::read_to_string(path).ok()?;
    parse_stat(&line)
}

fn parse_stat(line: &str) -> Option<(char, u64)> {
    let f = super::procs::stat_fields(line)?;
    // After the name: state (field 3), …, utime (14), stime (15).
    let state = f.first()?.chars().next()?;
    let utime: u64 = f.get(11)?.parse().ok()?;
    let stime: u64 = f.get(12)?.parse().ok()?;
    Some((state, utime + stime))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_with_spaces_and_parentheses_in_the_name_parses() {
        let line = "4242 (soffice.bin (x) y) S 1 4242 4242 0 -1 4194560 9000 0 12 0 731 88 0 0 20 0 9 0 100 1 2\n";
        assert_eq!(parse_stat(line), Some(('S', 819)));
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn this_busy_thread_is_seen_running_and_using_cpu() {
        let me = std::process::id() as i32;
        let before = stat(&format!("/proc/{me}/stat")).map(|s| s.1);
        let t = std::time::Instant::now();
        let mut x = 0u64;
        while t.elapsed() < std::time::Duration::from_millis(60) {
            x = x.wrapping_mul(31).wrapping_add(1);
        }
        assert!(threads_running(me), "{x}");
        let after = stat(&format!("/proc/{me}/stat")).map(|s| s.1);
        assert!(after > before, "{before:?} -> {after:?}");
    }
}
