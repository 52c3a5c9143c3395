//! The tuple list view — filters, sort and fuzzy search — computed off the UI thread. The model
//! sends a [`ViewSpec`] with a generation number and keeps drawing the previous view until the
//! matching [`ViewResult`] arrives; stale results are dropped.

use std::cmp::Ordering;
use std::sync::Arc;

use super::fuzzy::{score, SearchText};
use crate::curate::rows::TaskRow;

/// Sort columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortKey {
    /// Task id.
    #[default]
    Id,
    /// Status.
    Status,
    /// App.
    App,
    /// Difficulty (easy < medium < hard).
    Difficulty,
    /// Number of rounds.
    Rounds,
    /// r(gold).
    RGold,
    /// r(init).
    RInit,
    /// Worst critic severity (P0 first, unvoted last).
    Severity,
}

impl SortKey {
    /// Every column, in cycle order.
    pub const ALL: [SortKey; 8] = [
        SortKey::Id,
        SortKey::Status,
        SortKey::App,
        SortKey::Difficulty,
        SortKey::Rounds,
        SortKey::RGold,
        SortKey::RInit,
        SortKey::Severity,
    ];
    /// Column label.
    pub fn label(self) -> &'static str {
        match self {
            SortKey::Id => "id",
            SortKey::Status => "status",
            SortKey::App => "app",
            SortKey::Difficulty => "difficulty",
            SortKey::Rounds => "rounds",
            SortKey::RGold => "r(gold)",
            SortKey::RInit => "r(init)",
            SortKey::Severity => "severity",
        }
    }
}

/// What the list should show.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewSpec {
    /// Generation: results for older generations are ignored.
    pub generation: u64,
    /// The rows (shared, never copied).
    pub rows: Arc<Vec<TaskRow>>,
    /// Fuzzy query over instruction and id (empty = none).
    pub query: String,
    /// Only this status.
    pub status: Option<String>,
    /// Only this difficulty.
    pub difficulty: Option<String>,
    /// Only this app.
    pub app: Option<String>,
    /// Only this worst severity.
    pub severity: Option<String>,
    /// Sort column (with a query and the default sort, the best matches come first).
    pub sort: SortKey,
    /// Descending.
    pub reverse: bool,
}

/// The computed view: indices into the rows.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewResult {
    /// The spec's generation.
    pub generation: u64,
    /// Row indices in display order.
    pub indices: Arc<Vec<u32>>,
}

fn difficulty_rank(d: &str) -> u8 {
    match d {
        "easy" => 0,
        "medium" => 1,
        "hard" => 2,
        _ => 3,
    }
}

fn cmp_f(a: Option<f64>, b: Option<f64>) -> Ordering {
    a.unwrap_or(-1.0).total_cmp(&b.unwrap_or(-1.0))
}

/// Ranking bonus of an id that is the query (exact) or starts with it (prefix): above any fuzzy
/// score, so `/mail_01` lists `mail_01` then `mail_010…` before instructions that mention it.
fn id_bonus(id: &str, query: &str) -> u32 {
    let (i, q) = (id.as_bytes(), query.as_bytes());
    if i.len() < q.len() || !i[..q.len()].eq_ignore_ascii_case(q) {
        0
    } else if i.len() == q.len() {
        2_000_000
    } else {
        1_000_000
    }
}

/// Computes a view. `cache` keeps the lower-cased search text of the rows between calls.
pub fn compute_view(spec: &ViewSpec, cache: &mut SearchText) -> ViewResult {
    let rows = &spec.rows;
    let keep = |r: &TaskRow| {
        spec.status.as_ref().is_none_or(|s| &r.status == s)
            && spec.difficulty.as_ref().is_none_or(|d| &r.difficulty == d)
            && spec.app.as_ref().is_none_or(|a| &r.app == a)
            && spec.severity.as_ref().is_none_or(|s| &r.severity == s)
    };
    let (fields, terms) = super::fields::parse(&spec.query);
    let keep = |r: &TaskRow| keep(r) && fields.iter().all(|f| f.matches(r));
    let mut scored: Vec<(u32, u32)> = Vec::new();
    let query = terms.join(" ");
    if query.is_empty() {
        scored.extend(
            (0..rows.len())
                .filter(|&i| keep(&rows[i]))
                .map(|i| (i as u32, 0)),
        );
    } else {
        let texts = cache.texts(rows);
        for (i, r) in rows.iter().enumerate() {
            if !keep(r) {
                continue;
            }
            if let Some(s) = score(&texts[i], &terms) {
                scored.push((i as u32, s.saturating_add(id_bonus(&r.id, &query))));
            }
        }
    }
    let by_key = |a: &TaskRow, b: &TaskRow| match spec.sort {
        SortKey::Id => a.id.cmp(&b.id),
        SortKey::Status => a.status.cmp(&b.status),
        SortKey::App => a.app.cmp(&b.app),
        SortKey::Difficulty => difficulty_rank(&a.difficulty).cmp(&difficulty_rank(&b.difficulty)),
        SortKey::Rounds => a.rounds.cmp(&b.rounds),
        SortKey::RGold => cmp_f(a.r_gold, b.r_gold),
        SortKey::RInit => cmp_f(a.r_init, b.r_init),
        // Unvoted ("") after P3.
        SortKey::Severity => {
            (a.severity.is_empty(), &a.severity).cmp(&(b.severity.is_empty(), &b.severity))
        }
    };
    let rank_by_score = !query.is_empty() && spec.sort == SortKey::Id;
    // Rows arrive ordered by id, so the row index breaks ties in id order.
    scored.sort_unstable_by(|(ia, sa), (ib, sb)| {
        let (a, b) = (&rows[*ia as usize], &rows[*ib as usize]);
        let o = if rank_by_score {
            sb.cmp(sa).then(ia.cmp(ib))
        } else {
            by_key(a, b).then(ia.cmp(ib))
        };
        if spec.reverse {
            o.reverse()
        } else {
            o
        }
    });
    ViewResult {
        generation: spec.generation,
        indices: Arc::new(scored.into_iter().map(|(i, _)| i).collect()),
    }
}

/// A fresh, empty search-text cache.
pub fn new_matcher() -> SearchText {
    SearchText::default()
}
