//! Screens on a real Xvfb (Debian `xvfb`, installed by .ci/setup): display start and teardown,
//! every `computer_use` primitive delivered through XTEST to a second X client, readable errors
//! for a model's mistakes, the blank-screen gate and the sweep of what a killed owner left.

use crate::screen_support;

use std::time::Duration;

use screen_support::{eventually, marker_processes, screen, Probe};
use tuplewright::engine::screen::{
    is_blank, sweep_stale_screens, ActionError, ActionOutcome, ComputerAction as A, ScreenError,
};
use x11rb::protocol::Event;

#[test]
fn a_screen_has_its_own_display_of_the_asked_size_and_png_screenshots() {
    let mut s = screen(640, 400);
    assert!(s.display_name().starts_with(':'));
    let shot = s.screenshot().unwrap();
    assert_eq!((shot.width, shot.height), (640, 400));
    let img = image::load_from_memory(&shot.png).unwrap().to_rgb8();
    assert_eq!(img.dimensions(), (640, 400));
    // A bare Xvfb is uniform: the pre-rollout gate refuses it.
    assert!(is_blank(img.as_raw()));
    match s.wait_drawn(Duration::from_millis(200)) {
        Err(ScreenError::Blank(_)) => {}
        other => panic!("a blank display must fail the gate, got {other:?}"),
    }
    // Two screens at once get different displays.
    let t = screen(320, 200);
    assert_ne!(s.display_name(), t.display_name());
}

#[test]
fn clicks_drags_and_scrolls_land_at_their_coordinates() {
    let mut s = screen(800, 600);
    let p = Probe::open(&s);
    s.act(&A::LeftClick { x: 10, y: 20 }).unwrap();
    assert_eq!(p.presses(1), vec![(1, 10, 20)]);
    s.act(&A::RightClick { x: 799, y: 599 }).unwrap();
    assert_eq!(p.presses(1), vec![(3, 799, 599)]);
    s.act(&A::MiddleClick { x: 5, y: 5 }).unwrap();
    assert_eq!(p.presses(1), vec![(2, 5, 5)]);
    s.act(&A::DoubleClick { x: 100, y: 100 }).unwrap();
    assert_eq!(p.presses(2), vec![(1, 100, 100); 2]);
    s.act(&A::TripleClick { x: 200, y: 150 }).unwrap();
    assert_eq!(p.presses(3), vec![(1, 200, 150); 3]);
    s.act(&A::Scroll {
        x: 50,
        y: 60,
        amount: 3,
    })
    .unwrap();
    assert_eq!(p.presses(3), vec![(5, 50, 60); 3]);
    s.act(&A::Scroll {
        x: 50,
        y: 60,
        amount: -1,
    })
    .unwrap();
    assert_eq!(p.presses(1), vec![(4, 50, 60)]);
    s.act(&A::Hscroll {
        x: 1,
        y: 2,
        amount: 2,
    })
    .unwrap();
    assert_eq!(p.presses(2), vec![(7, 1, 2); 2]);
    s.act(&A::Hscroll {
        x: 1,
        y: 2,
        amount: -1,
    })
    .unwrap();
    assert_eq!(p.presses(1), vec![(6, 1, 2)]);

    s.act(&A::LeftClickDrag {
        x: 10,
        y: 10,
        to_x: 300,
        to_y: 200,
    })
    .unwrap();
    assert_eq!(p.presses(1), vec![(1, 10, 10)]);
    let mut motions = 0;
    let release = loop {
        match p.next().expect("drag events") {
            Event::MotionNotify(_) => motions += 1,
            Event::ButtonRelease(r) => break (r.event_x, r.event_y),
            _ => {}
        }
    };
    assert_eq!(release, (300, 200));
    assert!(
        motions >= 5,
        "a drag moves in steps, saw {motions} motion events"
    );

    s.act(&A::MouseMove { x: 400, y: 300 }).unwrap();
    p.wait_for(
        |e| matches!(e, Event::MotionNotify(m) if (m.event_x, m.event_y) == (400, 300)),
        "motion to (400, 300)",
    );
    s.act(&A::LeftMouseDown).unwrap();
    assert_eq!(p.presses(1), vec![(1, 400, 300)]);
    s.act(&A::LeftMouseUp).unwrap();
    p.wait_for(|e| matches!(e, Event::ButtonRelease(_)), "release");
}

