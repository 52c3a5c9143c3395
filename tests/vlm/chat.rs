//! Chat completions with image parts: `qwen-xml` (relative 0–999) and `uitars` (smart resize).

use serde_json::Value;
use tuplewright::engine::rollout::screen::ComputerAction as A;
use tuplewright::engine::rollout::vlm::{
    wire_from_spec, ActionFormat, CoordSpace, Coords, Ending, VlmConfig, HISTORY_PLACEHOLDER,
};

use crate::vlm::standin::{openai_text, Reply, StandIn};
use crate::vlm_support::{
    count, fast_config, form_episode, png_size, strings_under, FormServer, BUTTON, FIELD,
};

fn images(body: &Value) -> Vec<(u32, u32)> {
    let mut urls = Vec::new();
    strings_under(body, "url", &mut urls);
    urls.iter().map(|u| png_size(u)).collect()
}

#[test]
fn chat_standin_qwen_xml_fills_a_form_through_garbage_a_429_and_a_failing_key() {
    let form = FormServer::start();
    let coords = Coords::new(CoordSpace::Relative1000, 1280, 800).expect("coords");
    let say = |actions: &[A]| {
        Reply::json(openai_text(
            &ActionFormat::QwenXml.render("Next step.", actions, &coords),
            1000,
            50,
        ))
    };
    let model = StandIn::start(
        vec![
            Reply::json(openai_text("I am not sure what to do here.", 900, 10)),
            Reply::raw(429, r#"{"error": {"message": "slow down"}}"#).header("retry-after", "0"),
            say(&[
                A::LeftClick {
                    x: FIELD.0,
                    y: FIELD.1,
                },
                A::Type {
                    text: "hello standin".into(),
                },
            ]),
            say(&[
                A::Key {
                    key: "NoSuchKeyName".into(),
                },
                A::LeftClick {
                    x: BUTTON.0,
                    y: BUTTON.1,
                },
            ]),
            say(&[A::LeftClick {
                x: BUTTON.0,
                y: BUTTON.1,
            }]),
            say(&[A::Terminate { success: true }]),
        ],
        None,
    );
    let cfg = VlmConfig {
        history_n: 2,
        temperature: 0.6,
        top_p: 0.95,
        ..fast_config()
    };
    let ep = form_episode(
        &format!("vlm:openai:cua-gym-standin@{}/v1", model.base),
        &cfg,
        &form,
        "Type hello standin into the field and press Send.",
    );
    assert_eq!(ep.ending, Ending::Terminated { success: true });
    assert_eq!(
        form.posts(),
        vec!["hello standin".to_string()],
        "the page saw the form"
    );

    let reqs = model.requests();
    assert_eq!(reqs.len(), 6, "five turns and one retried 429");
    assert!(reqs.iter().all(|r| r.path == "/v1/chat/completions"));
    let b0 = &reqs[0].body;
    assert_eq!(b0["model"], "cua-gym-standin");
    assert_eq!(b0["max_tokens"], 2048);
    assert_eq!(b0["temperature"], 0.6);
    assert_eq!(b0["top_p"], 0.95);
    assert_eq!(b0["messages"][0]["role"], "system");
    assert!(b0["messages"][0]["content"]
        .as_str()
        .expect("system")
        .contains("<function=computer_use>"));
    assert_eq!(
        b0["messages"][1]["content"][0]["text"],
        "Type hello standin into the field and press Send."
    );
    // Images per request (native 1280x800 in rel1000) and the history placeholder (history_n = 2).
    let shapes: Vec<(usize, usize)> = reqs
        .iter()
        .map(|r| (images(&r.body).len(), count(&r.body, HISTORY_PLACEHOLDER)))
        .collect();
    assert_eq!(shapes, vec![(1, 0), (1, 0), (1, 0), (2, 0), (2, 1), (2, 2)]);
    assert!(reqs
        .iter()
        .flat_map(|r| images(&r.body))
        .all(|s| s == (1280, 800)));
    // The parser's error and the failing action come back as the next user turn.
    assert!(
        count(&reqs[1].body, "no <tool_call> block") == 1,
        "{}",
        reqs[1].body
    );
    assert_eq!(
        reqs[1].body, reqs[2].body,
        "the 429 is retried with the same request"
    );
    assert!(
        count(&reqs[4].body, "Action 1 failed") == 1 && count(&reqs[4].body, "were not run") == 1
    );
    // Steps: click, type, the failing key (with its error), click, terminate.
    let kinds: Vec<String> = ep
        .steps
        .iter()
        .map(|s| {
            serde_json::to_value(&s.action).expect("json")["action"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    assert_eq!(
        kinds,
        ["left_click", "type", "key", "left_click", "terminate"]
    );
    assert!(
        ep.steps[2]
            .error
            .as_deref()
            .is_some_and(|e| e.contains("NoSuchKeyName")),
        "{:?}",
        ep.steps[2].error
    );
    assert!(
        ep.steps[1].screenshot_png.is_some() && ep.steps[3].screenshot_png.is_some(),
        "each turn's last action has its screenshot"
    );
    // issue #28: the observation after typing is the settled screen, showing the typed text.
    assert!(
        ep.steps[1].settle_ms.is_some(),
        "{:?}",
        ep.steps[1].settle_ms
    );
    assert_ne!(
        ep.steps[1].screenshot_png, ep.steps[0].screenshot_png,
        "the model's observation after typing differs from the one before it"
    );
    // Per-turn records: tokens, cost and the verbatim reply.
    assert_eq!(ep.turns.len(), 5);
    assert!(ep.turns[0]["parse_error"].is_string());
    assert_eq!(ep.usage.input_tokens, 900 + 4 * 1000);
    assert_eq!(ep.usage.calls, 6);
    assert!(ep.turns[1]["reply"]
        .as_str()
        .expect("reply")
        .contains("hello standin"));
}

#[test]
fn chat_standin_uitars_in_smart_resize_gets_resized_images_and_lands_its_clicks() {
    let form = FormServer::start();
    let cfg = fast_config();
    let wire = wire_from_spec(
        "vlm:openai:ByteDance-Seed/UI-TARS-1.5-7B@http://127.0.0.1:9/v1",
        &cfg,
    )
    .expect("wire");
    let coords = wire.coords(1280, 800).expect("coords");
    assert_eq!(
        coords.image,
        (1288, 812),
        "Qwen2.5-VL smart resize of 1280x800"
    );
    let say = |actions: &[A]| {
        Reply::json(openai_text(
            &ActionFormat::Uitars.render("Fill the field.", actions, &coords),
            500,
            20,
        ))
    };
    let model = StandIn::start(
        vec![
            say(&[
                A::LeftClick {
                    x: FIELD.0,
                    y: FIELD.1,
                },
                A::Type {
                    text: "tars was here".into(),
                },
            ]),
            say(&[A::LeftClick {
                x: BUTTON.0,
                y: BUTTON.1,
            }]),
            say(&[A::Terminate { success: true }]),
        ],
        None,
    );
    let ep = form_episode(
        &format!("vlm:openai:ByteDance-Seed/UI-TARS-1.5-7B@{}/v1", model.base),
        &cfg,
        &form,
        "Send 'tars was here'.",
    );
    assert_eq!(ep.ending, Ending::Terminated { success: true });
    assert_eq!(form.posts(), vec!["tars was here".to_string()]);
    let reqs = model.requests();
    assert_eq!(reqs.len(), 3);
    for r in &reqs {
        assert!(
            images(&r.body).iter().all(|s| *s == (1288, 812)),
            "images are sent smart-resized"
        );
    }
    assert!(
        count(&reqs[0].body, "Thought: ...") == 1,
        "the UI-TARS system prompt"
    );
}
