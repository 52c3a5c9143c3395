//! What the judge is asked and how its answer becomes the score `call_llm_judge` returns.

use serde_json::Value;

use tuplewright_models::providers::reply::extract_object;
use tuplewright_models::providers::{ChatRequest, Message};

const SYSTEM: &str = "You are the judge inside a reward function of a computer-use task. You are \
given the task's instruction, the success criteria of one component, and an excerpt of the \
environment's final state. Decide how well the state meets the criteria. Answer with one JSON \
object and nothing else: {\"score\": <a number from 0 to 1>, \"reasoning\": \"<one sentence>\"}. \
Score 1 when the criteria are fully met, 0 when they are not met at all.";

/// The request for one `call_llm_judge` call.
pub fn prompt(instruction: &str, criteria: &str, excerpt: &str) -> ChatRequest {
    ChatRequest {
        system: SYSTEM.to_string(),
        messages: vec![Message::User(format!(
            "## Task instruction\n{instruction}\n\n## Success criteria\n{criteria}\n\n\
             ## State excerpt\n{excerpt}\n"
        ))],
        tools: Vec::new(),
    }
}

/// The score in [0, 1] and the reasoning of a judge's reply: the first JSON object's `score`, or
/// a reply that is a bare number or starts with yes/no. Anything else is an error naming it.
pub fn read_score(text: &str) -> Result<(f64, String), String> {
    if let Some(obj) = extract_object(text) {
        let v: Value = serde_json::from_str(obj)
            .map_err(|e| format!("the judge's reply has invalid JSON: {e}"))?;
        let score = v
            .get("score")
            .and_then(|s| s.as_f64().or_else(|| s.as_str()?.trim().parse().ok()))
            .filter(|s| (0.0..=1.0).contains(s))
            .ok_or_else(|| {
                format!(
                    "the judge's reply has no `score` in [0, 1]: {}",
                    tuplewright_models::providers::excerpt(obj, 120)
                )
            })?;
        let why = v
            .get("reasoning")
            .and_then(Value::as_str)
            .unwrap_or_default();
        return Ok((score, why.to_string()));
    }
    let t = text.trim();
    if let Ok(n) = t.parse::<f64>() {
        if (0.0..=1.0).contains(&n) {
            return Ok((n, String::new()));
        }
    }
    let first: String = t
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect::<String>()
        .to_ascii_lowercase();
    match first.as_str() {
        "yes" => Ok((1.0, t.to_string())),
        "no" => Ok((0.0, t.to_string())),
        _ => Err(format!(
            "the judge's reply is not a verdict (expected {{\"score\": 0..1}}): {}",
            tuplewright_models::providers::excerpt(t, 120)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_are_read_in_the_shapes_models_answer() {
        assert_eq!(
            read_score("Sure. {\"score\": 0.5, \"reasoning\": \"half\"}").unwrap(),
            (0.5, "half".into())
        );
        assert_eq!(read_score("{\"score\": \"1\"}").unwrap().0, 1.0);
        assert_eq!(read_score(" 0.25 ").unwrap().0, 0.25);
        assert_eq!(read_score("Yes, it is professional.").unwrap().0, 1.0);
        assert_eq!(read_score("no").unwrap().0, 0.0);
        assert!(read_score("{\"score\": 3}").unwrap_err().contains("[0, 1]"));
        assert!(read_score("maybe").unwrap_err().contains("not a verdict"));
        assert!(read_score("nothing").unwrap_err().contains("not a verdict"));
    }

    #[test]
    fn the_prompt_carries_the_three_fields() {
        let r = prompt("Archive it", "digest archived", "{\"folder\": \"archive\"}");
        let Message::User(text) = &r.messages[0] else {
            panic!("user message expected");
        };
        for part in ["Archive it", "digest archived", "\"folder\""] {
            assert!(text.contains(part), "{text}");
        }
    }
}
