//! Realistic Generator mistakes for the scripted agent (paper E.4), so FAIL → feedback → PASS
//! sequences can be demonstrated and tested.
//!
//! Whether a task's first attempt is faulty, and how, is decided from `(seed, task_id, round 1)`
//! with probability `fault_rate`. With `fault_depth` > 1, each further (different) mistake is added
//! with the same probability, so a crash in round 1 can mask a regression that only round 2
//! reveals (three-round convergences). The mistake stays in every later attempt that has no feedback
//! (no previous REVIEW.md). Given a previous REVIEW.md, the Generator reads its condition table: a
//! mistake whose symptom the review names (its condition FAILed) is fixed; one whose condition was
//! NOT RUN (masked by an earlier failure) is still there; one whose condition PASSed was already gone.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The kinds of mistake the scripted Generator makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// initial_setup.py reads a misspelled slot key and dies with a KeyError (C1 fails).
    SetupCrash,
    /// golden_patch.py writes a wrong value (copy-paste from a neighbouring slot, an off-by-one,
    /// a dropped list item) into the slot the reward verifies (C3 fails, naming the component).
    GoldenRegression,
    /// initial_setup.py also performs the task, so the initial state already earns credit (C4 fails).
    PreComplete,
}

impl FaultKind {
    /// The agreement condition whose failure names this mistake.
    pub fn condition(self) -> &'static str {
        match self {
            FaultKind::SetupCrash => "C1",
            FaultKind::GoldenRegression => "C3",
            FaultKind::PreComplete => "C4",
        }
    }
}

