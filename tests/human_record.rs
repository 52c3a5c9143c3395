//! A person's input on a real Xvfb, recorded with X RECORD while XTEST drives the display (as a
//! VNC server injects a person's clicks and keys), reads back as the `computer_use` actions
//! ui-oracle trials store, each with a settled after-frame when the person pauses (issue #36).

use crate::screen_support;

use std::time::Instant;

use screen_support::{eventually, screen};
use tuplewright::engine::rollout::human_record::InputLog;
use tuplewright::engine::screen::ComputerAction as A;

#[test]
fn clicks_a_drag_typing_a_chord_and_scrolls_on_the_display_are_recorded_as_actions() {
    let mut s = screen(800, 600);
    let mut log = InputLog::start(&s.display_name(), Instant::now()).unwrap();
    log.observe_first(&mut s).unwrap();
    let script = vec![
        A::LeftClick { x: 10, y: 20 },
        A::DoubleClick { x: 100, y: 100 },
        A::TripleClick { x: 200, y: 150 },
        A::RightClick { x: 30, y: 40 },
        A::MiddleClick { x: 5, y: 5 },
        A::LeftClickDrag {
            x: 50,
            y: 60,
            to_x: 300,
            to_y: 200,
        },
        A::Type {
            text: "hello".into(),
        },
        A::Key {
            key: "ctrl+a".into(),
        },
        A::Key {
            key: "Return".into(),
        },
        A::Scroll {
            x: 400,
            y: 300,
            amount: 3,
        },
        A::Scroll {
            x: 400,
            y: 300,
            amount: -2,
        },
        A::Hscroll {
            x: 10,
            y: 10,
            amount: 1,
        },
    ];
    for (i, action) in script.iter().enumerate() {
        s.act(action).unwrap();
        // The person pauses: the action is final and gets its after-frame.
        let framed = eventually(20, || {
            let idle = log.poll().unwrap();
            log.capture_after(&mut s, idle).unwrap();
            log.actions().len() > i && idle
        });
        assert!(framed, "after {action:?}: {:?}", log.actions());
    }
    assert_eq!(log.actions(), script);
    let steps = log.finish(&mut s).unwrap();
    assert_eq!(steps.len(), script.len() + 1);
    assert_eq!(steps[0].action, A::Screenshot, "the first observation");
    for step in &steps {
        let png = step.screenshot_png.as_ref();
        assert!(png.is_some_and(|p| p.starts_with(b"\x89PNG")), "{step:?}");
        assert!(step.settle_ms.is_some());
    }
    assert!(steps.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
}

#[test]
fn a_person_who_did_nothing_leaves_one_final_screenshot() {
    let mut s = screen(320, 200);
    let mut log = InputLog::start(&s.display_name(), Instant::now()).unwrap();
    log.observe_first(&mut s).unwrap();
    assert!(log.poll().unwrap());
    let steps = log.finish(&mut s).unwrap();
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0].action, A::Screenshot);
    assert!(steps[0].screenshot_png.is_some());
}
