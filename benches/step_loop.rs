//! Benchmark of the VLM step loop's overhead per turn, the model excluded (`cargo bench --bench
//! step_loop`): a local chat-completions stand-in answers every request instantly with one
//! `mouse_move`; each turn still builds the request (every kept screenshot base64-encoded),
//! posts it, parses the reply, performs the action through XTEST, takes and encodes the next
//! screenshot (and resizes it under smart resize). Real Xvfb + Chromium showing a form page,
//! `settle_ms = 0`. Reported: median and p90 per turn over episodes of 10 turns, per setting.

#[allow(dead_code)]
#[path = "../tests/providers/standin.rs"]
mod standin;
#[path = "../tests/vlm_support/mod.rs"]
mod vlm_support;

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use standin::{openai_text, Reply, StandIn};
use tuplewright::engine::rollout::screen::ComputerAction as A;
use tuplewright::engine::rollout::vlm::{run_episode, wire_from_spec, ActionFormat, VlmConfig};
use vlm_support::{fast_config, form_screen, FormServer};

const TURNS: u32 = 10;
const EPISODES: usize = 9;

fn main() {
    let form = FormServer::start();
    let mut screen = form_screen(&form);
    println!("step loop overhead per turn, model excluded ({TURNS} turns x {EPISODES} episodes, 1280x800, Chromium)");
    for (model, coords, history) in [
        ("cua-gym-standin", "rel1000", 1),
        ("cua-gym-standin", "rel1000", 5),
        ("Qwen/Qwen2.5-VL-7B-Instruct", "smart-resize", 5),
    ] {
        let cfg = VlmConfig {
            history_n: history,
            max_turns: TURNS,
            settle_ms: 0,
            coords: coords.into(),
            ..fast_config()
        };
        let probe = wire_from_spec(&format!("vlm:openai:{model}@http://127.0.0.1:9/v1"), &cfg)
            .expect("wire");
        let c = probe.coords(1280, 800).expect("coords");
        let format = ActionFormat::for_model(model).0;
        let text = format.render("", &[A::MouseMove { x: 640, y: 400 }], &c);
        let model_srv = StandIn::start(vec![], Some(Reply::json(openai_text(&text, 1, 1))));
        let wire = wire_from_spec(&format!("vlm:openai:{model}@{}/v1", model_srv.base), &cfg)
            .expect("wire");
        let mut per_turn = Vec::new();
        let mut model_share = Vec::new();
        for _ in 0..EPISODES {
            let t = Instant::now();
            let ep = run_episode(
                &mut screen,
                wire.as_ref(),
                "bench",
                &cfg.limits(),
                &AtomicBool::new(false),
            )
            .expect("episode");
            let total = t.elapsed().as_secs_f64() * 1000.0;
            per_turn.push(total / f64::from(TURNS));
            let http: f64 = ep.turns.iter().filter_map(|t| t["model_ms"].as_f64()).sum();
            model_share.push(http / f64::from(TURNS));
        }
        per_turn.sort_by(f64::total_cmp);
        model_share.sort_by(f64::total_cmp);
        println!(
            "  {coords:<13} history_n={history:<2} median {:>6.1} ms/turn  p90 {:>6.1}  (of which request+stand-in+parse {:>5.1} ms)",
            per_turn[EPISODES / 2],
            per_turn[EPISODES * 9 / 10],
            model_share[EPISODES / 2],
        );
    }
}
