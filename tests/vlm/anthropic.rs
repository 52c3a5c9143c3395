//! The Messages API computer tool: `tool_use` blocks in, `tool_result` blocks with images out.

use serde_json::{json, Value};
use tuplewright::engine::rollout::vlm::Ending;

use crate::vlm::standin::{anthropic_text, anthropic_tools, Reply, StandIn};
use crate::vlm_support::{fast_config, form_episode, png_size, FormServer, BUTTON, FIELD};

fn click(x: i32, y: i32) -> Value {
    json!({"action": "left_click", "coordinate": [x, y]})
}

#[test]
fn anthropic_standin_computer_tool_fills_the_form_and_reads_errors_as_tool_results() {
    let form = FormServer::start();
    let model = StandIn::start(
        vec![
            Reply::json(anthropic_tools(
                &[
                    ("toolu_1", "computer", click(FIELD.0, FIELD.1)),
                    (
                        "toolu_2",
                        "computer",
                        json!({"action": "type", "text": "claude was here"}),
                    ),
                ],
                1200,
                80,
            )),
            Reply::json(anthropic_tools(
                &[("toolu_3", "computer", click(5000, 5000))],
                1300,
                30,
            )),
            Reply::raw(
                529,
                r#"{"type": "error", "error": {"type": "overloaded_error"}}"#,
            ),
            Reply::json(anthropic_tools(
                &[("toolu_4", "computer", click(BUTTON.0, BUTTON.1))],
                1400,
                30,
            )),
            Reply::json(anthropic_text("The form is sent.", 1500, 10)),
        ],
        None,
    );
    let cfg = fast_config();
    let ep = form_episode(
        &format!("anthropic:claude-standin@{}", model.base),
        &cfg,
        &form,
        "Send 'claude was here'.",
    );
    assert_eq!(
        ep.ending,
        Ending::Terminated { success: true },
        "a reply without tool_use ends it"
    );
    assert_eq!(form.posts(), vec!["claude was here".to_string()]);
    let reqs = model.requests();
    assert_eq!(reqs.len(), 5, "four turns and one retried 529");
    let r0 = &reqs[0];
    assert_eq!(r0.path, "/v1/messages");
    assert_eq!(r0.header("anthropic-beta"), Some("computer-use-2025-01-24"));
    assert_eq!(r0.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(
        r0.body["tools"][0],
        json!({"type": "computer_20250124", "name": "computer",
        "display_width_px": 1280, "display_height_px": 800, "display_number": 1})
    );
    let first = &r0.body["messages"][0]["content"];
    assert_eq!(first[0]["text"], "Send 'claude was here'.");
    assert_eq!(
        png_size(first[1]["source"]["data"].as_str().expect("image")),
        (1280, 800)
    );
    // Turn 2 answers both calls; the screenshot rides on the last result.
    let m = &reqs[1].body["messages"];
    assert_eq!(m[1]["role"], "assistant");
    assert_eq!(
        m[1]["content"][1]["id"], "toolu_1",
        "the assistant turn is echoed verbatim"
    );
    let results = m[2]["content"].as_array().expect("results");
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["tool_use_id"], "toolu_1");
    assert_eq!(results[0]["content"], json!([]));
    assert_eq!(results[1]["tool_use_id"], "toolu_2");
    assert_eq!(
        png_size(
            results[1]["content"][0]["source"]["data"]
                .as_str()
                .expect("image")
        ),
        (1280, 800)
    );
    // The click outside the screen is an error result the model reads, then the screen again.
    let m = &reqs[2].body["messages"];
    let last = m[m.as_array().expect("messages").len() - 1]["content"]
        .as_array()
        .expect("content")
        .clone();
    assert_eq!(last[0]["tool_use_id"], "toolu_3");
    assert_eq!(last[0]["is_error"], true);
    assert!(last[0]["content"][0]["text"]
        .as_str()
        .expect("text")
        .contains("outside the screen"));
    assert_eq!(last[1]["type"], "image");
    assert_eq!(reqs[2].body, reqs[3].body, "the 529 is retried unchanged");
    assert_eq!(ep.usage.output_tokens, 80 + 30 + 30 + 10);
}