/// A uniform number in [0, 1) from the seed, the task and a salt.
fn unit(seed: u64, task_id: &str, round: u32, salt: &str) -> f64 {
    let digest = Sha256::digest(format!("{seed}\u{0}{task_id}\u{0}{round}\u{0}{salt}").as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    (u64::from_be_bytes(bytes) >> 11) as f64 / (1u64 << 53) as f64
}

/// The mistake of the task's first attempt, if any.
pub fn planned(seed: u64, task_id: &str, fault_rate: f64) -> Option<FaultKind> {
    planned_all(seed, task_id, fault_rate, 1).into_iter().next()
}

/// Every mistake of the task's first attempt (at most `depth`, all different), in the order the
/// agreement conditions would reveal them. The first is the one [`planned`] returns; each further
/// one is added with probability `fault_rate`.
pub fn planned_all(seed: u64, task_id: &str, fault_rate: f64, depth: u32) -> Vec<FaultKind> {
    let mut kinds = vec![
        FaultKind::SetupCrash,
        FaultKind::GoldenRegression,
        FaultKind::PreComplete,
    ];
    let mut out = Vec::new();
    for i in 0..depth.min(3) {
        let salt = if i == 0 {
            "fault".to_string()
        } else {
            format!("fault{i}")
        };
        if fault_rate <= 0.0 || unit(seed, task_id, 1, &salt) >= fault_rate {
            break;
        }
        let salt = if i == 0 {
            "kind".to_string()
        } else {
            format!("kind{i}")
        };
        let pick = (unit(seed, task_id, 1, &salt) * kinds.len() as f64) as usize;
        out.push(kinds.remove(pick.min(kinds.len() - 1)));
    }
    out.sort_by_key(|k| k.condition());
    out
}

/// The status column (`PASS`, `FAIL`, `NOT RUN`) of condition `id` in a REVIEW.md table.
pub fn review_status(review: &str, id: &str) -> Option<String> {
    review.lines().find_map(|line| {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // "| C1 | title | STATUS | details |" splits into ["", "C1", title, STATUS, ...].
        (cells.len() >= 5 && cells[1] == id).then(|| cells[3].to_string())
    })
}

/// Whether the planned mistake is still present in this attempt, given the previous review.
pub fn still_present(kind: FaultKind, previous_review: Option<&str>) -> bool {
    match previous_review {
        None => true,
        Some(review) => review_status(review, kind.condition()).as_deref() == Some("NOT RUN"),
    }
}

/// The first slot key a setup body reads as `S["key"]`.
pub fn first_setup_key(body: &str) -> Option<String> {
    let re = regex::Regex::new(r#"S\["([A-Za-z0-9_]+)"\]"#).ok()?;
    re.captures(body).map(|c| c[1].to_string())
}

/// A typo of a key: its middle character dropped (`channel` → `chanel`).
pub fn typo(key: &str) -> String {
    let chars: Vec<char> = key.chars().collect();
    if chars.len() < 2 {
        return format!("{key}_");
    }
    let mid = chars.len() / 2;
    chars
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != mid)
        .map(|(_, c)| *c)
        .collect()
}

/// A realistic wrong value for `value`: `source` pasted in when it differs and has the same JSON
/// type; otherwise a string loses its last character (or gains an `x` after a trailing `/`), a number is off by one, a bool flips, a
/// list loses its last item and an object gets its first non-id entry mutated.
pub fn mutate(value: &Value, source: Option<&Value>) -> Value {
    if let Some(src) = source {
        if src != value && std::mem::discriminant(src) == std::mem::discriminant(value) {
            return src.clone();
        }
    }
    match value {
        // A trailing `/` is dropped by URL-normalising rewards, so such a value grows instead.
        Value::String(s) if s.chars().count() > 1 && !s.ends_with('/') => {
            let mut t = s.clone();
            t.pop();
            Value::String(t)
        }
        Value::String(s) => Value::String(format!("{s}x")),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => Value::from(i + 1),
            (None, Some(f)) => Value::from(f + 1.0),
            _ => value.clone(),
        },
        Value::Bool(b) => Value::Bool(!b),
        Value::Array(items) if !items.is_empty() => Value::Array(items[..items.len() - 1].to_vec()),
        Value::Array(_) => Value::Array(vec![Value::Null]),
        Value::Object(map) => {
            let mut out = map.clone();
            if let Some((key, inner)) = map.iter().find(|(k, _)| k.as_str() != "id") {
                out.insert(key.clone(), mutate(inner, None));
            }
            Value::Object(out)
        }
        Value::Null => Value::Bool(true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const REVIEW: &str =
        "## Agreement Conditions\n\n| # | Condition | Status | Details |\n|---|---|---|---|\n\
        | C1 | initial_setup.py executes on V_init | PASS | ran |\n\
        | C2 | golden_patch.py executes on V_gold | FAIL | KeyError |\n\
        | C3 | r(gold) = 1.0 | NOT RUN | not run |\n\
        | C4 | r(init) = 0.0 | FAIL | r(init) = 0.3000 |\n";

    #[test]
    fn a_url_with_a_trailing_slash_grows_instead_of_losing_the_slash() {
        assert_eq!(
            mutate(&json!("https://intranet.example.test/"), None),
            json!("https://intranet.example.test/x")
        );
        assert_eq!(mutate(&json!("Osprey"), None), json!("Ospre"));
    }

    #[test]
    fn review_table_is_read_per_condition() {
        assert_eq!(review_status(REVIEW, "C1").as_deref(), Some("PASS"));
        assert_eq!(review_status(REVIEW, "C3").as_deref(), Some("NOT RUN"));
        assert_eq!(review_status(REVIEW, "C5"), None);
    }

    #[test]
    fn named_mistakes_are_fixed_masked_ones_persist() {
        assert!(still_present(FaultKind::SetupCrash, None));
        assert!(
            !still_present(FaultKind::SetupCrash, Some(REVIEW)),
            "C1 passed: gone"
        );
        assert!(
            still_present(FaultKind::GoldenRegression, Some(REVIEW)),
            "C3 masked"
        );
        assert!(
            !still_present(FaultKind::PreComplete, Some(REVIEW)),
            "C4 named: fixed"
        );
    }

    #[test]
    fn plan_respects_the_rate_and_is_deterministic() {
        assert_eq!(planned(1, "t_a_001", 0.0), None);
        assert!(planned(1, "t_a_001", 1.0).is_some());
        assert_eq!(planned(4, "t_b_002", 0.5), planned(4, "t_b_002", 0.5));
    }

    #[test]
    fn deeper_plans_extend_the_first_mistake_with_different_ones() {
        for t in ["t_a_001", "t_b_002", "t_c_003", "t_d_004"] {
            let one = planned_all(9, t, 1.0, 1);
            let all = planned_all(9, t, 1.0, 3);
            assert_eq!(one.len(), 1);
            assert_eq!(all.len(), 3, "rate 1.0 and depth 3 plan every kind");
            assert!(all.contains(&one[0]), "depth keeps the first mistake");
            assert!(all.windows(2).all(|w| w[0].condition() < w[1].condition()));
        }
        assert!(planned_all(9, "t_a_001", 0.0, 3).is_empty());
    }

    #[test]
    fn typos_and_mutations_always_change_the_value() {
        assert_eq!(typo("channel"), "chanel");
        assert_eq!(typo("a"), "a_");
        assert_eq!(
            first_setup_key("x = S.get(\"y\")\nz = S[\"app\"]").as_deref(),
            Some("app")
        );
        let cases = [
            json!("abc"),
            json!("a"),
            json!(3),
            json!(2.5),
            json!(true),
            json!([1, 2]),
            json!([]),
            json!({"id": "x", "name": "Q"}),
            json!(null),
        ];
        for v in cases {
            assert_ne!(mutate(&v, None), v, "{v}");
        }
        assert_eq!(
            mutate(&json!("text"), Some(&json!("general"))),
            json!("general")
        );
        assert_eq!(mutate(&json!("text"), Some(&json!(["x"]))), json!("tex"));
        assert_eq!(
            mutate(&json!({"id": "x", "name": "Q3"}), None),
            json!({"id": "x", "name": "Q"})
        );
    }
}