#[test]
fn typing_any_unicode_and_xdotool_key_chords_reach_the_focused_window() {
    let mut s = screen(400, 300);
    let p = Probe::open(&s);
    s.act(&A::MouseMove { x: 10, y: 10 }).unwrap();
    s.act(&A::Type {
        text: "aZ é€日🙂\n".into(),
    })
    .unwrap();
    let want = vec![
        0x61,
        0x5a,
        0x20,
        0xe9,
        0x20ac,
        0x0100_65e5,
        0x0101_f642,
        0xff0d,
    ];
    // Shift is a key press of its own (before Z): skip it.
    let got: Vec<u32> = p
        .typed(want.len() + 1)
        .into_iter()
        .filter(|k| *k != 0xffe1)
        .collect();
    assert_eq!(got, want);

    s.act(&A::Key {
        key: "ctrl+a BackSpace".into(),
    })
    .unwrap();
    assert_eq!(p.typed(3), vec![0xffe3, 0x61, 0xff08]);
    s.act(&A::Key {
        key: "Page_Down".into(),
    })
    .unwrap();
    assert_eq!(p.typed(1), vec![0xff56]);
    s.act(&A::KeyDown {
        key: "shift".into(),
    })
    .unwrap();
    assert_eq!(p.typed(1), vec![0xffe1]);
    s.act(&A::KeyUp {
        key: "shift".into(),
    })
    .unwrap();
    p.wait_for(|e| matches!(e, Event::KeyRelease(_)), "shift released");
}

#[test]
fn a_models_mistakes_are_readable_errors_and_terminate_wait_screenshot_answer() {
    let mut s = screen(320, 200);
    let invalid = |r: Result<ActionOutcome, ActionError>| match r {
        Err(ActionError::Invalid(m)) => m,
        other => panic!("expected a readable error, got {other:?}"),
    };
    let m = invalid(s.act(&A::LeftClick { x: 320, y: 5 }));
    assert_eq!(
        m,
        "coordinate (320, 5) is outside the screen (0..320, 0..200)"
    );
    assert!(invalid(s.act(&A::MouseMove { x: -1, y: 0 })).contains("outside the screen"));
    let m = invalid(s.act(&A::Key {
        key: "ctrl+Nope".into(),
    }));
    assert_eq!(m, "unknown key name \"Nope\" in \"ctrl+Nope\"");
    assert!(invalid(s.act(&A::Wait { seconds: -1.0 })).contains("wait seconds"));
    assert!(invalid(s.act(&A::Scroll {
        x: 1,
        y: 1,
        amount: 0
    }))
    .contains("scroll amount"));
    assert!(invalid(s.act(&A::CallUser {
        question: "?".into()
    }))
    .contains("call_user"));
    assert_eq!(
        s.act(&A::Terminate { success: true }).unwrap(),
        ActionOutcome::Terminated { success: true }
    );
    assert_eq!(
        s.act(&A::Wait { seconds: 0.01 }).unwrap(),
        ActionOutcome::Done
    );
    match s.act(&A::Screenshot).unwrap() {
        ActionOutcome::Screenshot(shot) => assert_eq!((shot.width, shot.height), (320, 200)),
        other => panic!("expected a screenshot, got {other:?}"),
    }
}

#[test]
fn dropping_a_screen_kills_its_processes_and_frees_its_display() {
    let mut s = screen(320, 200);
    let mut sleeper = std::process::Command::new("sleep");
    sleeper.arg("300");
    s.launch("sleeper", sleeper).unwrap();
    let marker = s.work_dir().to_path_buf();
    let display = s.display_name();
    assert_eq!(
        marker_processes(&marker),
        2,
        "Xvfb and the launched program"
    );
    let ours = tuplewright::engine::screen::screen_processes(&marker);
    drop(s);
    assert!(eventually(10, || marker_processes(&marker) == 0));
    assert!(!marker.exists());
    // The display's lock is gone, or already taken by another X server (tests run in parallel).
    let n = &display[1..];
    let owner = std::fs::read_to_string(format!("/tmp/.X{n}-lock"))
        .ok()
        .and_then(|t| t.trim().parse::<i32>().ok());
    assert!(
        owner.is_none_or(|pid| !ours.contains(&pid)),
        "stale lock of {display}"
    );
}

