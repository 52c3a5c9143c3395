use std::time::{Duration, Instant};

use super::{Gestures, GAP};
use crate::rollout::screen::ComputerAction as A;
use crate::screen::{RawInput as R, Recorded};

/// Feeds `events`, each `ms` after the start, and returns the actions once input has paused.
fn actions(events: &[(u64, R)]) -> Vec<A> {
    let t0 = Instant::now();
    let mut g = Gestures::default();
    let mut last = t0;
    for (ms, input) in events {
        last = t0 + Duration::from_millis(*ms);
        g.feed(&Recorded {
            at: last,
            input: *input,
        });
    }
    assert!(g.tick(last + GAP));
    g.take().into_iter().map(|g| g.action).collect()
}

fn click(at: u64, button: u8, x: i32, y: i32) -> [(u64, R); 2] {
    [
        (at, R::ButtonPress { button, x, y }),
        (at + 20, R::ButtonRelease { button, x, y }),
    ]
}

fn key(at: u64, keysym: u32, shifted: u32) -> [(u64, R); 2] {
    [
        (at, R::KeyPress { keysym, shifted }),
        (at + 10, R::KeyRelease { keysym }),
    ]
}

#[test]
fn clicks_in_place_count_by_timing_and_distance() {
    let mut ev = Vec::new();
    ev.extend(click(0, 1, 10, 10));
    ev.extend(click(100, 1, 11, 10));
    ev.extend(click(1000, 1, 50, 50));
    ev.extend(click(1100, 1, 50, 50));
    ev.extend(click(1200, 1, 51, 51));
    ev.extend(click(2000, 1, 5, 5));
    ev.extend(click(2600, 1, 5, 5));
    ev.extend(click(2700, 1, 40, 40));
    ev.extend(click(3000, 3, 7, 8));
    ev.extend(click(3100, 2, 9, 9));
    assert_eq!(
        actions(&ev),
        vec![
            A::DoubleClick { x: 10, y: 10 },
            A::TripleClick { x: 50, y: 50 },
            A::LeftClick { x: 5, y: 5 },
            A::LeftClick { x: 5, y: 5 },
            A::LeftClick { x: 40, y: 40 },
            A::RightClick { x: 7, y: 8 },
            A::MiddleClick { x: 9, y: 9 },
        ]
    );
}

#[test]
fn a_moving_press_is_a_drag_and_wheel_clicks_merge_per_direction() {
    let ev = [
        (
            0,
            R::ButtonPress {
                button: 1,
                x: 10,
                y: 10,
            },
        ),
        (10, R::Motion { x: 60, y: 40 }),
        (
            20,
            R::ButtonRelease {
                button: 1,
                x: 100,
                y: 80,
            },
        ),
        (
            100,
            R::ButtonPress {
                button: 5,
                x: 3,
                y: 4,
            },
        ),
        (
            110,
            R::ButtonPress {
                button: 5,
                x: 3,
                y: 4,
            },
        ),
        (
            120,
            R::ButtonPress {
                button: 4,
                x: 3,
                y: 4,
            },
        ),
        (
            130,
            R::ButtonPress {
                button: 7,
                x: 3,
                y: 4,
            },
        ),
    ];
    assert_eq!(
        actions(&ev),
        vec![
            A::LeftClickDrag {
                x: 10,
                y: 10,
                to_x: 100,
                to_y: 80
            },
            A::Scroll {
                x: 3,
                y: 4,
                amount: 2
            },
            A::Scroll {
                x: 3,
                y: 4,
                amount: -1
            },
            A::Hscroll {
                x: 3,
                y: 4,
                amount: 1
            },
        ]
    );
}

#[test]
fn printable_keys_type_text_and_chords_and_special_keys_are_keys() {
    let (shift, ctrl) = (0xffe1, 0xffe3);
    let mut ev = vec![(
        0,
        R::KeyPress {
            keysym: shift,
            shifted: shift,
        },
    )];
    ev.extend(key(10, 'h' as u32, 'H' as u32));
    ev.push((30, R::KeyRelease { keysym: shift }));
    ev.extend(key(40, 'i' as u32, 'I' as u32));
    ev.extend(key(60, ' ' as u32, ' ' as u32));
    ev.extend(key(80, '1' as u32, '!' as u32));
    ev.extend(key(100, 0xff0d, 0));
    ev.push((
        200,
        R::KeyPress {
            keysym: ctrl,
            shifted: 0,
        },
    ));
    ev.push((
        210,
        R::KeyPress {
            keysym: shift,
            shifted: 0,
        },
    ));
    ev.extend(key(220, 't' as u32, 'T' as u32));
    ev.push((240, R::KeyRelease { keysym: shift }));
    ev.extend(key(250, 'a' as u32, 'A' as u32));
    ev.push((270, R::KeyRelease { keysym: ctrl }));
    ev.extend(key(300, 0xff1b, 0));
    ev.push((
        400,
        R::KeyPress {
            keysym: 0xffeb,
            shifted: 0,
        },
    ));
    ev.push((410, R::KeyRelease { keysym: 0xffeb }));
    assert_eq!(
        actions(&ev),
        vec![
            A::Type {
                text: "Hi 1".into()
            },
            A::Key {
                key: "Return".into()
            },
            A::Key {
                key: "ctrl+shift+t".into()
            },
            A::Key {
                key: "ctrl+a".into()
            },
            A::Key {
                key: "Escape".into()
            },
            A::Key {
                key: "super".into()
            },
        ]
    );
}
