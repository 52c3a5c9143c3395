use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;

use super::*;
use crate::rollout::screen::ComputerAction as A;

fn ctx(space: CoordSpace) -> ArgCtx {
    ArgCtx {
        coords: Coords::new(space, 1280, 800).expect("coords"),
        cursor: None,
    }
}

#[test]
fn smart_resize_matches_the_python_reference_values() {
    let cases: Vec<Value> = serde_json::from_str(include_str!(
        "../../../../../tests/data/smart_resize/cases.json"
    ))
    .expect("cases.json");
    assert!(cases.len() >= 60);
    for c in &cases {
        let g = |k: &str| c[k].as_u64().expect("number");
        let got = smart_resize(
            g("height") as u32,
            g("width") as u32,
            g("factor") as u32,
            g("min_pixels"),
            g("max_pixels"),
        );
        match &c["resized"] {
            Value::Null => assert!(got.is_err(), "{c}: expected an error, got {got:?}"),
            want => {
                let (h, w) = got.unwrap_or_else(|e| panic!("{c}: {e}"));
                assert_eq!(json!([h, w]), *want, "{c}");
            }
        }
    }
}

use serde_json::json;

#[test]
fn known_conversions_of_every_space() {
    // 1280x800 under Qwen2.5-VL defaults is 1288x812 (python reference above).
    let smart = ctx("smart-resize".parse().expect("space")).coords;
    assert_eq!(smart.image, (1288, 812));
    assert!(smart.resizes());
    assert_eq!(smart.to_screen(644.0, 406.0), Ok((640, 400)));
    assert_eq!(smart.to_screen(1288.0, 812.0), Ok((1280, 800)));
    let rel = ctx(CoordSpace::Relative1000).coords;
    assert!(!rel.resizes());
    assert_eq!(rel.to_screen(500.0, 500.0), Ok((640, 400)));
    assert_eq!(rel.to_screen(999.0, 999.0), Ok((1279, 799)));
    assert_eq!(
        rel.to_screen(1000.0, 1000.0),
        Ok((1279, 799)),
        "the edge clamps"
    );
    assert_eq!(rel.to_screen(250.0, 100.0), Ok((320, 80)));
    let one = ctx(CoordSpace::Relative1).coords;
    assert_eq!(one.to_screen(0.5, 0.25), Ok((640, 200)));
    assert_eq!(one.to_screen(1.0, 1.0), Ok((1279, 799)));
    let px = ctx(CoordSpace::Pixels).coords;
    assert_eq!(px.to_screen(12.4, 700.6), Ok((12, 701)));
    assert_eq!(
        px.to_screen(2000.0, 5.0),
        Ok((2000, 5)),
        "out of range is the screen's to refuse"
    );
    assert!(px.to_screen(f64::NAN, 1.0).is_err());
    // The paper's budget: 1000x1000 stays 1024x1024? No: 1000 rounds to 992 (31·32).
    let paper =
        Coords::new("smart-resize:paper".parse().expect("space"), 1000, 1000).expect("coords");
    assert_eq!(paper.image, (992, 992));
    assert!("smart-resize:0:1:2".parse::<CoordSpace>().is_err());
    assert!("smart-resize:28:10:5".parse::<CoordSpace>().is_err());
    assert!("bogus".parse::<CoordSpace>().is_err());
    assert_eq!(
        "smart-resize:14:100:200000".parse::<CoordSpace>(),
        Ok(CoordSpace::SmartResize {
            factor: 14,
            min_pixels: 100,
            max_pixels: 200000
        })
    );
}

#[test]
fn every_pixel_round_trips_through_each_space_within_one_pixel() {
    for space in [
        "pixels",
        "rel1000",
        "rel1",
        "smart-resize",
        "smart-resize:paper",
    ] {
        let c = ctx(space.parse().expect("space")).coords;
        for (x, y) in [(0, 0), (1279, 799), (641, 13), (333, 777), (1000, 400)] {
            let (mx, my) = c.to_model(x, y);
            let (sx, sy) = c.to_screen(mx, my).expect("to_screen");
            // rel1000 quantises to 1.28 px: a round trip may move by one pixel.
            assert!(
                (sx - x).abs() <= 1 && (sy - y).abs() <= 1,
                "{space}: ({x},{y}) → ({mx},{my}) → ({sx},{sy})"
            );
        }
    }
}