#[test]
fn a_dead_app_is_a_typed_infrastructure_failure() {
    let mut s = screen(320, 200);
    s.launch("quitter", std::process::Command::new("true"))
        .unwrap();
    let died = eventually(10, || {
        matches!(
            s.act(&A::MouseMove { x: 1, y: 1 }),
            Err(ActionError::Infra(ScreenError::AppDied { .. }))
        )
    });
    assert!(died, "an exited app must surface as AppDied");
}

#[test]
fn the_sweep_kills_what_a_dead_owner_left_and_spares_live_owners() {
    // A marker directory named after a process that has exited, holding a running program.
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let dead_pid = gone.id();
    gone.wait().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let stale = tmp.path().join(format!("tuplewright-screen-{dead_pid}-x"));
    let live = tmp
        .path()
        .join(format!("tuplewright-screen-{}-y", std::process::id()));
    let mut kids = Vec::new();
    for dir in [&stale, &live] {
        std::fs::create_dir(dir).unwrap();
        kids.push(
            std::process::Command::new("sleep")
                .arg("300")
                .env("TUPLEWRIGHT_SCREEN", dir)
                .spawn()
                .unwrap(),
        );
    }
    assert_eq!(sweep_stale_screens(tmp.path()), 1);
    assert!(!stale.exists() && live.exists());
    assert!(eventually(10, || kids[0].try_wait().unwrap().is_some()));
    assert!(
        kids[1].try_wait().unwrap().is_none(),
        "a live owner's program survives"
    );
    kids[1].kill().unwrap();
    kids[1].wait().unwrap();
}

#[test]
fn the_sweep_of_a_dead_screen_spares_a_live_server_that_took_its_display_number() {
    // An Xvfb started with -displayfd writes no lock file, so a live server that took the number
    // of a dead screen was only told apart by its socket: the sweep removed that socket, and the
    // next client (openbox through bwrap, in CI) found no /tmp/.X11-unix/X<n>.
    let mut s = screen(320, 200);
    let n: u32 = s.display_name()[1..].parse().unwrap();
    let socket = format!("/tmp/.X11-unix/X{n}");
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let dead_pid = gone.id();
    gone.wait().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let stale = tmp
        .path()
        .join(format!("tuplewright-screen-{dead_pid}-old"));
    std::fs::create_dir(&stale).unwrap();
    std::fs::write(stale.join("display"), format!("{n}\n")).unwrap();
    assert_eq!(sweep_stale_screens(tmp.path()), 1);
    assert!(!stale.exists(), "the dead screen's marker is swept");
    assert!(
        std::path::Path::new(&socket).exists(),
        "the live server's socket {socket} survives the sweep"
    );
    std::os::unix::net::UnixStream::connect(&socket).expect("the live server still answers");
    assert!(matches!(
        s.act(&A::Screenshot),
        Ok(ActionOutcome::Screenshot(_))
    ));
}

/// Draws `frames` filled rectangles of changing grey on `window` of `display`, one every 40 ms,
/// the last one black; signals on `started` after the first.
fn draw_for(display: String, window: u32, frames: u32, started: std::sync::mpsc::Sender<()>) {
    use x11rb::connection::Connection as _;
    use x11rb::protocol::xproto::{ConnectionExt as _, CreateGCAux, Rectangle};
    use x11rb::wrapper::ConnectionExt as _;
    let (conn, _) = x11rb::connect(Some(&display)).unwrap();
    let gc = conn.generate_id().unwrap();
    conn.create_gc(gc, window, &CreateGCAux::new()).unwrap();
    for i in 0..frames {
        let grey = if i + 1 == frames {
            0
        } else {
            0x30 + (i * 7) % 0xa0
        };
        let pixel = grey << 16 | grey << 8 | grey;
        conn.change_gc(
            gc,
            &x11rb::protocol::xproto::ChangeGCAux::new().foreground(pixel),
        )
        .unwrap();
        let r = Rectangle {
            x: 10,
            y: 10,
            width: 100,
            height: 60,
        };
        conn.poly_fill_rectangle(window, gc, &[r]).unwrap();
        conn.flush().unwrap();
        if i == 0 {
            let _ = started.send(());
        }
        std::thread::sleep(Duration::from_millis(40));
    }
    conn.sync().unwrap();
}

