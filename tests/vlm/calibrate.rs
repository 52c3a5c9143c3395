//! `agents check SPEC --screen`: the calibration against a stand-in that answers with the disc's
//! point in its coordinate space (and one that answers in the wrong space).

use tuplewright::engine::rollout::screen::ComputerAction as A;
use tuplewright::engine::rollout::vlm::calibrate::target;
use tuplewright::engine::rollout::vlm::{ActionFormat, CoordSpace, Coords};

use crate::vlm::standin::{openai_text, Reply, StandIn};

fn check(base: &str, extra: &[&str]) -> std::process::Output {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("tuplewright"));
    cmd.args([
        "agents",
        "check",
        &format!("vlm:openai:Qwen/Qwen2.5-VL-7B-Instruct@{base}/v1"),
        "--screen",
    ])
    .args(extra);
    cmd.output().expect("runs")
}

#[test]
fn agents_check_screen_standin_prints_the_click_error_in_pixels() {
    let (x, y) = target(1280, 800);
    // Qwen2.5-VL answers in smart-resize pixels (1288x812 for this screen).
    let space: CoordSpace = "smart-resize".parse().expect("space");
    let coords = Coords::new(space, 1280, 800).expect("coords");
    let reply = ActionFormat::QwenJson.render("", &[A::LeftClick { x, y }], &coords);
    let model = StandIn::start(vec![Reply::json(openai_text(&reply, 1500, 20))], None);
    let out = check(&model.base, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("image sent 1288x812, coordinates smart-resize:28:3136:12845056"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("target    ({x}, {y})")),
        "{stdout}"
    );
    let err: f64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("error     "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("an error line");
    assert!(err <= 1.5, "{stdout}");
    let sent = &model.requests()[0].body;
    assert!(sent
        .to_string()
        .contains("Click the centre of the red circle"));

    // The same answer read as relative 0-999 lands far away: exit 1 and a hint.
    let model = StandIn::start(vec![Reply::json(openai_text(&reply, 1500, 20))], None);
    let out = check(&model.base, &["--coords", "rel1000"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("missed by") && stderr.contains("try --coords"),
        "{stderr}"
    );
}