fn sample_actions() -> Vec<ComputerAction> {
    vec![
        A::LeftClick { x: 640, y: 400 },
        A::DoubleClick { x: 10, y: 20 },
        A::RightClick { x: 1200, y: 700 },
        A::LeftClickDrag {
            x: 100,
            y: 100,
            to_x: 300,
            to_y: 200,
        },
        A::Type {
            text: "hello 'world'\nnext \"line\" é".into(),
        },
        A::Key {
            key: "ctrl+a".into(),
        },
        A::Scroll {
            x: 640,
            y: 400,
            amount: 3,
        },
        A::Terminate { success: true },
    ]
}

fn close(a: &ComputerAction, b: &ComputerAction) -> bool {
    let pts = |a: &ComputerAction| match a {
        A::LeftClickDrag { x, y, to_x, to_y } => vec![*x, *y, *to_x, *to_y],
        other => pointer(other).map(|(x, y)| vec![x, y]).unwrap_or_default(),
    };
    let (pa, pb) = (pts(a), pts(b));
    std::mem::discriminant(a) == std::mem::discriminant(b)
        && pa.len() == pb.len()
        && pa.iter().zip(&pb).all(|(p, q)| (p - q).abs() <= 1)
}

#[test]
fn render_then_parse_round_trips_in_every_format_and_space() {
    for format in ActionFormat::ALL {
        for space in ["pixels", "rel1000", "rel1", "smart-resize"] {
            let c = ctx(space.parse().expect("space"));
            let actions = sample_actions();
            let text = format.render("I will act.", &actions, &c.coords);
            let back = format
                .parse(&text, &c)
                .unwrap_or_else(|e| panic!("{format}/{space}: {e}\n{text}"));
            assert_eq!(back.len(), actions.len(), "{format}/{space}:\n{text}");
            for (a, b) in actions.iter().zip(&back) {
                assert!(close(a, b), "{format}/{space}: {a:?} became {b:?}\n{text}");
                if let (A::Type { text: t1 }, A::Type { text: t2 }) = (a, b) {
                    assert_eq!(t1, t2, "{format}: typed text survives");
                }
            }
        }
    }
}

#[test]
fn qwen_xml_reads_several_functions_in_order_and_refuses_eleven() {
    let reply = "I click then type.\n<tool_call>\n<function=computer_use>\n<parameter=action>\nleft_click\n</parameter>\n<parameter=coordinate>\n[500, 500]\n</parameter>\n</function>\n<function=computer_use>\n<parameter=action>\ntype\n</parameter>\n<parameter=text>\n42\n</parameter>\n</function>\n<function=computer_use>\n<parameter=action>\nkey\n</parameter>\n<parameter=keys>\n[\"ctrl\", \"s\"]\n</parameter>\n</function>\n</tool_call>";
    let got = ActionFormat::QwenXml
        .parse(reply, &ctx(CoordSpace::Relative1000))
        .expect("parse");
    assert_eq!(
        got,
        vec![
            A::LeftClick { x: 640, y: 400 },
            A::Type { text: "42".into() },
            A::Key {
                key: "ctrl+s".into()
            }
        ]
    );
    let one =
        "<function=computer_use>\n<parameter=action>\nscreenshot\n</parameter>\n</function>\n";
    let eleven = format!("<tool_call>\n{}</tool_call>", one.repeat(11));
    let err = ActionFormat::QwenXml
        .parse(&eleven, &ctx(CoordSpace::Pixels))
        .expect_err("eleven calls")
        .to_string();
    assert!(err.contains("at most 10"), "{err}");
    let wrong = ActionFormat::QwenXml
        .parse(
            "<tool_call><function=browser><parameter=action>x</parameter></function></tool_call>",
            &ctx(CoordSpace::Pixels),
        )
        .expect_err("wrong function")
        .to_string();
    assert!(wrong.contains("\"browser\" does not exist"), "{wrong}");
    let none = ActionFormat::QwenXml
        .parse("I think I am done.", &ctx(CoordSpace::Pixels))
        .expect_err("no tool call")
        .to_string();
    assert!(none.contains("no <tool_call> block"), "{none}");
    // A stop at </tool_call> (servers strip the stop string) still parses.
    let open = "<tool_call>\n<function=computer_use>\n<parameter=action>\nterminate\n</parameter>\n<parameter=status>\nfailure\n</parameter>\n";
    assert_eq!(
        ActionFormat::QwenXml.parse(open, &ctx(CoordSpace::Pixels)),
        Ok(vec![A::Terminate { success: false }])
    );
}