/// issue #28: a screen settles only once nothing has been drawn for the quiet period, so the
/// frame captured after it shows the last drawing; watched with DAMAGE, and by comparing
/// captures (the fallback) alike.
#[test]
fn the_display_settles_once_a_client_has_stopped_drawing_and_the_next_frame_shows_the_end() {
    use tuplewright::engine::screen::{Settle, SettleMethod};
    let mut s = screen(320, 200);
    assert!(s.watches_damage(), "Xvfb has DAMAGE");
    let p = Probe::open(&s);
    let quiet = Settle {
        quiet: Duration::from_millis(400),
        max: Duration::from_secs(20),
        expect_change: false,
    };
    let frames = 15; // ≈ 600 ms of drawing
    for by_damage in [true, false] {
        let (tx, rx) = std::sync::mpsc::channel();
        let (display, window) = (s.display_name(), p.window);
        let drawer = std::thread::spawn(move || draw_for(display, window, frames, tx));
        rx.recv_timeout(Duration::from_secs(30)).unwrap();
        let settled = if by_damage {
            s.settle_with(quiet).unwrap()
        } else {
            s.settle_by_capture(quiet).unwrap()
        };
        drawer.join().unwrap();
        let want = if by_damage {
            SettleMethod::Damage
        } else {
            SettleMethod::Compare
        };
        assert_eq!(settled.method, want);
        assert!(!settled.timed_out, "{settled:?}");
        assert!(
            settled.waited >= Duration::from_millis(40 * (frames as u64 - 1)) + quiet.quiet,
            "waited through the drawing and the quiet period: {settled:?}"
        );
        let shot = s.screenshot().unwrap();
        let img = image::load_from_memory(&shot.png).unwrap().to_rgb8();
        assert_eq!(
            img.get_pixel(50, 40).0,
            [0, 0, 0],
            "the last drawing is on the frame"
        );
    }
    // Nothing drawing: settled after the quiet period, well before the bound.
    let idle = s.settle_with(quiet).unwrap();
    assert!(!idle.timed_out && idle.waited >= quiet.quiet, "{idle:?}");
    assert!(idle.waited < Duration::from_secs(10), "{idle:?}");
    // A quiet period of 0 does not wait.
    let none = s
        .settle_with(Settle {
            quiet: Duration::ZERO,
            ..quiet
        })
        .unwrap();
    assert_eq!(none.method, SettleMethod::None);
}

/// issue #28: after typing, a client that is slow to draw (a browser on a loaded machine) is
/// waited for: with `expect_change` the quiet period starts at the first drawing since the
/// action began, so the frame after the wait shows it; drawing from before the action does not
/// count.
#[test]
fn after_typing_the_settle_wait_starts_at_the_first_drawing_of_a_slow_client() {
    use tuplewright::engine::screen::Settle;
    let mut s = screen(320, 200);
    let p = Probe::open(&s);
    let settle = Settle {
        quiet: Duration::from_millis(200),
        max: Duration::from_secs(20),
        expect_change: false,
    }
    .for_action(&A::Type { text: "x".into() });
    assert!(settle.expect_change);
    // Drawn before the action: forgotten when the action begins.
    let (tx, rx) = std::sync::mpsc::channel();
    draw_for(s.display_name(), p.window, 1, tx);
    rx.recv().unwrap();
    s.act(&A::Type { text: "x".into() }).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let (display, window) = (s.display_name(), p.window);
    let late = Duration::from_millis(800);
    let drawer = std::thread::spawn(move || {
        std::thread::sleep(late);
        let (done, _) = std::sync::mpsc::channel();
        // Two frames: grey, then black.
        draw_for(display, window, 2, done);
        let _ = tx.send(());
    });
    let settled = s.settle_with(settle).unwrap();
    drawer.join().unwrap();
    rx.recv().unwrap();
    assert!(!settled.timed_out, "{settled:?}");
    assert!(settled.waited >= late + settle.quiet, "{settled:?}");
    let shot = s.screenshot().unwrap();
    let img = image::load_from_memory(&shot.png).unwrap().to_rgb8();
    assert_eq!(
        img.get_pixel(50, 40).0,
        [0, 0, 0],
        "the late drawing is on the frame"
    );
    // An action that may draw nothing (a key) is not waited for beyond the quiet period.
    s.act(&A::Key {
        key: "shift".into(),
    })
    .unwrap();
    let idle = s
        .settle_with(settle.for_action(&A::Key {
            key: "shift".into(),
        }))
        .unwrap();
    assert!(!idle.timed_out && idle.waited < late, "{idle:?}");
}
