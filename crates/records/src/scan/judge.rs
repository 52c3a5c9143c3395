//! LLM-judge calls for the data-flow pass: which calls consult a language model, and how much
//! of a value the judge's output makes up.
//!
//! A judge call is a call of a function the script does not define whose name says judge or
//! LLM (`call_llm_judge`, `ask_llm`, `judge.score`), a model API call (`model=` with
//! `messages=`/`prompt=`/`contents=`; `chat.completions.create`, `messages.create`,
//! `generate_content`, anything under `openai`, `anthropic`, `litellm`, `ollama`), or an HTTP
//! request to a chat endpoint (`/chat/completions`, `/v1/messages`, `/api/chat`, …). Its output
//! is a value with `Taint::judge` set and weight 1 (a judge's score is in [0, 1]); the weight
//! then follows the arithmetic (`0.4 * llm` is 0.4, `a + b` adds, `x / 2` halves; an unknown
//! coefficient makes it unknown, NaN). `rules/judge.rs` compares the weight reaching the reward
//! with the configured limit.

use super::py::ast;
use super::taint::{wmax, Taint, Val};
use ast::Operator;

/// Modules whose calls are model calls.
const LLM_MODULES: &[&str] = &[
    "openai",
    "anthropic",
    "litellm",
    "ollama",
    "google.generativeai",
    "genai",
    "langchain",
    "langchain_openai",
    "langchain_anthropic",
    "cohere",
    "mistralai",
    "groq",
];

/// Method chains that call a model, whatever the receiver is named.
const LLM_METHODS: &[&str] = &[
    "chat.completions.create",
    "completions.create",
    "ChatCompletion.create",
    "Completion.create",
    "responses.create",
    "generate_content",
];

/// URL fragments of chat/completion endpoints and model API hosts.
const LLM_URLS: &[&str] = &[
    "/chat/completions",
    "/v1/completions",
    "/v1/messages",
    "/v1/responses",
    "/api/chat",
    "/api/generate",
    ":generatecontent",
    "api.openai.com",
    "api.anthropic.com",
    "openai.azure.com",
    "generativelanguage.googleapis.com",
    "openrouter.ai",
];

/// HTTP request functions whose URL decides whether they call a model (model APIs are
/// POSTs; `get` is not here, it is the commonest call in a reward).
const HTTP_CALLS: &[&str] = &["post", "request", "urlopen", "Request", "stream"];

/// The output of a judge call at `at`.
pub(super) fn judge_output(at: usize) -> Val {
    Val::of(Taint {
        judge: Some(at),
        judge_w: 1.0,
        ..Taint::default()
    })
}

/// Whether a name says judge or LLM in one of its segments (split on `.` and `_`, any case):
/// `call_llm_judge`, `ask_llm`, `judge.score`, `callLLM`. Allocation-free: it runs per call.
fn judge_name(name: &str) -> bool {
    name.split(['.', '_']).any(|w| {
        let b = w.as_bytes();
        let llm = |part: &[u8]| part.eq_ignore_ascii_case(b"llm");
        b.windows(5).any(|x| x.eq_ignore_ascii_case(b"judge"))
            || (b.len() >= 3 && (llm(&b[..3]) || llm(&b[b.len() - 3..])))
    })
}

/// True when the call consults a language model. `name` is the qualified callee (aliases
/// expanded), `local` whether the script defines it, `texts` gives the known texts of the first
/// two arguments (lower-cased; the URL of an HTTP call).
pub(super) fn is_judge_call(
    c: &ast::ExprCall,
    name: Option<&str>,
    local: bool,
    texts: &dyn Fn() -> Vec<String>,
) -> bool {
    let keywords: Vec<&str> = c
        .arguments
        .keywords
        .iter()
        .filter_map(|k| k.arg.as_ref().map(|a| a.as_str()))
        .collect();
    if keywords.contains(&"model")
        && keywords
            .iter()
            .any(|k| matches!(*k, "messages" | "prompt" | "contents"))
        && !local
    {
        return true;
    }
    let Some(name) = name else {
        return false;
    };
    if local {
        return false;
    }
    if judge_name(name) || LLM_METHODS.iter().any(|m| name.ends_with(m)) {
        return true;
    }
    if LLM_MODULES
        .iter()
        .any(|m| name.starts_with(m) && name[m.len()..].starts_with('.'))
        && name.rsplit('.').next().is_some_and(|last| {
            matches!(
                last,
                "create" | "completion" | "acompletion" | "chat" | "generate" | "invoke"
            )
        })
    {
        return true;
    }
    let last = name.rsplit('.').next().unwrap_or(name);
    HTTP_CALLS.contains(&last)
        && texts()
            .iter()
            .any(|t| LLM_URLS.iter().any(|u| t.contains(u)))
}

/// The judge weight of `l op r`.
pub(super) fn binop_weight(op: Operator, l: &Val, r: &Val) -> f64 {
    let (lw, rw) = (l.taint.judge_w, r.taint.judge_w);
    if lw == 0.0 && rw == 0.0 {
        return 0.0;
    }
    match op {
        Operator::Add | Operator::Sub => lw + rw,
        Operator::Mult if lw != 0.0 && rw != 0.0 => wmax(lw, rw),
        Operator::Mult if lw != 0.0 => r.num.map_or(f64::NAN, |n| lw * n.abs()),
        Operator::Mult => l.num.map_or(f64::NAN, |n| rw * n.abs()),
        Operator::Div if rw == 0.0 => r
            .num
            .filter(|n| *n != 0.0)
            .map_or(f64::NAN, |n| lw / n.abs()),
        _ => wmax(lw, rw),
    }
}

/// The judge weight an award takes from its own value and from a judge-decided condition
/// (`if llm_ok: score += 0.7` takes 0.7).
pub(super) fn contribution(value: &Taint, num: Option<f64>, cond: &Taint) -> f64 {
    if cond.judge.is_some() {
        let own = num.map_or(f64::NAN, f64::abs);
        if value.judge_w == 0.0 {
            own
        } else {
            wmax(value.judge_w, own)
        }
    } else {
        value.judge_w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judge_names_are_recognised_without_false_friends() {
        for n in [
            "call_llm_judge",
            "reward_judge.ask_llm",
            "judge.score",
            "callLLM",
            "LLMClient.grade",
        ] {
            assert!(judge_name(n), "{n}");
        }
        for n in [
            "requests.get",
            "smallmap",
            "fill_mask",
            "adj.ud.ge",
            "json.loads",
        ] {
            assert!(!judge_name(n), "{n}");
        }
    }

    #[test]
    fn weights_follow_the_arithmetic() {
        let judge = judge_output(0);
        let c = |n: f64| Val {
            num: Some(n),
            ..Val::default()
        };
        assert_eq!(binop_weight(Operator::Mult, &c(0.4), &judge), 0.4);
        assert_eq!(binop_weight(Operator::Div, &judge, &c(4.0)), 0.25);
        let mut sum = judge.clone();
        sum.taint.judge_w = 0.3;
        assert!((binop_weight(Operator::Add, &sum, &sum) - 0.6).abs() < 1e-9);
        assert!(
            binop_weight(Operator::Mult, &Val::env(), &judge).is_nan(),
            "unknown factor"
        );
        assert_eq!(binop_weight(Operator::Add, &c(1.0), &c(2.0)), 0.0);
    }
}