#[test]
fn qwen_json_errors_name_the_block_and_the_argument() {
    let c = ctx("smart-resize".parse().expect("space"));
    let ok = "<tool_call>\n{\"name\": \"computer_use\", \"arguments\": {\"action\": \"left_click\", \"coordinate\": [644, 406]}}\n</tool_call>";
    assert_eq!(
        ActionFormat::QwenJson.parse(ok, &c),
        Ok(vec![A::LeftClick { x: 640, y: 400 }])
    );
    let stringly = "<tool_call>{\"name\": \"computer_use\", \"arguments\": \"{\\\"action\\\": \\\"wait\\\", \\\"time\\\": 2}\"}</tool_call>";
    assert_eq!(
        ActionFormat::QwenJson.parse(stringly, &c),
        Ok(vec![A::Wait { seconds: 2.0 }])
    );
    for (reply, needle) in [
        ("<tool_call>{\"name\": \"computer_use\", \"arguments\": {</tool_call>", "block 1 is not valid JSON"),
        ("<tool_call>{\"name\": \"computer_use\", \"arguments\": {\"action\": \"left_click\"}}</tool_call>", "left_click needs `coordinate`"),
        ("<tool_call>{\"name\": \"computer_use\", \"arguments\": {\"action\": \"left_click\", \"coordinate\": [1]}}</tool_call>", "must be [x, y]"),
        ("<tool_call>{\"name\": \"computer_use\", \"arguments\": {\"action\": \"fly\"}}</tool_call>", "unknown action \"fly\""),
        ("<tool_call>{\"name\": \"computer_use\", \"arguments\": {\"action\": \"terminate\"}}</tool_call>", "terminate needs `status`"),
        ("<tool_call>{\"name\": \"computer_use\", \"arguments\": {\"action\": \"left_click_drag\", \"coordinate\": [1, 2]}}</tool_call>", "start_coordinate"),
        ("<tool_call>{\"name\": \"computer_use\", \"arguments\": {\"action\": \"scroll\", \"pixels\": 1.5}}</tool_call>", "whole number"),
    ] {
        let err = ActionFormat::QwenJson.parse(reply, &c).expect_err(reply).to_string();
        assert!(err.contains(needle), "{reply}: {err}");
    }
    // Qwen's scroll: positive pixels scroll up (negative wheel amount here).
    let up = "<tool_call>{\"name\": \"computer_use\", \"arguments\": {\"action\": \"scroll\", \"pixels\": 4, \"coordinate\": [644, 406]}}</tool_call>";
    assert_eq!(
        ActionFormat::QwenJson.parse(up, &c),
        Ok(vec![A::Scroll {
            x: 640,
            y: 400,
            amount: -4
        }])
    );
}

#[test]
fn uitars_reads_boxes_points_hotkeys_and_escapes() {
    let c = ctx(CoordSpace::Relative1000);
    let reply = "Thought: open the menu\nAction: click(start_box='<|box_start|>(100,200,300,400)<|box_end|>')\n\nhotkey(key='ctrl shift t')\n\ntype(content='it\\'s done\\n')\n\nscroll(point='<point>500 500</point>', direction='up')\n\nfinished(content='ok')";
    let got = ActionFormat::Uitars.parse(reply, &c).expect("parse");
    assert_eq!(
        got,
        vec![
            A::LeftClick { x: 256, y: 240 },
            A::Key {
                key: "ctrl+shift+t".into()
            },
            A::Type {
                text: "it's done\n".into()
            },
            A::Scroll {
                x: 640,
                y: 400,
                amount: -5
            },
            A::Terminate { success: true },
        ]
    );
    for (reply, needle) in [
        ("Thought: hmm", "no `Action:` line"),
        ("Action: click(start_box='(1)')", "start_box must be"),
        ("Action: click(start_box='(1,2)'", "missing `)`"),
        ("Action: teleport(to='(1,2)')", "unknown action teleport()"),
        ("Action: type(content='unclosed)", "not closed"),
        (
            "Action: scroll(direction='sideways')",
            "up, down, left or right",
        ),
    ] {
        let err = ActionFormat::Uitars
            .parse(reply, &c)
            .expect_err(reply)
            .to_string();
        assert!(err.contains(needle), "{reply}: {err}");
    }
}

