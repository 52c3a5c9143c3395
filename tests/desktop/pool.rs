//! The desktop pool (`[desktop] pool`) with the real programs: an environment started before
//! its task (X, openbox, the session bus, Calc listening with no document) handed a task's
//! launch shows what a cold start shows, and nothing of the environment before it.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use tuplewright::engine::desktop::pool::Pool;
use tuplewright::engine::rollout::desktop_apps::screen_apps;
use tuplewright::engine::screen::{
    screen_processes, AppDesktopSpec, ComputerAction, DesktopWindows, Screen, ScreenConfig,
    ScreenSize,
};

use super::runtime::home;

const LAUNCH: &str = "libreoffice --calc /home/user/Documents/sales-2025.xlsx";

fn spec(home: &Path) -> AppDesktopSpec {
    AppDesktopSpec {
        home: home.to_path_buf(),
        files: false,
        apps: screen_apps(&["libreoffice_calc".to_string()], &[LAUNCH.to_string()]).unwrap(),
    }
}

/// Relative paths of the files under `home`, LibreOffice's lock file of the open document
/// left out (the state leaves it out too).
fn files(home: &Path) -> BTreeSet<String> {
    walkdir::WalkDir::new(home)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().strip_prefix(home).unwrap().display().to_string())
        .filter(|p| !p.contains(".~lock."))
        .collect()
}

fn titles(s: &Screen) -> Vec<String> {
    let windows = DesktopWindows::connect(&s.display_name()).unwrap();
    windows
        .list()
        .unwrap()
        .into_iter()
        .map(|w| w.title)
        .collect()
}

#[test]
fn a_pool_hand_over_shows_what_a_cold_start_shows_and_nothing_of_the_previous_environment() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let cfg = ScreenConfig::default();
    let size = ScreenSize::default();
    let pool = Pool::new(&cfg, 1).unwrap();
    // Trial A: nothing waits yet, a cold start; the pool starts the next one once A is ready.
    let (_da, home_a) = home();
    let provisioned = files(&home_a);
    let mut a = pool.acquire(&spec(&home_a), size).unwrap();
    assert!(!a.warm, "an empty pool hands nothing over");
    // A leaves traces: a typed cell on its screen, a file in its session (its /tmp).
    for act in [
        ComputerAction::Type {
            text: "leaked-from-a".into(),
        },
        ComputerAction::Key {
            key: "Return".into(),
        },
    ] {
        a.screen.act(&act).unwrap();
    }
    let session_a = a.screen.session_dir().unwrap();
    std::fs::write(session_a.join("trace-of-a"), "a").unwrap();
    assert!(pool.wait_started(Duration::from_secs(300)));
    assert_eq!(
        pool.counts(),
        (1, 0),
        "one environment waits for the next trial"
    );
    let marker_a = a.screen.work_dir().to_path_buf();
    let shot_a = a.shot.png.clone();
    drop(a);
    let gone = std::time::Instant::now() + Duration::from_secs(20);
    while !screen_processes(&marker_a).is_empty() && std::time::Instant::now() < gone {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        screen_processes(&marker_a).is_empty(),
        "A's programs outlived A"
    );

    // Trial B: a hand-over of the waiting environment.
    let (_db, home_b) = home();
    let mut b = pool.acquire(&spec(&home_b), size).unwrap();
    assert!(b.warm, "the waiting environment is handed over");
    // Fresh: exactly the task's window (no blank document, nothing of A), the task's files
    // (nothing written into the home while it waited), its own session with a fresh profile.
    assert_eq!(titles(&b.screen), ["sales-2025.xlsx - LibreOffice Calc"]);
    assert_eq!(files(&home_b), provisioned);
    let session_b = b.screen.session_dir().unwrap();
    assert_ne!(session_a, session_b);
    assert!(!session_b.join("trace-of-a").exists());
    let profile = session_b.join("tw-profile/libreoffice_calc/user/registrymodifications.xcu");
    let xcu = std::fs::read_to_string(profile).unwrap();
    assert!(xcu.contains("WarnAlienFormat") && !xcu.contains("leaked-from-a"));
    // What the agent sees: the cold start's ready screen, pixel for pixel, without A's cell.
    let tree = b
        .screen
        .a11y_reader(&cfg)
        .unwrap()
        .read()
        .unwrap()
        .to_string();
    assert!(tree.contains("Sheet Sales") && !tree.contains("leaked-from-a"));
    assert_eq!(
        differing_pixels(&shot_a, &b.shot.png),
        0,
        "the hand-over's ready screenshot differs from the cold start's"
    );
    b.screen.check().unwrap();
    assert_eq!(
        pool.drain(),
        0,
        "no environment failed to start or hand over"
    );
    assert!(pool.wait_started(Duration::from_secs(300)));
    assert_eq!(
        pool.counts(),
        (0, 0),
        "a drained pool keeps nothing running"
    );
}

fn differing_pixels(a: &[u8], b: &[u8]) -> usize {
    let (a, b) = (
        image::load_from_memory(a).unwrap().to_rgb8(),
        image::load_from_memory(b).unwrap().to_rgb8(),
    );
    assert_eq!(a.dimensions(), b.dimensions());
    a.pixels().zip(b.pixels()).filter(|(p, q)| p != q).count()
}
