//! The Responses API `computer_use_preview` tool: `computer_call` items in,
//! `computer_call_output` screenshots out, safety checks acknowledged.

use serde_json::{json, Value};
use tuplewright::engine::rollout::vlm::Ending;

use crate::vlm::standin::{Reply, StandIn};
use crate::vlm_support::{fast_config, form_episode, png_size, FormServer, BUTTON, FIELD};

fn call(n: u32, action: Value, checks: Value) -> Reply {
    Reply::json(json!({
        "id": format!("resp_{n}"), "object": "response", "status": "completed",
        "output": [
            {"type": "reasoning", "id": format!("rs_{n}"), "summary": []},
            {"type": "computer_call", "id": format!("cu_{n}"), "call_id": format!("call_{n}"),
             "action": action, "pending_safety_checks": checks, "status": "completed"}
        ],
        "usage": {"input_tokens": 700, "output_tokens": 15, "total_tokens": 715}
    }))
}

#[test]
fn responses_standin_computer_calls_fill_the_form_with_screenshots_as_call_outputs() {
    let form = FormServer::start();
    let check =
        json!([{"id": "sc_1", "code": "malicious_instructions", "message": "check the page"}]);
    let model = StandIn::start(
        vec![
            call(
                1,
                json!({"type": "click", "button": "left", "x": FIELD.0, "y": FIELD.1}),
                check.clone(),
            ),
            call(
                2,
                json!({"type": "type", "text": "operator was here"}),
                json!([]),
            ),
            call(
                3,
                json!({"type": "click", "button": "left", "x": BUTTON.0, "y": BUTTON.1}),
                json!([]),
            ),
            Reply::json(
                json!({"id": "resp_4", "object": "response", "status": "completed",
                "output": [{"type": "message", "id": "msg_4", "role": "assistant",
                    "content": [{"type": "output_text", "text": "Sent."}]}],
                "usage": {"input_tokens": 900, "output_tokens": 5}}),
            ),
        ],
        None,
    );
    let cfg = fast_config();
    let ep = form_episode(
        &format!("openai-responses:computer-use-preview@{}/v1", model.base),
        &cfg,
        &form,
        "Send 'operator was here'.",
    );
    assert_eq!(ep.ending, Ending::Terminated { success: true });
    assert_eq!(form.posts(), vec!["operator was here".to_string()]);
    let reqs = model.requests();
    assert_eq!(reqs.len(), 4);
    let b0 = &reqs[0].body;
    assert_eq!(reqs[0].path, "/v1/responses");
    assert_eq!(
        b0["tools"][0],
        json!({"type": "computer_use_preview", "display_width": 1280,
        "display_height": 800, "environment": "browser"})
    );
    assert_eq!(b0["truncation"], "auto");
    assert_eq!(
        b0["input"][0]["content"][0]["text"],
        "Send 'operator was here'."
    );
    assert_eq!(
        png_size(
            b0["input"][0]["content"][1]["image_url"]
                .as_str()
                .expect("image")
        ),
        (1280, 800)
    );
    // Turn 2: the output items echoed (reasoning included), then the call's screenshot.
    let input = reqs[1].body["input"].as_array().expect("input").clone();
    assert_eq!(input[1]["type"], "reasoning");
    assert_eq!(input[2]["type"], "computer_call");
    let out = &input[3];
    assert_eq!(out["type"], "computer_call_output");
    assert_eq!(out["call_id"], "call_1");
    assert_eq!(out["acknowledged_safety_checks"], check);
    assert_eq!(out["output"]["type"], "computer_screenshot");
    assert_eq!(
        png_size(out["output"]["image_url"].as_str().expect("image")),
        (1280, 800)
    );
    assert_eq!(ep.usage.input_tokens, 3 * 700 + 900);
}