#[test]
fn model_families_pick_their_format_and_space() {
    assert_eq!(
        ActionFormat::for_model("ByteDance-Seed/UI-TARS-1.5-7B").0,
        ActionFormat::Uitars
    );
    assert!(matches!(
        ActionFormat::for_model("ByteDance-Seed/UI-TARS-1.5-7B").1,
        CoordSpace::SmartResize { factor: 28, .. }
    ));
    assert_eq!(
        ActionFormat::for_model("Qwen/Qwen2.5-VL-7B-Instruct").0,
        ActionFormat::QwenJson
    );
    assert_eq!(
        ActionFormat::for_model("Qwen/Qwen3-VL-8B-Instruct"),
        (ActionFormat::QwenJson, CoordSpace::Relative1000)
    );
    assert_eq!(
        ActionFormat::for_model("cua-gym-32b").0,
        ActionFormat::QwenXml
    );
    assert_eq!(
        "uitars".parse::<ActionFormat>().ok(),
        Some(ActionFormat::Uitars)
    );
    assert!("xml".parse::<ActionFormat>().is_err());
}

/// Garbage and mutated replies never panic, never yield more than ten actions, and every error
/// is non-empty text.
#[test]
fn fuzzed_replies_give_actions_or_readable_errors() {
    let mut rng = StdRng::seed_from_u64(17);
    let c = ctx(CoordSpace::Relative1000);
    let alphabet: Vec<char> =
        "<>/=()[]{}'\",:\\\n tool_call function parameter action Action: click start_box 0123456789.-é\u{0}"
            .chars()
            .collect();
    let seeds: Vec<String> = ActionFormat::ALL
        .iter()
        .map(|f| f.render("t", &sample_actions(), &c.coords))
        .collect();
    let mut oks = 0;
    for i in 0..6000 {
        let text: String = if i % 2 == 0 {
            (0..rng.random_range(0..200))
                .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                .collect()
        } else {
            let mut s: Vec<char> = seeds[i % seeds.len()].chars().collect();
            for _ in 0..rng.random_range(1..6) {
                let at = rng.random_range(0..s.len().max(1));
                match rng.random_range(0..3) {
                    0 if at < s.len() => {
                        s.remove(at);
                    }
                    0 | 1 => s.insert(
                        at.min(s.len()),
                        alphabet[rng.random_range(0..alphabet.len())],
                    ),
                    _ => s.truncate(at.max(1)),
                }
            }
            s.into_iter().collect()
        };
        for f in ActionFormat::ALL {
            match f.parse(&text, &c) {
                Ok(a) => {
                    oks += 1;
                    assert!(a.len() <= MAX_ACTIONS_PER_TURN, "{f}: {text:?}");
                }
                Err(e) => assert!(
                    !e.to_string().trim().is_empty(),
                    "{f}: empty error for {text:?}"
                ),
            }
        }
    }
    assert!(oks > 0, "some mutated replies still parse");
}

#[test]
fn anthropic_tool_versions_give_their_beta_flags() {
    assert_eq!(
        anthropic::beta_of("computer_20250124").ok().as_deref(),
        Some("computer-use-2025-01-24")
    );
    assert_eq!(
        anthropic::beta_of("computer_20251124").ok().as_deref(),
        Some("computer-use-2025-11-24")
    );
    assert!(anthropic::beta_of("computer_2025").is_err());
    assert!(anthropic::beta_of("bash_20250124").is_err());
}
